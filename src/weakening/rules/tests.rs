use super::*;

#[test]
fn every_built_in_pattern_compiles() {
    for language in ALL {
        let p = patterns(language);
        for pattern in [
            p.defs,
            p.checks,
            p.skips,
            p.test_heads,
            p.equality,
            p.weak,
            p.conditional,
            p.inverting,
        ] {
            let extra = ["@x(".to_string(), "a.b|c".to_string()];
            Regex::new(&full_pattern(pattern, &extra))
                .unwrap_or_else(|e| panic!("{language:?}: {e}: {pattern}"));
        }
    }
}

#[test]
fn templates_parse_holes_rest_and_literals() {
    let t = Template::parse("assert_eq!(A, B, ..)");
    assert_eq!(
        t.0,
        vec![
            Piece::Lit("assert_eq!(".into()),
            Piece::Hole(b'A'),
            Piece::Lit(",".into()),
            Piece::Hole(b'B'),
            Piece::Tail,
            Piece::Lit(")".into()),
        ]
    );
    // Capitals inside words are literal.
    let t = Template::parse("assert A is None");
    assert_eq!(
        t.0,
        vec![
            Piece::Lit("assert".into()),
            Piece::Hole(b'A'),
            Piece::Lit("is None".into())
        ]
    );
}

#[test]
fn languages_by_extension() {
    assert_eq!(
        Language::of_path(b"tests/test_a.py"),
        Some(Language::Python)
    );
    assert_eq!(Language::of_path(b"src/lib.rs"), Some(Language::Rust));
    assert_eq!(
        Language::of_path(b"web/a.test.tsx"),
        Some(Language::JavaScript)
    );
    assert_eq!(Language::of_path(b"pkg/a_test.go"), Some(Language::Go));
    assert_eq!(Language::of_path(b"src/FooTest.kt"), Some(Language::Java));
    assert_eq!(Language::of_path(b"spec/a_spec.rb"), Some(Language::Ruby));
    assert_eq!(
        Language::of_path(b"Tests/ATests.cs"),
        Some(Language::CSharp)
    );
    assert_eq!(Language::of_path(b"Makefile"), None);
    assert_eq!(Language::of_path(b"a.c"), None);
}

#[test]
fn test_paths_by_name() {
    for yes in [
        "tests/a.py",
        "src/test/java/A.java",
        "web/__tests__/a.js",
        "test_x.py",
        "pkg/x_test.go",
        "src/a.test.ts",
        "src/a.spec.js",
        "FooTest.java",
        "TestFoo.java",
        "BarTests.kt",
        "conftest.py",
        "spec/models/user_spec.rb",
        "lib/user_spec.rb",
        "Invoice.Tests/RateTests.cs",
        "src/FluentValidation.Tests/CascadeTester.cs",
        // A dot before the test suffix (Go builds it as a test file).
        "assert/assertion_compare_go1.17_test.go",
        "pkg/v1.2_test.go",
    ] {
        assert!(is_test_path(yes.as_bytes()), "{yes}");
    }
    for no in [
        "src/a.py",
        "src/testing_utils.py",
        "src/contest.py",
        "Test.java",
        "latest.py",
        "src/attest.rs",
        "src/v1.2.py",
        "docs/test.v2.md.txt",
    ] {
        assert!(!is_test_path(no.as_bytes()), "{no}");
    }
}

#[test]
fn runner_paths_are_never_additions() {
    for yes in [
        "tests/conftest.py",
        "tests/fixtures/data.py",
        "spec/spec_helper.rb",
        "test/test_helper.rb",
        "jest.config.js",
        "web/vitest.setup.ts",
        "tests/__init__.py",
        "pkg/testdata/x_test.go",
    ] {
        assert!(is_runner_path(yes.as_bytes()), "{yes}");
    }
    for no in ["tests/test_a.py", "src/a.test.ts", "pkg/x_test.go"] {
        assert!(!is_runner_path(no.as_bytes()), "{no}");
    }
}

#[test]
fn extra_markers_are_literal() {
    let markers = Markers {
        skip: vec!["@my_skip(".into()],
        ..Markers::default()
    };
    let rules = Rules::new(Language::Python, Some(&markers));
    assert!(rules.skips.is_match(b"@my_skip(reason)"));
    assert!(!rules.skips.is_match(b"x = my_skipper"));
}
