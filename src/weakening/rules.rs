//! What tests, assertions and skips look like in each language, as data.
//!
//! Patterns run on code whose comments and strings are already blanked (see `lexer`),
//! so a skip in a comment or a string is never seen. Extra markers from guard.toml
//! (`[weakening.markers.<lang>]`) are added as literal alternatives.

use regex::bytes::Regex;

use super::lexer::{self, Syntax};
use crate::config::Markers;

/// A language the analyser understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// pytest and unittest.
    Python,
    /// `#[test]`, `assert*!`.
    Rust,
    /// Jest, Vitest, Mocha, node:test (and TypeScript).
    JavaScript,
    /// testing and testify.
    Go,
    /// JUnit 4/5, AssertJ, Hamcrest (and Kotlin).
    Java,
}

impl Language {
    /// The language of a path, by extension.
    pub fn of_path(path: &[u8]) -> Option<Language> {
        let name = path.rsplit(|&b| b == b'/').next()?;
        let ext = name.rsplit(|&b| b == b'.').next()?;
        if ext.len() == name.len() {
            return None;
        }
        Some(match ext {
            b"py" | b"pyi" => Language::Python,
            b"rs" => Language::Rust,
            b"js" | b"jsx" | b"mjs" | b"cjs" | b"ts" | b"tsx" | b"mts" | b"cts" => {
                Language::JavaScript
            }
            b"go" => Language::Go,
            b"java" | b"kt" | b"kts" => Language::Java,
            _ => return None,
        })
    }

    /// The key under `[weakening.markers]`.
    pub fn key(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Rust => "rust",
            Language::JavaScript => "javascript",
            Language::Go => "go",
            Language::Java => "java",
        }
    }

    /// Comment and string syntax.
    pub fn syntax(self) -> &'static Syntax {
        match self {
            Language::Python => &lexer::PYTHON,
            Language::Rust => &lexer::RUST,
            Language::JavaScript => &lexer::JAVASCRIPT,
            Language::Go => &lexer::GO,
            Language::Java => &lexer::JAVA,
        }
    }

    /// Raw byte strings whose presence makes a file *not named as a test* test code.
    ///
    /// Test runners find tests by file name (pytest's `test_*.py`, Jest's `*.test.js`,
    /// `go test`'s `*_test.go`, Maven's `src/test/`), and so does git-guard; only Rust
    /// keeps unit tests inside ordinary source files (`#[cfg(test)]`), so only Rust files
    /// have their content read to decide. This keeps a large change of ordinary source
    /// files free of blob reads.
    pub fn inline_test_markers(self) -> &'static [&'static str] {
        match self {
            Language::Rust => &["#[test]", "#[cfg(test)]", "::test]", "#[rstest"],
            _ => &[],
        }
    }
}

/// Whether a path looks like test code by name alone.
pub fn is_test_path(path: &[u8]) -> bool {
    let mut components = path.split(|&b| b == b'/').peekable();
    while let Some(component) = components.next() {
        let is_file = components.peek().is_none();
        if !is_file {
            if matches!(
                component,
                b"tests" | b"test" | b"__tests__" | b"spec" | b"testing" | b"e2e"
            ) {
                return true;
            }
            continue;
        }
        let stem = component.split(|&b| b == b'.').next().unwrap_or(component);
        return stem.starts_with(b"test_")
            || stem.ends_with(b"_test")
            || stem.ends_with(b"_tests")
            || stem == b"conftest"
            || (stem.starts_with(b"Test") && stem.len() > 4)
            || (stem.ends_with(b"Test") && stem.len() > 4)
            || stem.ends_with(b"Tests")
            || contains(component, b".test.")
            || contains(component, b".spec.");
    }
    false
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// Compiled patterns for one language (plus any markers from guard.toml).
#[derive(Debug, Clone)]
pub struct Rules {
    /// Test definitions.
    pub tests: Regex,
    /// Assertions of any strength.
    pub asserts: Regex,
    /// Skips, ignores, focus (`.only`) and assumptions.
    pub skips: Regex,
    /// Exact (equality) assertions.
    pub equality: Regex,
    /// Assertions weaker than equality (order, truthiness, presence).
    pub weak: Regex,
}

struct Patterns {
    tests: &'static str,
    asserts: &'static str,
    skips: &'static str,
    equality: &'static str,
    weak: &'static str,
}

fn patterns(language: Language) -> Patterns {
    match language {
        Language::Python => Patterns {
            tests: r"(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(",
            asserts: r"\bassert\b[ \t(]|\.assert\w*[ \t]*\(|\bassert_\w+[ \t]*\(|\bpytest\.(?:raises|approx)[ \t]*\(|\.fail\w*[ \t]*\(",
            skips: r"@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.(?:skip|skipIf|skipUnless|expectedFailure)\b|\bpytest\.(?:skip|xfail)[ \t]*\(|\.skipTest[ \t]*\(|@(?:skip|skipIf|skipUnless)\b",
            equality: r"\.assert(?:Equal|Equals|ListEqual|DictEqual|TupleEqual|SetEqual|SequenceEqual|MultiLineEqual|CountEqual|AlmostEqual|Is)[ \t]*\(|\bassert\b[^\n]*?==",
            weak: r"\.assert(?:True|False|IsNotNone|IsNone|Greater|GreaterEqual|Less|LessEqual|In|NotIn|NotEqual|NotAlmostEqual|IsNot|IsInstance)[ \t]*\(|\bassert\b(?:[^\n=]|[<>!]=)*(?:\n|$)",
        },
        Language::Rust => Patterns {
            tests: r"#\[(?:\w+::)*test\b|#\[rstest\b",
            asserts: r"\b(?:debug_)?assert(?:_eq|_ne|_matches)?!|\bprop_assert\w*!",
            skips: r"#\[ignore\b",
            equality: r"\b(?:debug_)?assert_eq!|\bprop_assert_eq!|\bassert!\s*\([^;]*?==",
            weak: r"\b(?:debug_)?assert!\s*\((?:[^;=]|[<>!]=)*;|\bassert_ne!",
        },
        Language::JavaScript => Patterns {
            tests: r"\b(?:it|test|xit|xtest|fit)\b(?:\s*\.\s*(?:skip|only|todo|concurrent|failing|each))?\s*\(",
            asserts: r"\bexpect\s*\(|\bassert\b(?:\s*\.\s*\w+)?\s*\(",
            skips: r"\b(?:it|test|describe|suite|context)\s*\.\s*(?:skip|only)\b|\b(?:xit|xtest|xdescribe|fit|fdescribe)\s*\(|\bt\s*\.\s*skip\s*\(|\bskip\s*:\s*true\b",
            equality: r"\.\s*(?:toEqual|toBe|toStrictEqual|toBeCloseTo|toMatchObject|toMatchSnapshot|toMatchInlineSnapshot|toHaveLength|toHaveBeenCalledWith|toThrow)\s*\(|\bassert\s*\.\s*(?:equal|strictEqual|deepEqual|deepStrictEqual)\s*\(",
            weak: r"\.\s*(?:toBeDefined|toBeTruthy|toBeFalsy|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toContain|toBeInstanceOf|toHaveProperty|toHaveBeenCalled)\s*\(|\.\s*not\s*\.\s*(?:toBeNull|toBeUndefined)\s*\(|\bassert\s*\.\s*ok\s*\(|\bassert\s*\(",
        },
        Language::Go => Patterns {
            tests: r"(?m)^func\s+Test\w*\s*\(",
            asserts: r"\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(?:assert|require)\.\w+\s*\(",
            skips: r"\bt\.(?:Skip|Skipf|SkipNow)\s*\(",
            equality: r"\b(?:assert|require)\.(?:Equal|EqualValues|Exactly|EqualError|JSONEq|YAMLEq|Same|InDelta|InEpsilon|ElementsMatch)\s*\(",
            weak: r"\b(?:assert|require)\.(?:True|False|NotNil|Nil|NotEmpty|Greater|GreaterOrEqual|Less|LessOrEqual|Positive|NotZero|Contains|NotEqual|NoError|Error)\s*\(",
        },
        Language::Java => Patterns {
            tests: r"@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b",
            asserts: r"\bassert\w*\s*\(|\bassert\s+[^;\n(]",
            skips: r"@(?:Disabled|Ignore)\b|\bAssumptions?\s*\.\s*assume\w*\s*\(|\bassume(?:True|False|That)\s*\(",
            equality: r"\bassert(?:Equals|ArrayEquals|IterableEquals|LinesMatch|Same)\s*\(|\.\s*(?:isEqualTo|isSameAs|containsExactly|isEqualByComparingTo)\s*\(|\b(?:equalTo|is)\s*\(",
            weak: r"\bassert(?:True|False|NotNull|Null|NotEquals|NotSame)\s*\(|\.\s*(?:isNotNull|isNotEmpty|isPositive|isGreaterThan|isGreaterThanOrEqualTo|isLessThan|isLessThanOrEqualTo|isTrue|isFalse|contains|isNotEqualTo)\s*\(|\b(?:notNullValue|greaterThan|greaterThanOrEqualTo|lessThan|lessThanOrEqualTo|anything|containsString|hasItem)\s*\(",
        },
    }
}

impl Rules {
    /// The rules for `language`, with `extra` markers from guard.toml added.
    pub fn new(language: Language, extra: Option<&Markers>) -> Rules {
        let p = patterns(language);
        let build = |base: &str, extra: &[String]| {
            Regex::new(&full_pattern(base, extra)).unwrap_or_else(|_| never())
        };
        let none = Markers::default();
        let extra = extra.unwrap_or(&none);
        Rules {
            tests: build(p.tests, &extra.test),
            asserts: build(p.asserts, &extra.assert),
            skips: build(p.skips, &extra.skip),
            equality: build(p.equality, &[]),
            weak: build(p.weak, &[]),
        }
    }
}

/// A built-in pattern made fast and extended with literal markers.
///
/// The lexer's output is ASCII, so ASCII classes and word boundaries (`(?-u)`) mean the
/// same as Unicode ones there; they compile in a fraction of the time (this runs in the
/// commit hook) and let the lazy DFA run instead of a slower engine.
fn full_pattern(base: &str, extra: &[String]) -> String {
    let mut pattern = format!("(?-u){base}");
    for marker in extra {
        pattern.push('|');
        pattern.push_str(&regex::escape(marker));
    }
    pattern
}

/// A regex that matches nothing.
fn never() -> Regex {
    Regex::new(r"[^\s\S]").unwrap_or_else(|_| unreachable!("a valid empty class"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_pattern_compiles() {
        for language in [
            Language::Python,
            Language::Rust,
            Language::JavaScript,
            Language::Go,
            Language::Java,
        ] {
            let p = patterns(language);
            for pattern in [p.tests, p.asserts, p.skips, p.equality, p.weak] {
                let extra = ["@x(".to_string(), "a.b|c".to_string()];
                Regex::new(&full_pattern(pattern, &extra))
                    .unwrap_or_else(|e| panic!("{language:?}: {e}"));
            }
        }
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
        assert_eq!(Language::of_path(b"Makefile"), None);
        assert_eq!(Language::of_path(b"a.rb"), None);
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
        ] {
            assert!(!is_test_path(no.as_bytes()), "{no}");
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
        assert!(!rules.skips.is_match(b"@my_skipper"));
    }
}
