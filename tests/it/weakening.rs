//! Weakening found in test code wherever it lives, through the real hooks and `ci`.

use crate::common::{Run, TestRepo};

const LIB: &str = "pub fn rate() -> f64 {\n    0.075\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn rate_is_exact() {\n        assert_eq!(super::rate(), 0.075);\n    }\n}\n";

fn repo_with_inline_rust_tests() -> TestRepo {
    repo_with_inline_rust_tests_and_policy(None)
}

/// `src/lib.rs` with an inline test module, an optional guard.toml, hooks installed.
fn repo_with_inline_rust_tests_and_policy(policy: Option<&str>) -> TestRepo {
    let repo = TestRepo::new();
    if let Some(policy) = policy {
        repo.write("guard.toml", policy);
    }
    repo.write("src/lib.rs", LIB);
    repo.commit_all("lib with inline tests");
    repo.guard(&["install"]).expect(0);
    repo
}

/// Stages `#[ignore]` on the inline test (line 8 of src/lib.rs).
fn stage_ignore(repo: &TestRepo) {
    repo.write(
        "src/lib.rs",
        LIB.replace("    #[test]\n", "    #[test]\n    #[ignore]\n"),
    );
    repo.git(&["add", "-A"]);
}

#[test]
fn loosening_an_inline_rust_test_outside_protected_paths_is_blocked() {
    let repo = repo_with_inline_rust_tests();
    repo.write(
        "src/lib.rs",
        LIB.replace(
            "assert_eq!(super::rate(), 0.075);",
            "assert!(super::rate() >= 0.0);",
        ),
    );
    repo.git(&["add", "-A"]);
    let run = repo.commit("make CI green", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("! assertion-loosened src/lib.rs:9: `assert_eq!(super::rate(), 0.075);` replaced by `assert!(super::rate() >= 0.0);`"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("protected by"), "{}", run.stderr);
    // Approving records the finding in the note.
    repo.human(&[
        "allow",
        "--reason",
        "The rate is configurable now; exactness is tested in config",
    ])
    .expect(0);
    repo.commit("make CI green", &[]).expect(0);
    let note = repo.note("HEAD").unwrap();
    assert!(note.contains("Guard-Paths: src/lib.rs\n"), "{note}");
    assert!(
        note.contains("Guard-Findings: assertion-loosened src/lib.rs:9\n"),
        "{note}"
    );
}

#[test]
fn an_ignore_added_to_an_inline_test_is_blocked() {
    let repo = repo_with_inline_rust_tests();
    stage_ignore(&repo);
    let run = repo.commit("ignore it", &[]);
    run.expect(1);
    assert!(
        run.stderr
            .contains("! skip-added src/lib.rs:8: `#[ignore]` added"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_honest_refactor_of_unprotected_test_code_passes_silently() {
    let repo = repo_with_inline_rust_tests();
    let refactored = LIB.replace(
        "        assert_eq!(super::rate(), 0.075);",
        "        // exact: rounding depends on it\n        let expected = 0.075;\n        assert_eq!(super::rate(), expected, \"#[ignore] never\");",
    );
    repo.write("src/lib.rs", refactored);
    repo.git(&["add", "-A"]);
    let run = repo.commit("refactor test", &[]);
    run.expect(0);
    assert_eq!(run.all(), "");
}

#[test]
fn a_javascript_skip_in_a_colocated_test_file_is_blocked() {
    let repo = TestRepo::new();
    let spec = "import { rate } from './rate';\n\ndescribe('rate', () => {\n  it('is exact', () => {\n    expect(rate()).toBe(0.075);\n  });\n});\n";
    repo.write("web/src/rate.test.js", spec);
    repo.commit_all("spec");
    repo.guard(&["install"]).expect(0);
    repo.write(
        "web/src/rate.test.js",
        spec.replace("  it('is exact'", "  it.skip('is exact'"),
    );
    repo.git(&["add", "-A"]);
    let run = repo.commit("skip", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("! skip-added web/src/rate.test.js:4"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_finding_outside_block_is_a_warning_and_the_commit_goes_through() {
    let repo = repo_with_inline_rust_tests_and_policy(Some(
        "[protect]
paths = []

[weakening]
block = []
",
    ));
    stage_ignore(&repo);
    let run = repo.commit("ignore it", &[]);
    run.expect(0);
    assert!(
        run.stderr
            .contains("warning: weakening found (not blocking"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("skip-added src/lib.rs:8"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("(warning only)"), "{}", run.stderr);
}

#[test]
fn weakening_disabled_turns_content_analysis_off() {
    let repo = repo_with_inline_rust_tests_and_policy(Some(
        "[weakening]
enabled = false
",
    ));
    stage_ignore(&repo);
    repo.commit("ignore it", &[]).expect(0);
}

#[test]
fn moving_a_test_out_of_tests_is_caught_under_the_default_policy() {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    std::fs::create_dir(repo.root.join("checks")).unwrap();
    repo.git(&["mv", "tests/test_invoice.py", "checks/test_invoice.py"]);
    let run = repo.commit("move", &[]);
    run.expect(1);
    assert!(
        run.stderr
            .contains("! protected-moved checks/test_invoice.py"),
        "{}",
        run.stderr
    );
}

#[test]
fn moving_a_test_within_protected_paths_has_no_finding() {
    let repo = TestRepo::with_history();
    std::fs::create_dir(repo.root.join("tests/unit")).unwrap();
    repo.git(&["mv", "tests/test_invoice.py", "tests/unit/test_invoice.py"]);
    let run = repo.guard(&["check", "--format", "json"]);
    run.expect(1); // still a protected change…
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["checked"][0]["findings"], serde_json::json!([])); // …but no weakening
}

#[test]
fn ci_annotates_findings_at_their_line() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE >= 0\n",
    );
    repo.commit_all("make CI green");
    let out = repo
        .command_in(crate::common::GUARD, &repo.root)
        .args(["ci", "--base", "main", "--format", "github", "--no-fetch"])
        .output()
        .unwrap();
    let run = Run::from(out);
    run.expect(1);
    assert!(
        run.stdout.contains(
            "::error file=tests/test_invoice.py,line=2,title=git-guard%3A assertion-loosened::"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("changes only protected test code and weakens it"),
        "{}",
        run.stdout
    );
}

/// A Go table test with three rows, and the same loop for a copy of the table in a
/// file built only by newer compilers.
const COMPARE_TEST: &str = "package cmp\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestCompare(t *testing.T) {\n\ttype customTime time.Time\n\tfor _, c := range []struct {\n\t\tless    interface{}\n\t\tgreater interface{}\n\t}{\n\t\t{less: 1, greater: 2},\n\t\t{less: \"a\", greater: \"b\"},\n\t\t{less: customTime(time.Now()), greater: customTime(time.Now().Add(time.Hour))},\n\t} {\n\t\tif compare(c.less, c.greater) != less {\n\t\t\tt.Errorf(\"%v is not less than %v\", c.less, c.greater)\n\t\t}\n\t}\n}\n";

fn compare_without_time_row() -> String {
    COMPARE_TEST
        .replace("\ttype customTime time.Time\n", "")
        .replace(
            "\t\t{less: customTime(time.Now()), greater: customTime(time.Now().Add(time.Hour))},\n",
            "",
        )
        .replace("\t\"testing\"\n\t\"time\"\n", "\t\"testing\"\n")
}

fn compare_for_newer_go() -> String {
    COMPARE_TEST
        .replace("package cmp\n", "//go:build go1.17\n\npackage cmp\n")
        .replace("TestCompare(", "TestCompare17(")
        .replace(
            "\t\t{less: 1, greater: 2},\n\t\t{less: \"a\", greater: \"b\"},\n",
            "",
        )
}

fn go_compare_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("cmp_test.go", COMPARE_TEST);
    repo.commit_all("compare test");
    repo
}

#[test]
fn table_rows_moved_into_a_test_file_for_newer_go_are_not_removed() {
    let repo = go_compare_repo();
    repo.write("cmp_test.go", compare_without_time_row());
    repo.write("cmp_go1.17_test.go", compare_for_newer_go());
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    assert!(!run.all().contains("test-removed"), "{}", run.all());
}

#[test]
fn table_rows_deleted_are_removed_cases() {
    let repo = go_compare_repo();
    repo.write("cmp_test.go", compare_without_time_row());
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    assert!(
        run.all()
            .contains("test-removed cmp_test.go:7: `TestCompare`: 3 cases before, 2 after"),
        "{}",
        run.all()
    );
}

#[test]
fn a_test_file_deleted_once_its_rows_are_back_in_the_main_table_is_not_removed() {
    let repo = go_compare_repo();
    repo.write("cmp_test.go", compare_without_time_row());
    repo.write("cmp_go1.17_test.go", compare_for_newer_go());
    repo.commit_all("time rows only for go1.17");
    repo.write("cmp_test.go", COMPARE_TEST);
    repo.git(&["rm", "-q", "cmp_go1.17_test.go"]);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    assert!(!run.all().contains("test-removed"), "{}", run.all());
}

#[test]
fn a_skip_in_a_test_file_with_a_dot_before_its_suffix_is_caught() {
    // `cmp_go1.17_test.go` is a Go test file: it was read as `cmp_go1` (not a test
    // path), so a skip or a deleted check in it went unseen.
    let repo = TestRepo::new();
    repo.write("cmp_go1.17_test.go", compare_for_newer_go());
    repo.commit_all("compare test for newer go");
    repo.write(
        "cmp_go1.17_test.go",
        compare_for_newer_go().replace(
            "func TestCompare17(t *testing.T) {\n",
            "func TestCompare17(t *testing.T) {\n\tt.Skip()\n",
        ),
    );
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    assert!(
        run.all().contains("skip-added cmp_go1.17_test.go:"),
        "{}",
        run.all()
    );
}
