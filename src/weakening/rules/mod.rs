//! What tests, checks and skips look like in each language, as data.
//!
//! Patterns run on code whose comments and strings are already blanked (see `lexer`),
//! so a skip in a comment or a string is never seen. Extra markers from guard.toml
//! (`[weakening.markers.<lang>]`) are added as literal alternatives.
//!
//! Beside the patterns, each language has a table of equivalences (`EQUIVALENCES`):
//! rewrites that bring two spellings of the same check to one canonical text, so that
//! `assert_eq!(x, true)` and `assert!(x)` are the same check. Templates use `A`, `B`,
//! `C`, `T` for balanced sub-expressions (the same letter twice must match the same
//! text), `P`, `Q` for plain operands (no operator at their top level) and `..` for
//! "any further arguments".

mod equivalences;

pub use equivalences::EQUIVALENCES;

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
    /// JUnit 3/4/5, AssertJ, Hamcrest (and Kotlin).
    Java,
    /// RSpec and minitest.
    Ruby,
    /// xUnit, NUnit, MSTest.
    CSharp,
}

/// Every language, in a fixed order (the index of each is its slot in caches).
pub const ALL: [Language; 7] = [
    Language::Python,
    Language::Rust,
    Language::JavaScript,
    Language::Go,
    Language::Java,
    Language::Ruby,
    Language::CSharp,
];

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
            b"rb" => Language::Ruby,
            b"cs" => Language::CSharp,
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
            Language::Ruby => "ruby",
            Language::CSharp => "csharp",
        }
    }

    /// The slot of this language in [`ALL`].
    pub fn index(self) -> usize {
        ALL.iter().position(|&l| l == self).unwrap_or(0)
    }

    /// Comment and string syntax.
    pub fn syntax(self) -> &'static Syntax {
        match self {
            Language::Python => &lexer::PYTHON,
            Language::Rust => &lexer::RUST,
            Language::JavaScript => &lexer::JAVASCRIPT,
            Language::Go => &lexer::GO,
            Language::Java => &lexer::JAVA,
            Language::Ruby => &lexer::RUBY,
            Language::CSharp => &lexer::CSHARP,
        }
    }

    /// Whether blocks are delimited by indentation (Python; Ruby's `do … end` is read
    /// by indentation too) rather than braces.
    pub fn indented(self) -> bool {
        matches!(self, Language::Python | Language::Ruby)
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
            ) || [
                &b".Tests"[..],
                b".Test",
                b".UnitTests",
                b".IntegrationTests",
                b".Specs",
            ]
            .iter()
            .any(|s| component.ends_with(s))
            {
                return true;
            }
            continue;
        }
        // The name before its first dot (`test_x` in `test_x.py`, `a` in `a.test.js`)
        // and before its last (`compare_go1.17_test` in `compare_go1.17_test.go`, a
        // Go test file built only by newer compilers).
        let first = component.split(|&b| b == b'.').next().unwrap_or(component);
        let last = component
            .iter()
            .rposition(|&b| b == b'.')
            .map_or(component, |dot| &component[..dot]);
        let named = |stem: &[u8]| {
            stem.starts_with(b"test_")
                || stem.ends_with(b"_test")
                || stem.ends_with(b"_tests")
                || stem.ends_with(b"_spec")
                || stem == b"conftest"
                || (stem.starts_with(b"Test") && stem.len() > 4)
                || (stem.ends_with(b"Test") && stem.len() > 4)
                || stem.ends_with(b"Tests")
        };
        return named(first)
            || named(last)
            || contains(component, b".test.")
            || contains(component, b".spec.");
    }
    false
}

/// Whether a path is test *infrastructure* rather than tests: runner configuration,
/// conftest, fixtures, snapshots, shared helpers. A change to one is never a
/// strengthening, however it looks.
pub fn is_runner_path(path: &[u8]) -> bool {
    let mut components = path.split(|&b| b == b'/').peekable();
    while let Some(component) = components.next() {
        let is_file = components.peek().is_none();
        if !is_file {
            if matches!(
                component,
                b"fixtures"
                    | b"__fixtures__"
                    | b"testdata"
                    | b"__snapshots__"
                    | b"snapshots"
                    | b"support"
                    | b"helpers"
                    | b"__mocks__"
                    | b"mocks"
            ) {
                return true;
            }
            continue;
        }
        let stem = component.split(|&b| b == b'.').next().unwrap_or(component);
        return matches!(
            stem,
            b"conftest"
                | b"__init__"
                | b"spec_helper"
                | b"rails_helper"
                | b"test_helper"
                | b"setup"
                | b"setupTests"
                | b"setup_tests"
                | b"globalSetup"
                | b"global_setup"
                | b"main_test"
                | b"noxfile"
                | b"jest"
                | b"vitest"
                | b"karma"
                | b"playwright"
                | b"cypress"
        ) || contains(component, b".config.")
            || contains(component, b".setup.")
            || component.ends_with(b".snap")
            || stem.ends_with(b"_helper")
            || stem.ends_with(b"_helpers")
            || stem.ends_with(b"Helper")
            || stem.ends_with(b"Helpers")
            || stem.ends_with(b"Fixture")
            || stem.ends_with(b"Fixtures");
    }
    false
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// Compiled patterns for one language (plus any markers from guard.toml).
#[derive(Debug, Clone)]
pub struct Rules {
    /// The language.
    pub language: Language,
    /// Function, test and block definitions (how each is read is per language).
    pub defs: Regex,
    /// The start of a check (an assertion of any strength).
    pub checks: Regex,
    /// Skips, ignores, focus (`.only`), assumptions, and other ways to not run a test.
    pub skips: Regex,
    /// Markers in a definition's head (decorators, attributes) that make it a test.
    pub test_heads: Regex,
    /// Extra test markers from guard.toml (literal), if any.
    pub extra_tests: Option<Regex>,
    /// Canonical check texts that are equality-strength.
    pub equality: Regex,
    /// Canonical check texts weaker than equality (order, truthiness, presence, match).
    pub weak: Regex,
    /// Skip texts that only skip under a condition (platform, assumption, `if`).
    pub conditional: Regex,
    /// Skip texts that make the test pass when it fails (`#[should_panic]`,
    /// `except AssertionError`): reported as loosening.
    pub inverting: Regex,
    /// The equivalence table, parsed.
    pub equivalences: Vec<(Template, Template)>,
    /// Checks that can never fail (`assert x == x`, `assert … or True`).
    pub tautologies: Vec<Template>,
    /// Checks whose two operands may be swapped (`assert a == b` ≡ `assert b == a`).
    pub symmetric: Vec<Template>,
    /// Checks that only say a value exists ([`NON_NULL`]).
    pub non_null: Vec<Template>,
    /// Checks that only say a value is not empty ([`NON_EMPTY`]).
    pub non_empty: Vec<Template>,
    /// Checks that fail when their operand is missing ([`NEEDS_VALUE`]).
    pub needs_value: Vec<Template>,
}

struct Patterns {
    defs: &'static str,
    checks: &'static str,
    skips: &'static str,
    test_heads: &'static str,
    equality: &'static str,
    weak: &'static str,
    conditional: &'static str,
    inverting: &'static str,
}

fn patterns(language: Language) -> Patterns {
    match language {
        Language::Python => Patterns {
            defs: r"\b(?:async[ \t]+)?def[ \t]+\w+|\bclass[ \t]+\w+",
            checks: r"\bassert\b|\.assert[A-Z_]\w*[ \t]*\(|\bassert_\w+[ \t]*\(|\bpytest\.(?:raises|warns|deprecated_call|fail)[ \t]*\(|\bself\.fail[ \t]*\(|\bexpect[ \t]*\(",
            skips: r"@[\w.]*(?:skip|xfail|expectedFailure|flaky)\w*|\bpytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail|importorskip)[ \t]*\(|\.skipTest[ \t]*\(|\braise[ \t]+(?:unittest\.)?SkipTest\b|\b__test__[ \t]*=[ \t]*False\b|\bcollect_ignore(?:_glob)?[ \t]*(?:\+?=|\.(?:append|extend)\b)|\bconfig\.hook\.pytest_deselected\b|\bitems\[:\][ \t]*=|\bassume[ \t]*\(|\bskip_?\w*[ \t]*\(|\bexcept[ \t(]+(?:\w+[ \t]*,[ \t]*)*AssertionError\b",
            test_heads: r"[^\s\S]",
            equality: r"^(?:(?:pd|pandas|np|numpy)\.testing\.|tm\.)?assert_(?:frame|series|index|extension_array|array)_equal\(|^assert\b(?:[^=]|\w=)*[^!<>=]==[^=]|^assert\b.* is None$|^assert not [\w.]+(?:\([^()]*\))?$|^assert\b.*\bis (?:[^n]|n[^o]|no[^t]|not\w)|\.assert(?:Equal|Equals|ListEqual|DictEqual|TupleEqual|SetEqual|SequenceEqual|MultiLineEqual|CountEqual|AlmostEqual|Is|Raises\w*)\(|\.assert_(?:called_once_with|called_with|has_calls|awaited_once_with|awaited_with)\(",
            weak: r"^assert\b|\.assert(?:True|False|IsNotNone|IsNone|Greater|GreaterEqual|Less|LessEqual|In|NotIn|NotEqual|NotAlmostEqual|IsNot|IsInstance|Regex)\w*\(|\.assert_(?:called|called_once|any_call|awaited|awaited_once)\(",
            conditional: r"skipif|skipIf|skipUnless|importorskip|_if|_unless|_on|_without|\bif\b|^assume",
            inverting: r"AssertionError",
        },
        Language::Rust => Patterns {
            defs: r"\bfn[ \t]+\w+|\b[a-z_]\w*![ \t]*[({][ \t]*\w+[ \t]*,",
            checks: r"\b(?:debug_)?assert\w*!|\bprop_assert\w*!|\.assert\(\)|\.expect_\w+[ \t]*\([ \t]*\)",
            skips: r"#\[ignore\b|#\[cfg_attr[ \t]*\([^\]]*\bignore\b|#!?\[cfg[ \t]*\(|#\[should_panic\b|\bprop_assume![ \t]*\(",
            test_heads: r"#\[(?:\w+::)*test\b|#\[rstest\b|#\[test_case\b|#\[quickcheck\b|#\[proptest\b",
            equality: r"^assert_matches!|^(?:debug_)?assert_eq!|^prop_assert_eq!|^assert_\w*snapshot!|^assert_data_eq!|^assert!\(!?[\w.]*\.is_(?:none|empty)\(\)\)$|^\.assert\(\).*\.(?:code\(|(?:stdout|stderr)\((?:\x22|predicates?::(?:eq|str::diff)\())",
            weak: r"^(?:debug_)?assert!|^\.assert\(\)(?:\.(?:success|failure)\(\)|\.(?:stdout|stderr)\(predicates?::(?:str::(?:contains|starts_with|ends_with|is_match|is_empty)|always)\b[^;]*)*$|^assert_ne!|^prop_assert!|^assert_matches!\(.*(?:\.\.|[(,{ ]_[),} ])",
            conditional: r"cfg_attr|cfg\((?:not\(|unix|windows|target|feature|all\(|any\(.)|prop_assume",
            inverting: r"should_panic",
        },
        Language::JavaScript => Patterns {
            defs: r"\b(?:it|test|xit|xtest|fit|specify)\b(?:[ \t]*\.[ \t]*(?:skip|only|todo|concurrent|failing|each|skipIf|runIf|fails|sequential|fixme))*(?:[ \t]*<[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>)?[ \t]*[(`]|\b(?:test|it)[A-Z_]\w*[ \t]*\(\s*['`\x22]|\b(?:describe|context|suite|xdescribe|fdescribe)\b(?:[ \t]*\.[ \t]*\w+)*(?:[ \t]*<[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>)?[ \t]*[(`]|\bfunction[ \t]*\*?[ \t]*\w+[ \t]*\(|\b(?:const|let|var)[ \t]+\w+[ \t]*=[ \t]*(?:async[ \t]*)?(?:\([^)]*\)|\w+)[ \t]*=>",
            checks: r"(?m)^[ \t]*(?:await[ \t]+)?(?:screen[ \t]*\.[ \t]*)?(?:get|find)(?:All)?By[A-Z]\w*[ \t]*\(|\bexpect\b(?:\s*\.\s*(?:poll|soft|element))?[ \t]*\(|\bexpectTypeOf[ \t]*(?:<[^\n]*?>)?[ \t]*\(|\bassert\b(?:[ \t]*\.[ \t]*\w+)?[ \t]*\(|\.should[ \t]*\([ \t]*['\x22]|\bt[ \t]*\.[ \t]*(?:is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|throws|throwsAsync|regex|like|equal|same|ok|notOk|match|strictSame|strictEqual)[ \t]*\(",
            skips: r"\b(?:it|test|describe|suite|context|specify)(?:[ \t]*\.[ \t]*(?:concurrent|sequential|serial|parallel))*[ \t]*\.[ \t]*(?:skip|only|todo|skipIf|runIf|fixme|failing|fails)\b|\bjest[ \t]*\.[ \t]*retryTimes[ \t]*\(|\bthis[ \t]*\.[ \t]*retries[ \t]*\([ \t]*[1-9]|\bdescribe[ \t]*\.[ \t]*configure[ \t]*\([ \t]*\{[^{}]*\bretries[ \t]*:[ \t]*[1-9]|\b(?:it|test|describe|suite)[ \t]*\([^,()]*,[ \t]*\{[^{}]*\b(?:retry|repeats)[ \t]*:[ \t]*[1-9]|\b(?:it|test|describe|suite)[ \t]*\([^,()]*,[ \t]*\{[^{}]*\b(?:skip|todo)[ \t]*:[ \t]*(?:true\b|[\x22\x27`]|[A-Za-eg-z_$(!]|f[^a])|\b(?:xit|xtest|xdescribe|xcontext|xspecify|fit|fdescribe|fcontext)[ \t]*\(|\b(?:t|this)[ \t]*\.[ \t]*skip[ \t]*\(|\btestInfo[ \t]*\.[ \t]*(?:skip|fixme)[ \t]*\(|\b(?:ctx|context|task)[ \t]*\.[ \t]*skip[ \t]*\([ \t]*[^\d \t]|\b(?:it|test)[ \t]*\([^,()]*,(?:[ \t]*\{[^{}]*\}[ \t]*,)?[ \t]*(?:async[ \t]*)?(?:function[ \t]*)?\([ \t]*\{[^}]*\bskip\b[^}]*\}[^)]*\)|\bskip[ \t]*:[ \t]*true\b|\bskip[A-Z]\w*[ \t]*\(|\bfc[ \t]*\.[ \t]*pre[ \t]*\(",
            test_heads: r"[^\s\S]",
            equality: r"\.rejectedWith\([^)]|\.should\(['\x22](?:have\.text|have\.value|have\.length|eq|equal|deep\.equal|have\.attr|have\.prop|have\.css|match|be\.(?:true|false|null|undefined|disabled|enabled|checked|empty))['\x22]|\.(?:toBeNull|toBeUndefined|toMatchSnapshot|toMatchInlineSnapshot)\(|\.to\.(?:be\.)?(?:null|undefined|NaN)$|\.to\.(?:\w+\.)*throws?\([^)]|\.toHaveClass\([^)]|\.(?:toEqual|toBe|toStrictEqual|toBeCloseTo|toHaveLength|toHaveBeenCalledWith|toHaveBeenCalledTimes|toHaveBeenNthCalledWith|toHaveBeenLastCalledWith|closeTo|approximately|toThrow|toThrowError|toBeNull|toBeUndefined|toHaveTextContent|toHaveValue|toHaveText|toHaveURL|toHaveTitle|toHaveCount|lengthOf|equal|equals|eql|deep\.equal|strictEqual|deepEqual|deepStrictEqual|rejects|throws|is|same|strictSame)\([^)]|^assert\.(?:equal|strictEqual|deepEqual|deepStrictEqual|throws|rejects|match)\(|^(?:sinon\.)?assert\.(?:calledWith\w*|calledOnceWith\w*|alwaysCalledWith\w*|callCount|callOrder)\(",
            weak: r"\.rejected$|\.rejectedWith\(\)|\.should\(['\x22](?:exist|be\.visible|contain|contain\.text|include|have\.length\.(?:greaterThan|gt|gte|above|at\.least)|be\.ok|not\.be\.empty|have\.class)['\x22]|\.not\.|^(?:sinon\.)?assert\.(?:called|calledOnce|calledTwice|calledThrice|notCalled|threw|neverCalledWith\w*)\(|\.(?:toBe|toEqual|toStrictEqual)\((?:true|false)\)|\.toMatchObject\(|\bexpect\.(?:objectContaining|arrayContaining|anything)\(|\.(?:include|includes|contain|contains)\(|\.toThrow(?:Error)?\(\)|\.(?:have\.)?(?:own\.)?property\([^,()]*\)$|^(?:screen\.)?(?:get|find)(?:All)?By[A-Z]\w*\(|\.(?:toContainText|toBeDefined|toBeTruthy|toBeFalsy|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toContain|toContainEqual|toBeInstanceOf|toHaveProperty|toHaveBeenCalled|toMatch|toBeTypeOf|toBeVisible|toBeOneOf|ok|true|truthy|exist|notOk|falsy|like|regex|match)\(|\.to\.(?:be\.)?(?:ok|exist|true)\b|^assert\.ok\(|^assert\(|\.to\.(?:\w+\.)*(?:above|below|least|most|gt|gte|lt|lte|greaterThan|lessThan|within|members|oneOf|instanceOf|instanceof|an?)\(|\.to\.(?:\w+\.)*throws?\(\)|\.toHaveClass\(\)|^assert\.(?:throws|rejects)\((?:[^,()]|\((?:[^()]|\([^()]*\))*\))*\)$",
            conditional: r"skipIf|runIf|skip[A-Z]|\bif\b|\.pre\(",
            inverting: r"[^\s\S]",
        },
        Language::Go => Patterns {
            defs: r"(?m)^func[ \t]+(?:\([^)]*\)[ \t]*)?\w+",
            checks: r"\b(?:t|tb|tt|b|f|c|s|\w+\.T\(\))\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)[ \t]*\(|\b\w+\.(?:AssertExpectations|AssertNumberOfCalls|AssertCalled|AssertNotCalled)[ \t]*\(|\b(?:assert|require)\.(?:[A-MO-Z]\w*|N(?:[a-df-z0-9_]\w*|e(?:[a-vx-z0-9_]\w*|w\w+)?)?)[ \t]*\(|\b\w+\.(?:Require|Assert)\(\)\.\w+[ \t]*\(|\b(?:s|suite|ts|r)\.(?:Equal|EqualValues|Exactly|NotEqual|Same|NotSame|True|False|Nil|NotNil|NoError|Error|ErrorIs|ErrorAs|ErrorContains|EqualError|Len|Empty|NotEmpty|Zero|NotZero|Contains|NotContains|ElementsMatch|Subset|Greater|GreaterOrEqual|Less|LessOrEqual|Positive|Negative|InDelta|InEpsilon|JSONEq|YAMLEq|Regexp|IsType|Implements|Panics|NotPanics|PanicsWithValue|Eventually|Never|Condition|Fail|FailNow|FileExists|DirExists)[ \t]*\(|\b(?:qt|c)\.(?:Assert|Check)[ \t]*\(|\b(?:g\.)?(?:Expect|Eventually|Consistently|Ω)[ \t]*\(|\.EXPECT\(\)\s*\.\s*\w+[ \t]*\(",
            skips: r"\b(?:t|tb|tt|b|f|s)\.(?:Skip|Skipf|SkipNow)[ \t]*\(|(?m)^[ \t]*(?:P|X|F)(?:It|Describe|Context|When|Specify|Entry|DescribeTable)[ \t]*\(|(?m)^[ \t]*(?:It|Describe|Context|When|Specify|Entry|DescribeTable)[ \t]*\([^\n]*,[ \t]*(?:Pending|Focus)[ \t]*,|\b(?:\w+\.)?(?:[Ss]kip\w*|Must\w+)[ \t]*\([ \t]*(?:t|tb|b)[ \t]*[,)]|\bos\.Exit[ \t]*\([ \t]*0[ \t]*\)",
            test_heads: r"[^\s\S]",
            equality: r"^assert\.(?:Equal|EqualValues|Exactly|EqualError|ErrorIs|JSONEq|YAMLEq|Same|InDelta|InEpsilon|ElementsMatch|Len|Empty|Zero)\(|\.(?:To|Should)\((?:Equal|BeEquivalentTo|BeIdenticalTo|MatchError|BeZero|BeEmpty|HaveLen|BeNil|Succeed|ConsistOf|HaveExactElements|HaveKeyWithValue)\(|^t\.Error\(.*(?:[^!=]!=[^=]|DeepEqual|Diff)|^t\.Error\(!errors\.Is\(|\.EXPECT\(\)\.\w+\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)(?:\.(?:Return|Do|DoAndReturn|SetArg)\((?:[^()]|\([^()]*\))*\))*(?:\.Times\(\d+\)(?:\.\w+\((?:[^()]|\([^()]*\))*\))*)?$",
            weak: r"^assert\.(?:True|False|NotNil|Nil|NotEmpty|Greater|GreaterOrEqual|Less|LessOrEqual|Positive|Negative|NotZero|Contains|NotContains|NotEqual|NoError|Error|ErrorContains|Regexp|IsType|Implements|Subset)\(|\.(?:To|Should)\((?:BeNumerically|HaveOccurred|Or|ContainElement|ContainSubstring|HavePrefix|HaveSuffix|MatchRegexp|BeAssignableToTypeOf|BeAnything|BeTrue|BeFalse)\(|\.(?:NotTo|ToNot|ShouldNot)\((?:BeNil|BeEmpty|BeZero|Equal)\(|^t\.Error\(.*(?:[<>]|==)|^t\.Error\(!?strings\.(?:Contains|HasPrefix|HasSuffix|EqualFold)|\.EXPECT\(\)\..*\.(?:AnyTimes|MinTimes|MaxTimes)\(",
            conditional: r"\bif\b|[Ss]kip\w|Must\w",
            inverting: r"[^\s\S]",
        },
        Language::Java => Patterns {
            defs: r"(?m)^[ \t]*(?:@[\w.]+(?:\([^)\n]*\))?[ \t]+)*(?:(?:public|protected|private|static|final|abstract|synchronized|default|override|open|suspend|internal|inline)[ \t]+)*(?:fun[ \t]+(?:<[^>\n]*>[ \t]*)?(?:[\w<>?]+\.)?(?:\w+|`[^`\n]*`)|(?:<[^>\n]*>[ \t]*)?[\w.<>\[\]?, ]*[\w>\]?][ \t]+\w+|[A-Z]\w*)[ \t]*\(",
            checks: r"@Test[ \t]*\([^)]*\bexpected[ \t]*=|(?:thrown|[eE]xception|[rR]ule)\w*[ \t]*\.[ \t]*expect(?:Message|Cause)?[ \t]*\([^)\n]|\bassert\w*[ \t]*\(|\bassert(?:FailsWith|Throws|Fails)[ \t]*(?:<[^>\n]*>)?[ \t]*[({]|\bexpectThrows[ \t]*\(|\bassert[ \t]+[^;\n(]|\bfail[ \t]*\(|\bthrow[ \t]+new[ \t]+AssertionError[ \t]*\(|\bverify(?:NoMoreInteractions|NoInteractions|ZeroInteractions)?[ \t]*\(|\bconfirmVerified[ \t]*\(|\b(?:coV|v)erify(?:Order|Sequence|All)?[ \t]*(?:\([^()\n]*\)[ \t]*)?\{|\bthen[ \t]*\([^()\n]*\)[ \t]*\.[ \t]*should\w*[ \t]*\(|\bshould(?:Be|NotBe|Contain|NotContain|Have|NotHave|StartWith|EndWith|Match|NotMatch|Throw|NotThrow|Exist|NotExist)\w*|\.[ \t]*andExpect(?:All)?[ \t]*\(",
            skips: r"@(?:[a-z]\w*\.)*(?:Disabled|Ignore|Disabled\w+|Enabled\w+|RetryingTest|RepeatedIfExceptionsTest)\b|@(?:[a-z]\w*\.)*Test[ \t]*\([^)]*\benabled[ \t]*=[ \t]*false\b|@(?:[a-z]\w*\.)*Test[ \t]*\([^)]*\bgroups[ \t]*=|@(?:[a-z]\w*\.)*Tag[ \t]*\(|(?m)^[ \t]*x(?:test|it|should|scenario|then|expect|context|describe|feature|given|when|and|Test|It|Should|Scenario|Then|Expect|Context|Describe|Feature|Given|When|And)[ \t]*\(|\.config[ \t]*\([^()]*\benabled[ \t]*=[ \t]*false\b|\.config[ \t]*\((?:[^()]|\([^()]*\))*\benabled[ \t]*=[ \t]*(?:[^tf \t]|t[^r]|f[^a])(?:[^()]|\([^()]*\))*\)|\.config[ \t]*\([^()]*\benabled(?:If|OrReasonIf)[ \t]*=|\bAssumptions?[ \t]*\.[ \t]*assume\w*[ \t]*\(|\bassume[A-Z]\w*[ \t]*\(",
            test_heads: r"@(?:org\.junit\.(?:jupiter\.api\.)?)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property|Example)\b",
            equality: r"^shouldThrow(?:Exactly)?<|^(?:coV|v)erify(?:Order|Sequence|All)?(?:\((?:exactly[ \t]*=[^()]*)?\))?\{|^(?:Mockito\.)?verify\([^(),]*(?:,[ \t]*(?:times\([^()]*\)|never\(\)|only\(\)))?\)|^assert(?:Equals|ArrayEquals|IterableEquals|LinesMatch|Same|Null|Throws)\(|^assert(?:FailsWith|Throws)<|\.(?:isEqualTo|isSameAs|containsExactly|isEqualByComparingTo|hasSize|isEmpty|isNull|hasMessage|containsExactlyInAnyOrder|isCloseTo|isWithin)\(|\b(?:equalTo|is)\(|,[ \t]*(?:contains|containsInAnyOrder|arrayContaining|arrayContainingInAnyOrder)\(|\bshould(?:Be|BeEqual\w*|ContainExactly|ContainExactlyInAnyOrder|HaveSize|BeEmpty|BeNull|BeSameInstanceAs|HaveLength|HaveMessage)\b",
            weak: r"^shouldThrowAny\b|^\(.*(?:[<>]|!=).*\)[ \t]*shouldBe[ \t]*(?:true|false)$|^(?:co)?[vV]erify\((?:atLeast|atMost)[ \t]*=|^(?:Mockito\.)?verify\([^(),]*,[ \t]*(?:atLeast|atLeastOnce|atMost|atMostOnce)\(|^assert(?:True|False|NotNull|NotEquals|NotSame)\(|^assert(?:Throws|FailsWith)\((?:java\.lang\.)?(?:Exception|Throwable|RuntimeException)(?:::class)?(?:\.class|\.java)|^assert(?:Throws|FailsWith)<(?:Exception|Throwable|RuntimeException)>|^assertFails[ \t]*[({]|\.(?:isNotNull|isNotEmpty|isNotBlank|isPresent|isNotZero|hasSizeGreaterThan\w*|isPositive|isGreaterThan|isGreaterThanOrEqualTo|isLessThan|isLessThanOrEqualTo|isTrue|isFalse|contains|isNotEqualTo|matches|startsWith|endsWith|isInstanceOf|containsAtLeast\w*|containsAnyOf|containsAnyIn|isAtLeast|isAtMost|isAfter|isBefore|isAfterOrEqualTo|isBeforeOrEqualTo|isBetween|isStrictlyBetween|isEqualToIgnoringCase|isEqualToIgnoringWhitespace|isEqualToNormalizingWhitespace|isEqualToIgnoringNewLines|isEqualToNormalizingNewlines|isEqualToIgnoringGivenFields|isEqualToComparingOnlyGivenFields|isEqualToIgnoringNullFields|expectMessage|hasMessageContaining|hasMessageStartingWith|hasMessageEndingWith|hasMessageMatching|hasMessageFindingMatch|hasRootCauseMessage|hasStackTraceContaining)\(|\b(?:notNullValue|greaterThan|greaterThanOrEqualTo|lessThan|lessThanOrEqualTo|anything|containsString|containsStringIgnoringCase|hasItem|hasItems|everyItem|not|anyOf|either|oneOf|isOneOf|isIn|isNotIn|equalToIgnoringCase|equalToIgnoringWhiteSpace|equalToCompressingWhiteSpace|startsWith|endsWith|startsWithIgnoringCase|endsWithIgnoringCase|matchesPattern|matchesRegex|instanceOf|isA|hasKey|hasValue)\(|\bshould(?:NotBe|NotBeNull|NotBeEmpty|NotBeBlank|BeGreaterThan\w*|BeLessThan\w*|BeBetween|BeInRange|BeOneOf|BeIn|Contain|ContainAll|ContainAnyOf|ContainIgnoringCase|StartWith|EndWith|Match|BeTrue|BeFalse|BeInstanceOf|BeTypeOf|BePositive|BeNegative|HaveAtLeastSize|HaveAtMostSize|NotThrowAny)\b",
            conditional: r"On|If|assume|enabled[ \t]*=[ \t]*[^f \t]",
            inverting: r"[^\s\S]",
        },
        Language::Ruby => Patterns {
            defs: r"(?m)^[ \t]*(?:def[ \t]+(?:self\.)?\w+[?!]?|define_method[ \t]*\(|(?:it|specify|example|scenario|its|xit|xspecify|xexample|xscenario|fit|test|it_behaves_like|it_should_behave_like|include_examples|describe|context|feature|xdescribe|xcontext|fdescribe|fcontext|RSpec\.describe|before|around)(?:[ \t]*[('\x22{:]|[ \t]+\w|[ \t]*$))",
            checks: r"\bexpect\b[ \t]*[({]|\bexpect[ \t]+do\b|\bis_expected\b|\.should(?:_not)?(?:_receive)?\b|(?m)^[ \t]*(?:assert|refute)\w*\b|\.(?:must|wont)_\w+|(?m)^[ \t]*@?\w+\.verify[ \t]*$",
            skips: r"(?m)(?:^|;|\{)[ \t]*(?:skip|pending)\b|(?m)^[ \t]*private[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*def[ \t]+test_|\b(?:xit|xspecify|xexample|xscenario|xdescribe|xcontext|xfeature|fit|fdescribe|fcontext|focus)\b|\b(?:skip|pending|focus)[ \t]*(?::|=>)|(?m)^[ \t]*(?:it|specify|example|scenario|describe|context)\b[^\n]*\bretry[ \t]*(?::|=>)[ \t]*[1-9]|\bfilter_run_(?:excluding|when_matching|including)\b|\bdef[ \t]+self\.runnable_methods\b",
            test_heads: r"[^\s\S]",
            // (RSpec 2's `x.should …` reads as `expect(x).to …`.)
            equality: r"\.(?:to|should) have_(?:css|selector|xpath)\([^()]*\bcount:|\.(?:to|should) have_received\([^()]*\)\.with\b|\.(?:to|should) eq\b|\.(?:to|should) eql\b|\.(?:to|should) equal\b|\.to be(?:\(|[ \t]*==|[ \t]+[^<>=! \t]|[ \t]*$)|\.should[ \t]*==|\.should be(?:\(|[ \t]*==)|\.(?:to|should) match_array\b|\.(?:to|should) contain_exactly\b|\.(?:to|should) be_nil\b|\.(?:to|should) raise_error\(|^assert_equal\b|^assert_nil\b|^assert_raises\b|\.must_equal\b|\.must_be_nil\b|\.(?:to|should) have_http_status\(|\.to have_attributes\(",
            weak: r"^assert_not\w*\b|\.(?:to|should) have_key\b|\.(?:to|should) have_(?:css|selector|xpath)\([^,()]*\)$|\.(?:not_to|to_not|should_not)\b|\)[ \t]*\.or\b|\bor[ \t]*\(|\.(?:to|should) have_received\([^()]*\)$|\.(?:to|should) be_truthy\b|\.(?:to|should) be_falsey\b|\.should be_(?:true|false)\b|\.(?:to|should) be_present\b|\.(?:to|should) (?:start_with|end_with)\b|\.(?:to|should) be_a\b|\.(?:to|should) be_an\b|\.(?:to|should) be_kind_of\b|\.(?:to|should) include\b|\.(?:to|should) be[ \t]*(?:[<>]|!=)|\.(?:to|should) be_(?:positive|negative|between)\b|\.(?:to|should) match\b|\.(?:to|should) raise_error$|\.(?:to|should) raise_error\((?:StandardError|Exception)\)|^assert_raises[ \t(]*(?:StandardError|Exception)\b|^assert\(|^refute|^assert_operator\b|^assert_includes\b|^assert_match\b|\.must_include\b|\.wont_\w+|\.must_be[ \t]*\(?[ \t]*:(?:<|>|!)|\.(?:to|should) have_http_status\([ \t]*:(?:success|successful|error|redirect|missing)\b",
            conditional: r"\bif\b|\bunless\b",
            inverting: r"[^\s\S]",
        },
        Language::CSharp => Patterns {
            defs: r"(?m)^[ \t]*(?:\[[^\n]*\][ \t]*)*(?:(?:public|protected|private|internal|static|async|virtual|override|sealed|unsafe|new)[ \t]+)*[\w.<>\[\]?, ]*[\w>\]?][ \t]+\w+[ \t]*(?:<[^>\n]*>)?[ \t]*\(",
            checks: r"\[[ \t]*ExpectedException[ \t]*\(|\b(?:Assert|ClassicAssert|CollectionAssert|StringAssert)[ \t]*\.[ \t]*\w+[ \t]*(?:<[^>\n]*>)?[ \t]*\(|\.Should\w*[ \t]*(?:<[^>\n]*>)?[ \t]*\(|\.Verify(?:All|NoOtherCalls)?[ \t]*\(|\.(?:Received|DidNotReceive)(?:WithAnyArgs)?[ \t]*\(|\bShould[ \t]*\.[ \t]*(?:Throw|NotThrow)\w*[ \t]*(?:<[^>\n]*>)?[ \t]*\(",
            skips: r"\bSkip[ \t]*=|(?m)^[ \t]*#if[ \t]+DEBUG\b|\[[ \t]*(?:Ignore|Explicit|Retry|Platform|Trait|Category)\b|,[ \t]*(?:Ignore|Explicit|Retry|Platform|Trait|Category)\b|\bAssert[ \t]*\.[ \t]*(?:Ignore|Inconclusive|Pass)[ \t]*\(|\bSkip[ \t]*\.[ \t]*(?:If|IfNot|Unless|When)\w*[ \t]*\(|\bAssume[ \t]*\.[ \t]*That[ \t]*\(",
            test_heads: r"\b(?:Fact|Theory|Test|TestCase|TestCaseSource|TestMethod|DataTestMethod|SkippableFact|SkippableTheory)\b",
            equality: r"^CollectionAssert\.(?:AreEqual|AreEquivalent)\(|^(?:Assert|ClassicAssert)\.(?:Equal|AreEqual|Same|AreSame|StrictEqual|Equivalent|Null|IsNull|Empty|IsEmpty|Single|Throws\w*|AreEquivalent)(?:<[^>\n]*>)?\(|Is\.EqualTo|Is\.Null\b|\.Should\(\)\.(?:Be|Equal|BeEquivalentTo|BeNull|BeEmpty|HaveCount|Throw\w*)(?:<[^>\n]*>)?\(|\.ShouldBe\(|\.ShouldBeNull\(|\.ShouldBeEmpty\(|\.ShouldBeThrownBy\(|\.ShouldThrow\w*|^Should\.Throw\w*<|\.Verify\(.*\bTimes\.(?:Exactly|Once|Never)\b|\.Received\([ \t]*\d+[ \t]*\)\.|\.DidNotReceive(?:WithAnyArgs)?\(\)\.",
            weak: r"^CollectionAssert\.(?:Contains|DoesNotContain|IsSubsetOf|IsSupersetOf|IsNotSubsetOf|IsNotSupersetOf|AllItemsAre\w*|AreNotEqual|AreNotEquivalent|IsNotEmpty)\(|^StringAssert\.(?:Contains|StartsWith|EndsWith|Matches|DoesNotMatch)\w*\(|^(?:Assert|ClassicAssert)\.(?:True|IsTrue|False|IsFalse|NotNull|IsNotNull|NotEqual|AreNotEqual|NotEmpty|IsNotEmpty|Contains|InRange|Greater\w*|Less\w*|IsInstanceOf\w*|IsType|IsAssignableFrom|Matches|Catch\w*)(?:<[^>\n]*>)?\(|Is\.Not\b|Is\.AnyOf\b|\.Or\.|Is\.GreaterThan|Is\.LessThan|Is\.AtLeast|Is\.AtMost|Is\.InRange|Has\.(?:Count|Length)\.(?:GreaterThan|LessThan|AtLeast|AtMost)|Is\.True|Does\.(?:Contain|StartWith|EndWith|Match)|\.Should\(\)\.(?:NotBeNull\w*|BeTrue|BeFalse|BeGreaterThan\w*|BeLessThan\w*|Contain\w*|NotBeEmpty|NotBe|StartWith|EndWith|Match\w*|BeOfType|BeAssignableTo|OnlyContain|AllBeOfType|NotContain\w*|HaveCountGreaterThan\w*|BePositive|BeNegative|BeInRange|BeOneOf)(?:<[^>\n]*>)?\(|\.Should(?:BeTrue|BeFalse|NotBeNull|NotBe|Contain|NotBeEmpty|BeGreaterThan\w*|BeLessThan\w*)(?:<[^>\n]*>)?\(|\.Verify\(.*\bTimes\.(?:AtLeast|AtMost|Between)\w*|\.ReceivedWithAnyArgs\(|\.Received\(\)\.|\.Should\(\)\.(?:BeAfter|BeBefore|BeOnOrAfter|BeOnOrBefore|BeCloseTo|BeSameDateAs|HaveYear|HaveMonth|HaveDay)\(|\bignoreCase:[ \t]*true\b|\bignoreOrder:[ \t]*true\b|IgnoreCase\b|\.IgnoringCase\b",
            conditional: r"If|Unless|When|Assume|Platform",
            inverting: r"[^\s\S]",
        },
    }
}

/// Checks that cannot fail, per language.
pub const TAUTOLOGIES: &[(Language, &str)] = &[
    (Language::Python, "assert A == A"),
    (Language::Python, "assert A is A"),
    (Language::Python, "assert A or True"),
    (Language::Python, "assert True"),
    (Language::Python, "assert 1"),
    (Language::Python, "assert not False"),
    (Language::Python, "assert not None"),
    // A parenthesised pair is a non-empty tuple, always true (Python warns of it).
    (Language::Python, "assert (A, B)"),
    (Language::Rust, "assert_eq!(A, A)"),
    (Language::Rust, "assert!(true)"),
    (Language::Rust, "assert!(A || true)"),
    (Language::JavaScript, "expect(A).toBe(A)"),
    (Language::JavaScript, "expect(A).toEqual(A)"),
    (Language::JavaScript, "expect(A).toStrictEqual(A)"),
    (Language::JavaScript, "expect(true).toBeTruthy()"),
    // (chai: a property assertion on a constant.)
    (Language::JavaScript, "expect(true).to.be.true"),
    (Language::JavaScript, "expect(true).to.be.ok"),
    (Language::JavaScript, "expect(false).to.be.false"),
    (Language::JavaScript, "expect(A).to.equal(A)"),
    (Language::JavaScript, "expect(A).to.eql(A)"),
    (Language::JavaScript, "expect(A).to.deep.equal(A)"),
    (Language::JavaScript, "assert.ok(true)"),
    (Language::JavaScript, "assert.equal(A, A)"),
    (Language::JavaScript, "assert.strictEqual(A, A)"),
    (Language::Go, "assert.Equal(T, A, A)"),
    (Language::Go, "assert.True(T, true)"),
    // A failure on a difference of a value with itself (`math.Abs(got-got) > eps`, a
    // rename gone wrong) never fires.
    (Language::Go, "t.Error(math.Abs(A-A) > B)"),
    (Language::Go, "t.Error(math.Abs(A - A) > B)"),
    (Language::Go, "t.Error(A != A)"),
    (Language::Java, "assertThat(A).isEqualTo(A)"),
    (Language::Java, "assertThat(true).isTrue()"),
    (Language::Ruby, "expect(A).to eq A"),
    // An expectation compared with `==` instead of a matcher runs no check.
    (Language::Ruby, "expect(A) == B"),
    (Language::Ruby, "expect(A) != B"),
    // FluentAssertions with no assertion checks nothing. (Not a bare `expect(x)`: a
    // Ruby chain may go on on the next line, and supertest's `.expect(200)` checks.)
    (Language::CSharp, "A.Should()"),
    (Language::Ruby, "assert_equal(A, A)"),
    (Language::Ruby, "assert(true)"),
    (Language::CSharp, "Assert.Equal(A, A)"),
    (Language::CSharp, "Assert.True(true)"),
];

/// Canonical checks that only say a value `A` exists (not null, nil or None). Another
/// check of the same test that reads through `A` (`A.name`, `A[0]`, `A.Error()`) fails
/// the test when `A` is missing, so it says as much (see [`NEEDS_VALUE`] for checks
/// that fail on a missing operand without reading through it).
pub const NON_NULL: &[(Language, &str)] = &[
    (Language::Python, "assert A is not None"),
    (Language::JavaScript, "expect(A).toBeDefined()"),
    (Language::JavaScript, "expect(A).not.toBeNull()"),
    (Language::JavaScript, "expect(A).not.toBeUndefined()"),
    (Language::Go, "assert.NotNil(T, A)"),
    (Language::Go, "assert.Error(T, A)"),
    (Language::Go, "t.Error(A == nil)"),
    (Language::Java, "assertNotNull(A)"),
    (Language::Java, "assertThat(A).isNotNull()"),
    (Language::Ruby, "refute_nil(A)"),
    (Language::Ruby, "refute_nil A"),
    (Language::Ruby, "expect(A).not_to be_nil"),
    (Language::Ruby, "expect(A).to_not be_nil"),
    (Language::Ruby, "A.wont_be_nil"),
    (Language::CSharp, "Assert.NotNull(A)"),
    (Language::CSharp, "Assert.IsNotNull(A)"),
    (Language::CSharp, "A.ShouldNotBeNull()"),
    (Language::CSharp, "A.Should().NotBeNull()"),
];

/// Canonical checks that only say a collection or text `A` is not empty. An exact
/// check of its size above zero in the same test says as much (see
/// [`nonempty_only`](crate::weakening::checks::nonempty_only)).
pub const NON_EMPTY: &[(Language, &str)] = &[
    (Language::Rust, "assert!(!A.is_empty())"),
    (Language::Python, "assert len(A) > 0"),
    (Language::Python, "assert len(A) >= 1"),
    (Language::Python, "assert len(A) != 0"),
    (Language::JavaScript, "expect(A.length).toBeGreaterThan(0)"),
    (Language::JavaScript, "expect(A).not.toHaveLength(0)"),
    (Language::JavaScript, "expect(A).not.to.be.empty"),
    (Language::JavaScript, "expect(A).to.not.be.empty"),
    (Language::JavaScript, "assert.isNotEmpty(A)"),
    (Language::Go, "assert.NotEmpty(T, A)"),
    (Language::Java, "assertFalse(A.isEmpty())"),
    (Language::Java, "assertThat(A).isNotEmpty()"),
    (Language::Java, "A.shouldNotBeEmpty()"),
    (Language::Ruby, "expect(A).not_to be_empty"),
    (Language::Ruby, "expect(A).to_not be_empty"),
    (Language::Ruby, "refute_empty(A)"),
    (Language::Ruby, "refute_empty A"),
    (Language::CSharp, "Assert.NotEmpty(A)"),
    (Language::CSharp, "A.Should().NotBeEmpty()"),
    (Language::CSharp, "A.ShouldNotBeEmpty()"),
];

/// Canonical checks that fail when their operand `A` is missing (a nil error has no
/// message to contain): they say that `A` exists, as a [`NON_NULL`] check does.
pub const NEEDS_VALUE: &[(Language, &str)] = &[
    (Language::Go, "assert.ErrorContains(T, A, B)"),
    (Language::Go, "assert.EqualError(T, A, B)"),
    (Language::Go, "assert.ErrorIs(T, A, B)"),
    (Language::Go, "assert.ErrorAs(T, A, B)"),
    // A check of the value's type fails on a missing value.
    (Language::Python, "assert isinstance(A, B)"),
    (Language::JavaScript, "expect(A).toBeInstanceOf(B)"),
    (Language::JavaScript, "assert.instanceOf(A, B)"),
    (Language::Java, "assertInstanceOf(B, A)"),
    (Language::Java, "assertThat(A).isInstanceOf(B)"),
    (Language::Java, "assertThat(A).isExactlyInstanceOf(B)"),
    (Language::Java, "assertThat(A, instanceOf(B))"),
    (Language::Java, "A shouldBe instanceOf<B>()"),
    (Language::Java, "A.shouldBeInstanceOf<B>()"),
    (Language::Java, "A.shouldBeTypeOf<B>()"),
    (Language::Ruby, "expect(A).to be_a(B)"),
    (Language::Ruby, "expect(A).to be_an(B)"),
    (Language::Ruby, "expect(A).to be_a_kind_of(B)"),
    (Language::Ruby, "expect(A).to be_an_instance_of(B)"),
    (Language::Ruby, "expect(A).to be_instance_of(B)"),
    (Language::Ruby, "assert_kind_of(B, A)"),
    (Language::Ruby, "assert_instance_of(B, A)"),
    (Language::CSharp, "Assert.IsType<B>(A)"),
    (Language::CSharp, "Assert.IsAssignableFrom<B>(A)"),
    (Language::CSharp, "Assert.IsInstanceOf<B>(A)"),
    (Language::CSharp, "Assert.IsInstanceOfType(A, B)"),
    (Language::CSharp, "A.Should().BeOfType<B>()"),
    (Language::CSharp, "A.Should().BeAssignableTo<B>()"),
    (Language::CSharp, "A.ShouldBeOfType<B>()"),
    (Language::CSharp, "A.ShouldBeAssignableTo<B>()"),
];

/// Checks whose two operands (`A`, `B`) can be swapped without changing what they
/// check: the canonical text orders them.
pub const SYMMETRIC: &[(Language, &str)] = &[
    (Language::Python, "assert A == B"),
    (Language::Python, "assert A != B"),
    (Language::Rust, "assert_eq!(A, B)"),
    (Language::Rust, "assert_ne!(A, B)"),
    (Language::JavaScript, "assert.equal(A, B)"),
    (Language::JavaScript, "assert.strictEqual(A, B)"),
    (Language::JavaScript, "assert.deepStrictEqual(A, B)"),
    (Language::Go, "assert.Equal(T, A, B)"),
    (Language::Go, "t.Error(A != B)"),
    (Language::Ruby, "assert_equal(A, B)"),
    (Language::CSharp, "Assert.Equal(A, B)"),
];

/// Go calls that print to standard output, which a Go example's `// Output:` comment
/// checks; with `true`, the call prints to its first argument and counts only when that
/// is `os.Stdout`.
pub const GO_PRINTS: &[(&str, bool)] = &[
    ("fmt.Print", false),
    ("fmt.Println", false),
    ("fmt.Printf", false),
    ("fmt.Fprint", true),
    ("fmt.Fprintln", true),
    ("fmt.Fprintf", true),
];

/// Go calls that turn one value (their only argument that is not a literal) into the
/// text printed: an example's output that prints `strings.TrimSpace(out)` fixes `out`,
/// up to the spaces trimmed or the characters replaced.
pub const GO_TEXT_CONVERSIONS: &[&str] = &[
    "string",
    "strings.Replace",
    "strings.ReplaceAll",
    "strings.TrimSpace",
    "strings.TrimSuffix",
    "strings.TrimPrefix",
    "strings.TrimRight",
    "strings.TrimLeft",
    "strings.Trim",
    "fmt.Sprint",
    "fmt.Sprintln",
    "fmt.Sprintf",
];

/// One side of an equivalence: literal text and holes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text that must appear as written (after spacing is normalised).
    Lit(String),
    /// A balanced sub-expression without a top-level comma, named by a letter.
    Hole(u8),
    /// Any balanced remainder, commas included (`..`).
    Rest,
    /// Nothing, or a comma and any further arguments (`, ..`): dropped when filled.
    Tail,
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template(pub Vec<Piece>);

impl Template {
    /// Parses `assert_eq!(A, B, ..)`: single upper-case letters standing alone are
    /// holes, `..` is the rest; spacing is normalised as check texts are.
    pub fn parse(text: &str) -> Template {
        let text = super::checks::squeeze(text);
        let bytes = text.as_bytes();
        let mut pieces = Vec::new();
        let mut lit = String::new();
        let mut i = 0;
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        while i < bytes.len() {
            let b = bytes[i];
            let alone = b.is_ascii_uppercase()
                && (i == 0 || !word(bytes[i - 1]))
                && bytes.get(i + 1).is_none_or(|&n| !word(n));
            if alone {
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                pieces.push(Piece::Hole(b));
                i += 1;
            } else if bytes[i..].starts_with(b"..") && bytes.get(i + 2) != Some(&b'.') {
                let tail = lit.ends_with(',');
                if tail {
                    lit.pop();
                }
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                pieces.push(if tail { Piece::Tail } else { Piece::Rest });
                i += 2;
            } else {
                lit.push(b as char);
                i += 1;
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Lit(lit));
        }
        // Spacing next to a hole depends on what fills it: matching skips it.
        for k in 0..pieces.len() {
            let hole_before = k > 0 && !matches!(pieces[k - 1], Piece::Lit(_));
            let hole_after = pieces
                .get(k + 1)
                .is_some_and(|p| !matches!(p, Piece::Lit(_)));
            if let Piece::Lit(l) = &mut pieces[k] {
                if hole_before {
                    *l = l.trim_start().to_string();
                }
                if hole_after {
                    *l = l.trim_end().to_string();
                }
            }
        }
        pieces.retain(|p| !matches!(p, Piece::Lit(l) if l.is_empty()));
        Template(pieces)
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
        let extra_tests = (!extra.test.is_empty()).then(|| {
            let alternatives: Vec<String> = extra.test.iter().map(|m| regex::escape(m)).collect();
            Regex::new(&alternatives.join("|")).unwrap_or_else(|_| never())
        });
        Rules {
            language,
            defs: build(p.defs, &extra.test),
            checks: build(p.checks, &extra.assert),
            skips: build(p.skips, &extra.skip),
            test_heads: build(p.test_heads, &extra.test),
            extra_tests,
            equality: build(p.equality, &[]),
            weak: build(p.weak, &[]),
            conditional: build(p.conditional, &[]),
            inverting: build(p.inverting, &[]),
            equivalences: EQUIVALENCES
                .iter()
                .filter(|(l, _, _)| *l == language)
                .map(|(_, from, to)| (Template::parse(from), Template::parse(to)))
                .collect(),
            tautologies: of_language(TAUTOLOGIES, language),
            symmetric: of_language(SYMMETRIC, language),
            non_null: of_language(NON_NULL, language),
            non_empty: of_language(NON_EMPTY, language),
            needs_value: of_language(NEEDS_VALUE, language),
        }
    }
}

/// The templates of one language in a table.
fn of_language(table: &[(Language, &str)], language: Language) -> Vec<Template> {
    table
        .iter()
        .filter(|(l, _)| *l == language)
        .map(|(_, t)| Template::parse(t))
        .collect()
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
mod tests;
