//! One version of one file read as units: tests, the helpers they call, and runner
//! hooks (`setUp`, `TestMain`); each with the checks and skips inside or above it.
//!
//! Everything is read from code whose comments and strings are blanked (`lexer`), so
//! offsets are offsets in the source; the text of strings is read back only where a
//! name or a check's canonical text needs it.
//!
//! The text and its walks are in `source`, the units are found per language in
//! `units`, the skips and the tests each governs in `skips`; here are the model, its
//! checks, and what a check or a unit calls.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use super::checks::{self, Strength};
use super::rules::{GO_PRINTS, GO_TEXT_CONVERSIONS};
use super::rules::{Language, Rules};
pub use super::source::Source;
use super::source::{at_line_start, extent, go_table_rows, matching_open, rows_in};
use super::units::{example_body, find_units, go_example_output, named_subtests};

/// What a unit is to the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A test the runner collects.
    Test,
    /// A function tests may call.
    Helper,
    /// A hook that runs around tests (`setUp`, `TestMain`, `@BeforeEach`): a skip in it
    /// skips every test it runs for.
    Runner,
}

/// A test, helper or runner hook.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Qualified name (class or suite, then the test).
    pub name: String,
    /// The name alone.
    pub leaf: String,
    /// What it is.
    pub role: Role,
    /// The 0-based line of its name.
    pub line: usize,
    /// Head (decorators, attributes) to end.
    pub span: Range<usize>,
    /// Cases it runs (parametrised rows, table rows with subtests); at least 1.
    pub cases: usize,
    /// Times it runs for suites that include it (an RSpec shared example group's
    /// example, once per suite that includes the group); at least 1. Its checks count
    /// once per run; a suite no longer including the group is the include removed.
    pub included: usize,
    /// For a test redefined later in the same scope: the line of the redefinition.
    pub shadowed_by: Option<usize>,
    /// For a runner hook: the region whose tests it runs for (`None`: the file).
    pub scope: Option<Range<usize>>,
    /// Skips in or above it, or governing it (indices into `Model::skips`).
    pub skips: Vec<usize>,
    /// Checks inside it (indices into `Model::checks`).
    pub checks: Vec<usize>,
}

/// How a skip skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipKind {
    /// Under a condition (a platform, an assumption, an `if`).
    Conditional,
    /// Always.
    Unconditional,
    /// The test passes when it fails (`#[should_panic]`, `except AssertionError`).
    Inverting,
}

/// A skip marker.
#[derive(Debug, Clone)]
pub struct Skip {
    /// Where it starts.
    pub pos: usize,
    /// Its 0-based line.
    pub line: usize,
    /// Its text, squeezed (for comparing).
    pub text: String,
    /// How it skips.
    pub kind: SkipKind,
}

/// A check: its extent in the code.
#[derive(Debug, Clone)]
pub struct Check {
    /// The text it spans.
    pub span: Range<usize>,
    /// Where the value a method check is called on starts (`params["a"]` of
    /// `params["a"].must_equal 1`; the key keeps only its last name): what the check
    /// is about, for whole-value covers.
    pub receiver: usize,
    /// Its 0-based line.
    pub line: usize,
    /// What makes it a check.
    pub kind: CheckKind,
}

/// What makes a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    /// A call (`assert_eq!(…)`, `expect(…)`, Go's `t.Errorf` under its `if`).
    Call,
    /// A `// @ts-expect-error` above the statement `span`: the statement must not
    /// type-check (a compile-time check).
    ExpectError,
    /// A Go example's output comment (`span`): what the example prints must be its
    /// text, or `go test` fails.
    ExampleOutput,
    /// The value an NUnit test returns (`span`), which each `[TestCase(…,
    /// ExpectedResult = v)]` row must equal.
    ExpectedResult,
}

/// The marker of a compile-time check in TypeScript: the next statement must fail to
/// type-check, or the compiler fails the suite.
const EXPECT_ERROR: &str = "@ts-expect-error";

/// The mark of a promise check nothing waits for: it settles after the test has passed.
pub(super) const NOT_AWAITED: &str = "(not awaited)";

/// The mark of a check under a condition on its own value ([`Model::guard_of`]): it
/// runs only when the value already looks right.
pub(super) const GUARDED: &str = "(only when";

/// Words of checks that take a tolerance, where a tolerance passed by name is read.
const TOLERANCE_WORDS: &[&str] = &[
    "InDelta",
    "InEpsilon",
    "approx",
    "delta",
    "Delta",
    "within",
    "CloseTo",
    "Approximately",
    "AlmostEqual",
    "plusOrMinus",
    "isclose",
    "places",
];

/// Playwright's web-first matchers, which return a promise (only in a file importing
/// `@playwright/test`: jest-dom's matchers of the same names are synchronous).
const PLAYWRIGHT_ASYNC: &[&str] = &[
    ".toBeAttached(",
    ".toBeChecked(",
    ".toBeDisabled(",
    ".toBeEditable(",
    ".toBeEmpty(",
    ".toBeEnabled(",
    ".toBeFocused(",
    ".toBeHidden(",
    ".toBeInViewport(",
    ".toBeVisible(",
    ".toContainText(",
    ".toHaveAttribute(",
    ".toHaveClass(",
    ".toHaveCount(",
    ".toHaveCSS(",
    ".toHaveId(",
    ".toHaveJSProperty(",
    ".toHaveRole(",
    ".toHaveScreenshot(",
    ".toHaveText(",
    ".toHaveValue(",
    ".toHaveValues(",
    ".toHaveTitle(",
    ".toHaveURL(",
    ".toPass(",
];

/// One version of a file, read.
pub struct Model<'a> {
    /// The source.
    pub src: Source<'a>,
    /// Its language.
    pub language: Language,
    /// Tests, helpers and runner hooks, in order of position.
    pub units: Vec<Unit>,
    /// Every skip marker.
    pub skips: Vec<Skip>,
    /// Every check.
    pub checks: Vec<Check>,
    /// Checks outside any unit.
    pub loose_checks: Vec<usize>,
    /// Skips that govern no test (compared as file-level markers).
    pub file_skips: Vec<usize>,
    /// Each check's canonical key and strength, computed once: a check is read by
    /// several passes (pairing, moves, the comparison itself).
    keys: Vec<OnceLock<(String, Strength)>>,
    /// Each unit's local names and the values assigned to them ([`checks::aliases`]),
    /// read once.
    aliases: Vec<OnceLock<HashMap<String, String>>>,
    /// Whether any check is read from a comment (see [`Model::comment_keys`]).
    comment_checks: bool,
    /// Go: `assert := assert.New(t)` binds testify's checker to the package's name, so
    /// `assert.Equal(want, got)` takes no `t` (read as `assert.Equal(assert, want, got)`).
    go_checker_object: bool,
    /// Go: other names bound to testify's checker (`assertion := assert.New(t)`), with
    /// the package: `assertion.Equal(want, got)` reads as `assert.Equal(want, got)`.
    go_checkers: Vec<(String, &'static str)>,
    /// Go: an assertion package imported with a dot (`. "github.com/go-playground/
    /// assert/v2"`): its bare calls on the test's `t` (`Equal(t, got, want)`) are its
    /// checks, read as `assert.Equal(t, got, want)`.
    go_dot_assert: bool,
    /// Conditions on the environment around tests' checks (`gates`).
    pub env_conditions: Vec<super::gates::EnvCondition>,
    /// Names bound to a read of the environment, sorted (`gates`).
    pub(super) env_names: Vec<String>,
    /// Those of them bound to an environment variable, a runner's option or a CI flag,
    /// not only to the platform, sorted (`gates`).
    pub(super) env_variable_names: Vec<String>,
    /// Whether the file reads the environment anywhere (`gates`).
    pub(super) env_read: bool,
    /// Spans of checks that only group checks of their own (`assertAll(() -> {…})`):
    /// not checks, and their calls are not helper calls either.
    groups: Vec<Range<usize>>,
    /// Whether the file starts work nobody may wait for (`Task.Run(`,
    /// `GlobalScope.launch`, `.forEach(async`), read once: see `in_detached_task`.
    detaches: OnceLock<bool>,
    /// Helpers defined inside another unit (a test's own `fn check`, a C# local
    /// function), by index: few or none, so lookups of local functions stay cheap.
    nested_helpers: Vec<usize>,
}

/// The check later checks may sit inside (`assert.rejects(fn, (err) => {` and then
/// `assert.equal(err.name, …)`), read forward once as they come.
#[derive(Default)]
struct Outer {
    start: usize,
    end: usize,
    /// Its index among the checks found.
    index: usize,
    /// How far its text was read, the brace depth there, and how many blocks (callbacks)
    /// it opened at its own level.
    read: usize,
    depth: i32,
    blocks: usize,
    /// Whether it expects an error (asked once: its name is fixed once a block is open).
    failure: Option<bool>,
}

impl Outer {
    fn new(start: usize, end: usize, index: usize) -> Outer {
        Outer {
            start,
            end,
            index,
            read: start,
            ..Outer::default()
        }
    }

    /// Whether a check at `at` inside it is a check of its own: it sits in a block
    /// (a callback) left open, and not in the one callback of an expected error
    /// (`assertThrows(E.class, () -> {`: the action expected to fail;
    /// `assert.rejects(fn, (err) => {`: its second callback checks the error).
    fn runs_own_check_at(&mut self, code: &[u8], at: usize) -> bool {
        for &b in &code[self.read..at] {
            match b {
                b'{' => {
                    self.blocks += usize::from(self.depth == 0);
                    self.depth += 1;
                }
                b'}' => self.depth -= 1,
                _ => {}
            }
        }
        self.read = at;
        let (start, failure) = (self.start, &mut self.failure);
        self.depth > 0
            && (self.blocks > 1
                || !*failure.get_or_insert_with(|| {
                    checks::expects_failure(&String::from_utf8_lossy(&code[start..at]))
                }))
    }
}

impl<'a> Model<'a> {
    /// Reads `raw` as `rules.language`.
    pub fn new(raw: &'a [u8], rules: &Rules) -> Model<'a> {
        let language = rules.language;
        let src = Source::new(raw, language);
        let mut units = find_units(&src, rules);
        units.sort_by_key(|u| u.span.start);
        let mut model = Model {
            src,
            language,
            units,
            skips: Vec::new(),
            checks: Vec::new(),
            loose_checks: Vec::new(),
            file_skips: Vec::new(),
            keys: Vec::new(),
            aliases: Vec::new(),
            comment_checks: false,
            go_checker_object: false,
            go_checkers: Vec::new(),
            go_dot_assert: false,
            env_conditions: Vec::new(),
            env_names: Vec::new(),
            env_variable_names: Vec::new(),
            env_read: false,
            groups: Vec::new(),
            detaches: OnceLock::new(),
            nested_helpers: Vec::new(),
        };
        model.nested_helpers = nested_helpers(&model.units);
        model.find_checks(rules);
        model.keys = (0..model.checks.len()).map(|_| OnceLock::new()).collect();
        model.aliases = (0..model.units.len()).map(|_| OnceLock::new()).collect();
        model.find_skips(rules);
        model.find_env_names();
        model.find_early_returns();
        model.find_gated_checks(rules);
        model
    }

    /// The tests.
    pub fn tests(&self) -> impl Iterator<Item = (usize, &Unit)> {
        self.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.role == Role::Test)
    }

    /// Whether a unit is always skipped (an unconditional skip on it, above it or on
    /// the file): its checks run nowhere.
    pub fn never_runs(&self, unit: &Unit) -> bool {
        unit.skips
            .iter()
            .chain(&self.file_skips)
            .any(|&s| self.skips[s].kind == SkipKind::Unconditional)
    }

    /// Whether a unit ran nowhere before a change deleted it: an unconditional skip
    /// declared on it (a decorator, an annotation, `xit`, on or above its first line),
    /// or the first statement of its body (`it "x" do` then `skip`), or on its file.
    /// A skip call further in may sit in a branch, a subtest or a nested function, or
    /// after checks that ran: deleting the test loses those.
    pub fn never_ran(&self, unit: &Unit) -> bool {
        let opens = self.src.line_text(unit.line).trim_end();
        let opens = [":", "{", "do", "|"].iter().any(|o| opens.ends_with(o));
        let first_statement = |skip: &Skip| {
            opens
                && skip.line > unit.line
                && (unit.line + 1..skip.line).all(|l| self.src.line_text(l).trim().is_empty())
                && self.src.code[self.src.line_start(skip.line)..skip.pos]
                    .trim()
                    .is_empty()
        };
        unit.skips
            .iter()
            .filter(|&&s| self.skips[s].line <= unit.line || first_statement(&self.skips[s]))
            .chain(&self.file_skips)
            .any(|&s| self.skips[s].kind == SkipKind::Unconditional)
    }

    /// The innermost unit whose span holds `pos`: tests first, then helpers and hooks.
    pub(super) fn unit_at(&self, pos: usize) -> Option<usize> {
        let upto = self.units.partition_point(|u| u.span.start <= pos);
        let mut best: Option<usize> = None;
        for i in (0..upto).rev().take(64) {
            let u = &self.units[i];
            if u.role == Role::Test && u.span.contains(&pos) {
                return Some(i); // tests do not nest
            }
            if u.span.contains(&pos) {
                let better = match best {
                    None => true,
                    Some(b) => {
                        let cur = &self.units[b];
                        (u.role == Role::Test && cur.role != Role::Test)
                            || (u.role == cur.role && u.span.len() < cur.span.len())
                    }
                };
                if better {
                    best = Some(i);
                }
            }
        }
        best
    }

    /// The bare calls of a dot-imported assertion package (`Equal(t, got, want)`,
    /// `PanicMatches(t, func() {…}, "…")`): an exported name called on the test's `t`,
    /// not a function of the file (a helper `AssertError(t, …)` counts through its calls).
    fn go_dot_assert_calls(&self, code: &[u8]) -> Vec<(usize, usize)> {
        static CALL: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
        let Some(call) = CALL.get_or_init(|| {
            regex::bytes::Regex::new(
                r"(?-u)(?:^|[^.\w])([A-Z]\w*)[ \t]*\([ \t]*(?:t|tb|b|tt)[ \t]*[,)]",
            )
            .ok()
        }) else {
            return Vec::new();
        };
        call.captures_iter(code)
            .filter_map(|c| c.get(1))
            .filter(|name| {
                let name = String::from_utf8_lossy(name.as_bytes());
                !self.units.iter().any(|u| u.leaf == name)
            })
            .map(|name| {
                let open = code[name.end()..]
                    .iter()
                    .position(|&b| b == b'(')
                    .map_or(name.end(), |i| name.end() + i + 1);
                (name.start(), open)
            })
            .collect()
    }

    fn find_checks(&mut self, rules: &Rules) {
        let code = self.src.b();
        let mut outer = Outer::default();
        let mut checks: Vec<Check> = Vec::new();
        let mut containers: HashSet<usize> = HashSet::new();
        // Go's `r.Equal(…)` is a check only where `r` is testify's checker on the test's
        // `t` (`r := require.New(t)`), not any value named `r`; `assert := assert.New(t)`
        // binds the checker to the package's name (see `go_checker_object`).
        static CHECKER: std::sync::OnceLock<Option<regex::bytes::Regex>> =
            std::sync::OnceLock::new();
        // Any other name bound so (`assertion := assert.New(t)`) is the package's
        // checker under that name (see `go_checkers`).
        let mut r_checks = false;
        if self.language == Language::Go
            && let Some(checker) = CHECKER.get_or_init(|| {
                regex::bytes::Regex::new(
                    r"(?-u)\b(\w+)[ \t]*:?=[ \t]*(require|assert)\.New\(([ \t]*t[ \t]*\))?",
                )
                .ok()
            })
        {
            for c in checker.captures_iter(code) {
                match &c[1] {
                    b"r" => r_checks |= c.get(3).is_some(),
                    b"assert" | b"require" => self.go_checker_object = true,
                    name => {
                        self.go_checker_object = true;
                        let pair = (
                            String::from_utf8_lossy(name).into_owned(),
                            if &c[2] == b"assert" {
                                "assert"
                            } else {
                                "require"
                            },
                        );
                        if !self.go_checkers.contains(&pair) {
                            self.go_checkers.push(pair);
                        }
                    }
                }
            }
        }
        if self.language == Language::Go {
            for pair in go_checkers_from_helpers(code) {
                match pair.0.as_str() {
                    "r" => r_checks = true,
                    "assert" | "require" => self.go_checker_object = true,
                    _ if !self.go_checkers.contains(&pair) => {
                        self.go_checker_object = true;
                        self.go_checkers.push(pair);
                    }
                    _ => {}
                }
            }
        }
        let mut found: Vec<(usize, usize)> = rules
            .checks
            .find_iter(code)
            .map(|m| (m.start(), m.end()))
            .collect();
        for (name, _) in &self.go_checkers {
            if let Ok(calls) = regex::bytes::Regex::new(&format!(
                r"(?-u)\b{}\.[A-Z]\w*[ \t]*\(",
                regex::escape(name)
            )) {
                found.extend(calls.find_iter(code).map(|m| (m.start(), m.end())));
            }
        }
        if self.language == Language::Go && go_dot_assert_import(self.src.raw) {
            self.go_dot_assert = true;
            found.extend(self.go_dot_assert_calls(code));
        }
        if !self.go_checkers.is_empty() || self.go_dot_assert {
            found.sort_unstable();
            found.dedup();
        }
        for (m_start, m_end) in found {
            let matched = &code[m_start..m_end];
            if self.language == Language::Go && !r_checks && matched.starts_with(b"r.") {
                continue;
            }
            // Mockito's `verify(mock, …)` (`Mockito.verify`, a static mock's
            // `mocked.verify(() -> …)`) is a check; a value's own `signature.verify(…)`
            // is a call.
            if self.language == Language::Java
                && matched.starts_with(b"verify")
                && code[..m_start].trim_ascii_end().ends_with(b".")
                && !code[..m_start].trim_ascii_end().ends_with(b"Mockito.")
                && !code[m_end..].trim_ascii_start().starts_with(b"() ->")
                && !in_order_verifier(code, m_start)
            {
                continue;
            }
            let mut start = m_start + (matched.len() - matched.trim_ascii_start().len());
            // Kotlin's matchers (`x shouldBe 1`, `x.shouldContain(y)`): the value before
            // the matcher is the check's own; `import io.kotest….shouldThrow` names one.
            if self.language == Language::Java && matched.starts_with(b"should") {
                let line_at = code[..start]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                if code[line_at..].trim_ascii_start().starts_with(b"import ") {
                    continue;
                }
                let infix = code.get(m_end).is_some_and(|b| matches!(b, b' ' | b'\t'))
                    && code[m_end..]
                        .trim_ascii_start()
                        .first()
                        .is_some_and(|b| !matches!(b, b'(' | b'{' | b'<' | b'=' | b':'));
                if !infix && declares(code, start) {
                    continue;
                }
                let before = code[..start].trim_ascii_end();
                let same_line = !code[before.len()..start].contains(&b'\n');
                // (In a block of the previous check, `assertSoftly(cart) { total()
                // shouldBe 0 }`, the value may start inside it.)
                let floor = if start < outer.end {
                    outer.start
                } else {
                    outer.end
                };
                match before.last() {
                    Some(b'.') => start = receiver_start(code, before.len() - 1, floor),
                    Some(&c)
                        if same_line
                            && (c.is_ascii_alphanumeric() || matches!(c, b'_' | b')' | b']')) =>
                    {
                        start = receiver_start(code, start, floor)
                    }
                    _ => {}
                }
            }
            // Cypress's `cy.get(sel).should('have.text', t)`: the chain is the check's
            // subject, part of it.
            if self.language == Language::JavaScript && code[start..].starts_with(b".should") {
                start = receiver_start(code, start, outer.end);
            }
            // `.assertEqual(`: the receiver (`self`) belongs to the check.
            let dot = code[start] == b'.';
            let receiver = match dot {
                true if self.language == Language::Ruby => {
                    ruby_block_receiver(code, receiver_start(code, start, outer.end))
                }
                true => receiver_start(code, start, outer.end),
                false => start,
            };
            if dot {
                while start > 0
                    && (code[start - 1].is_ascii_alphanumeric() || code[start - 1] == b'_')
                {
                    start -= 1;
                }
            }
            // Inside the previous check (`expect.any(…)` in `toEqual(…)`), unless it is a
            // statement of a callback that check takes (`assert.rejects(fn, (err) => {`
            // then `assert.equal(err.name, …)` on a line of its own): a check of its own.
            let nested = start < outer.end;
            // (A statement may start at the check's receiver: `softly.assertThat(…)` in
            // `assertSoftly(softly -> {…})`. And JUnit's `assertAll(() -> assertEquals(…),
            // …)` runs each lambda's check.)
            let statement_start = match code[..start].last() {
                Some(b'.') => receiver_start(code, start - 1, outer.start),
                _ => start,
            };
            let grouped_lambda = nested
                && self.language == Language::Java
                && code[outer.start..].starts_with(b"assertAll")
                && code[..start].trim_ascii_end().ends_with(b"->");
            if nested
                && !grouped_lambda
                && !(at_line_start(code, statement_start) && outer.runs_own_check_at(code, start))
            {
                // An expected error in another check's arguments (`assertEquals("m",
                // assertThrows(E.class, f).getMessage())`) fails by itself when nothing
                // is thrown: a check of its own, and the outer check no group.
                let end = extent(code, start, m_end, self.language);
                // (The call itself: `assertThrows(…)` in `assertThrows(…).getMessage()`.)
                let call_end = code[start..end]
                    .iter()
                    .position(|&b| b == b'(')
                    .map_or(end, |open| self.src.close_of(start + open).min(end));
                if checks::expects_failure(&String::from_utf8_lossy(&code[start..call_end])) {
                    checks.push(Check {
                        receiver: receiver.min(start),
                        span: start..end,
                        line: self.src.line_of(start),
                        kind: CheckKind::Call,
                    });
                }
                continue;
            }
            // (JavaScript's `void expect(p)…` is the operator: a check nobody awaits.)
            if declares(code, start)
                && !(self.language == Language::JavaScript
                    && code[..start].trim_ascii_end().ends_with(b"void"))
            {
                continue; // `void assertValid(…) {`: a helper's name, not a call
            }
            if self.language == Language::Python
                && matched == b"assert"
                && !at_line_start(code, start)
                && !after_compound_head(code, start)
            {
                continue;
            }
            let end = extent(code, start, m_end, self.language);
            if nested {
                containers.insert(outer.index);
            } else {
                outer = Outer::new(start, end, checks.len());
            }
            checks.push(Check {
                receiver: receiver.min(start),
                span: start..end,
                line: self.src.line_of(start),
                kind: CheckKind::Call,
            });
        }
        // A check whose callback holds checks of its own (`assertAll(() -> {…})`,
        // `expect(() => {…}).not.toThrow()`) only groups them: counted, it would stand in
        // for a check deleted beside them. An expected error stays a check of its own.
        // So does Ruby's `lambda { … }.should_not raise_error` (its block is its receiver,
        // before it) as `expect { … }.not_to raise_error` does.
        if self.language == Language::Ruby {
            // (The checks in its block were found just before it.)
            for (i, c) in checks.iter().enumerate() {
                let block = c.receiver..c.span.start;
                if !block.is_empty()
                    && checks[..i]
                        .iter()
                        .rev()
                        .take_while(|o| o.span.start >= block.start)
                        .any(|o| o.span.start < block.end)
                {
                    containers.insert(i);
                }
            }
        }
        containers.retain(|&c| {
            !checks::expects_failure(&String::from_utf8_lossy(&code[checks[c].span.clone()]))
        });
        let mut index = 0;
        checks.retain(|c| {
            index += 1;
            let group = containers.contains(&(index - 1));
            if group {
                self.groups.push(c.span.clone());
            }
            !group
        });
        let read = checks.len();
        if self.language == Language::JavaScript {
            checks.extend(self.expect_error_directives());
        }
        if self.language == Language::Go {
            checks.extend(self.example_outputs());
        }
        if self.language == Language::CSharp {
            checks.extend(self.expected_results());
        }
        if checks.len() > read {
            self.comment_checks = true;
            checks.sort_by_key(|c| c.span.start);
        }
        // A Rust source file with its tests beside the code: an `assert!` of the code
        // under test is an invariant of that code, not a check of the suite.
        if let Some(regions) = self.rust_test_regions() {
            checks.retain(|c| {
                let at = c.span.start;
                regions.iter().any(|r| r.contains(&at))
                    || self
                        .unit_at(at)
                        .is_some_and(|u| self.units[u].role == Role::Test)
            });
        }
        for (i, c) in checks.iter().enumerate() {
            match self.unit_at(c.span.start) {
                Some(u) => self.units[u].checks.push(i),
                None => self.loose_checks.push(i),
            }
        }
        self.checks = checks;
    }

    /// A Rust file's test code when the file also holds the code under test: the
    /// items under `#[cfg(test)]` (or a `cfg` naming `test`, not `not(test)`). `None`
    /// when the whole file is test code: no `#[cfg(test)] mod … {` block (a file of
    /// tests may import under `#[cfg(test)]` too), or `#![cfg(test)]`.
    fn rust_test_regions(&self) -> Option<Vec<Range<usize>>> {
        if self.language != Language::Rust {
            return None;
        }
        let code = &self.src.code;
        let b = self.src.b();
        let mut out = Vec::new();
        let mut module = false;
        for (at, _) in code.match_indices("#[cfg(") {
            let close = self.src.close_of(at + 1);
            let attr = &code[at..close];
            let names_test = attr
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == "test");
            if !names_test || attr.contains("not(test)") {
                continue;
            }
            // The item: up to its block's end, or its `;` (`mod tests;`), outside
            // brackets (`fn h() -> [u8; 2] {`).
            let mut depth = 0i32;
            let Some(end) = b[close..]
                .iter()
                .position(|&c| {
                    match c {
                        b'(' | b'[' => depth += 1,
                        b')' | b']' => depth -= 1,
                        _ => {}
                    }
                    depth == 0 && (c == b'{' || c == b';')
                })
                .map(|i| close + i)
            else {
                continue;
            };
            let end = if b[end] == b'{' {
                // A test module with a body: the file holds code under test beside it.
                module |= code[close..end].trim_start().starts_with("mod ")
                    || code[close..end].contains(" mod ");
                self.src.close_of(end)
            } else {
                end + 1
            };
            out.push(at..end);
        }
        (module && !code.contains("#![cfg(test)]")).then_some(out)
    }

    /// `// @ts-expect-error` comments, each as a check spanning the statement after it.
    fn expect_error_directives(&self) -> Vec<Check> {
        let (raw, code) = (self.src.raw, self.src.b());
        let mut out = Vec::new();
        for at in memchr::memmem::find_iter(raw, EXPECT_ERROR.as_bytes()) {
            // A comment line of its own (`// @ts-expect-error why`), not a string.
            let line = self.src.line_of(at);
            let head = raw[self.src.line_start(line)..at].trim_ascii();
            if !(matches!(head, b"//" | b"/*") && code[at] == b' ') {
                continue;
            }
            let from = self.src.line_end(line).min(code.len());
            let Some(skip) = code[from..].iter().position(|b| !b.is_ascii_whitespace()) else {
                continue;
            };
            let start = from + skip;
            let end = extent(code, start, start, self.language);
            if end > start {
                out.push(Check {
                    span: start..end,
                    line,
                    kind: CheckKind::ExpectError,
                    receiver: start,
                });
            }
        }
        out
    }

    /// The keys of the checks read from comments in `span` (`// @ts-expect-error`, a Go
    /// example's output), which the blanked code does not show: the same code with one
    /// of these changed is still a change to the tests.
    pub fn comment_keys(&self, span: Range<usize>, rules: &Rules) -> Vec<String> {
        if !self.comment_checks {
            return Vec::new();
        }
        let first = self.checks.partition_point(|c| c.span.start < span.start);
        self.checks[first..]
            .iter()
            .enumerate()
            .take_while(|(_, c)| c.span.start < span.end)
            .filter(|(_, c)| c.kind != CheckKind::Call)
            .map(|(i, _)| self.check_key(first + i, rules).0)
            .collect()
    }

    /// The values NUnit tests with `ExpectedResult` rows return: each `return` of the
    /// body, or an expression body (`=> f(x);`).
    fn expected_results(&self) -> Vec<Check> {
        let code = self.src.b();
        if memchr::memmem::find(code, b"ExpectedResult").is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for unit in self.units.iter().filter(|u| u.role == Role::Test) {
            let text = &self.src.code[unit.span.clone()];
            if !text.contains("ExpectedResult") {
                continue;
            }
            // (Past the attributes, `[…]` each, to the method's parameters.)
            let mut head_end = 0;
            while let Some(open) = text[head_end..]
                .find(|c: char| !c.is_whitespace())
                .map(|i| head_end + i)
                .filter(|&i| text[i..].starts_with('['))
            {
                head_end = (self.src.close_of(unit.span.start + open) - unit.span.start)
                    .clamp(open + 1, text.len());
            }
            let params = text[head_end..]
                .find('(')
                .map(|o| unit.span.start + head_end + o);
            let Some(after) = params.map(|o| self.src.close_of(o)) else {
                continue;
            };
            let rest = &self.src.code[after..unit.span.end];
            let body = rest.trim_start();
            let from = after + rest.len() - body.len();
            let mut push = |start: usize| {
                let end = extent(code, start, start, self.language);
                if end > start {
                    out.push(Check {
                        receiver: start,
                        span: start..end,
                        line: self.src.line_of(start),
                        kind: CheckKind::ExpectedResult,
                    });
                }
            };
            if let Some(expression) = body.strip_prefix("=>") {
                push(from + 2 + expression.len() - expression.trim_start().len());
            } else {
                for (i, _) in body.match_indices("return ") {
                    let word = |c: char| c.is_alphanumeric() || c == '_';
                    if !body[..i].ends_with(word) {
                        push(from + i + "return ".len());
                    }
                }
            }
        }
        out
    }

    /// The output comments of the Go examples that are tests (those with one), each as
    /// a check spanning the comment.
    fn example_outputs(&self) -> Vec<Check> {
        self.units
            .iter()
            .filter(|u| u.role == Role::Test && u.leaf.starts_with("Example"))
            .filter_map(|u| go_example_output(&self.src, example_body(&self.src, u.span.end)?))
            .map(|out| Check {
                receiver: out.span.start,
                line: self.src.line_of(out.span.start),
                span: out.span,
                kind: CheckKind::ExampleOutput,
            })
            .collect()
    }

    /// The canonical text of a Go example's output check: `Output(v…, "text")`, with
    /// the values the example prints (`fmt.Println(v)`, through text conversions such
    /// as `strings.TrimSpace(v)`; what it is about, for whole-value covers) and the text
    /// expected (so that an edited output is an expectation changed).
    fn example_output_key(&self, check: &Check) -> String {
        let unit = self.unit_at(check.span.start).map(|u| &self.units[u]);
        let out = unit
            .and_then(|u| example_body(&self.src, u.span.end))
            .and_then(|body| go_example_output(&self.src, body));
        let Some(out) = out else {
            return String::new();
        };
        let mut key = String::from(if out.unordered {
            "UnorderedOutput("
        } else {
            "Output("
        });
        for value in unit.map(|u| self.printed_values(u)).unwrap_or_default() {
            key.push_str(&value);
            key.push_str(", ");
        }
        key.push('"');
        // Escaped but for plain characters, so that no operator, bracket, comma or
        // word in the text reads as a part of the check.
        for ch in out.text.chars() {
            if !ch.is_ascii() || ch.is_ascii_alphanumeric() || "_.:/+*-%#@".contains(ch) {
                key.push(ch);
            } else {
                key.push_str(&format!("\\x{:02x}", ch as u32));
            }
        }
        key.push_str("\")");
        key
    }

    /// The values a Go unit prints to standard output (`fmt.Println(a, b)`,
    /// `fmt.Fprintf(os.Stdout, "%v", c)`), squeezed, without literals; a value printed
    /// through a text conversion (`strings.TrimSpace(out)`) as the value converted.
    fn printed_values(&self, unit: &Unit) -> Vec<String> {
        let code = &self.src.code;
        let mut out: Vec<String> = Vec::new();
        let mut from = unit.span.start;
        while let Some(at) = code
            .get(from..unit.span.end)
            .and_then(|rest| rest.find("fmt."))
            .map(|i| i + from)
        {
            from = at + 4;
            if at > 0 && {
                let b = code.as_bytes()[at - 1];
                b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
            } {
                continue;
            }
            let name_end = at + ident_len(&code[at + 4..]) + 4;
            let Some(&(_, to_writer)) = GO_PRINTS.iter().find(|(p, _)| *p == &code[at..name_end])
            else {
                continue;
            };
            if code.as_bytes().get(name_end) != Some(&b'(') {
                continue;
            }
            let close = self.src.close_of(name_end);
            let inner = name_end + 1..close.saturating_sub(1).max(name_end + 1);
            let args = checks::squeeze(&self.src.text(inner));
            let mut args = checks::split_top(&args).into_iter();
            if to_writer && args.next() != Some("os.Stdout") {
                continue;
            }
            for arg in args {
                let value = converted(arg);
                if !checks::literal(value) && !out.iter().any(|v| v == value) {
                    out.push(value.to_string());
                }
            }
            from = close.max(from);
        }
        out
    }

    /// Whether the check `index` sits inside a loop of its unit.
    pub fn in_loop(&self, unit: &Unit, index: usize) -> bool {
        self.checks
            .get(index)
            .is_some_and(|c| self.in_loop_at(unit, c.span.start))
    }

    /// Whether `pos` sits inside a loop of its unit.
    pub fn in_loop_at(&self, unit: &Unit, pos: usize) -> bool {
        self.loop_header_at(unit, pos).is_some()
    }

    /// The header of the innermost loop of its unit that `pos` sits in (`for s in
    /// [...]:`, `for _, tt := range tests {`, `cases.forEach(`), up to its block.
    pub(super) fn loop_header_at(&self, unit: &Unit, pos: usize) -> Option<Range<usize>> {
        let line = self.src.line_of(pos);
        if self.language.indented() {
            let mut indent = self.src.indent(line).unwrap_or(0);
            let first = self.src.line_of(unit.span.start);
            for l in (first..line).rev() {
                let Some(i) = self.src.indent(l) else {
                    continue;
                };
                if i < indent {
                    let t = self.src.line_text(l).trim_start();
                    if t.starts_with("for ") || t.starts_with("while ") || t.contains(".each") {
                        return Some(self.src.line_start(l)..self.src.line_end(l));
                    }
                    indent = i;
                }
            }
            None
        } else {
            let mut at = pos;
            while let Some(open) = self.src.enclosing_brace(at) {
                if open < unit.span.start {
                    break;
                }
                // The statement that opens the block may start lines above, before a
                // table literal (`for _, v := range []struct{…}{…} {`).
                let mut head = open;
                let b = self.src.b();
                loop {
                    let before = b[..head].trim_ascii_end();
                    match before.last() {
                        Some(b'}' | b')' | b']') if before.len() > unit.span.start => {
                            match matching_open(b, before.len() - 1) {
                                Some(o) if o >= unit.span.start => head = o,
                                _ => break,
                            }
                        }
                        _ => break,
                    }
                }
                let header_line = self.src.line_of(head);
                let header = &self.src.code[self.src.line_start(header_line)..open];
                let h = header.trim_start();
                if h.starts_with("for ")
                    || h.starts_with("for(")
                    || h.starts_with("while")
                    || header.contains(".forEach(")
                    || header.contains(".each(")
                    || header.contains(".map(")
                    || (self.language == Language::Java
                        && (h.starts_with("forAll(") || h.starts_with("forNone(")))
                    // A subtest per row (`t.Run(tc.name, func(t *testing.T) {`); not
                    // any call named `Run` (`if err := cmd.Run(…); err != nil {`), nor
                    // a subtest written once by a literal name (`t.Run("full", …)`).
                    || (header.contains(".Run(")
                        && header.contains("testing.")
                        && named_subtests(&self.src.raw[self.src.line_start(header_line)..open]) == 0)
                {
                    return Some(self.src.line_start(header_line)..open);
                }
                at = open;
            }
            None
        }
    }

    /// The if/else chain (with an `else`) the check `index` sits in a branch of, as
    /// (the chain's first block, the branch's block): only one branch runs, so the
    /// checks of its branches are alternatives (`if windows { … } else { … }`). The
    /// outermost such chain in the unit. A Go check's own `if got != want {` is its
    /// condition, not a branch: an `else if` after it is checked on the passing path.
    pub fn alternative(&self, unit: &Unit, index: usize) -> Option<(usize, usize)> {
        let check = self.checks.get(index)?;
        let own_condition = self.language == Language::Go
            && !self.src.code[check.span.clone()].starts_with("assert")
            && !self.src.code[check.span.clone()].starts_with("require");
        if self.language.indented() {
            return self.alternative_indented(unit, check.line);
        }
        let b = self.src.b();
        let word_at = |at: usize, w: &str| {
            b[at..].starts_with(w.as_bytes())
                && !b
                    .get(at + w.len())
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        };
        // (The statement's start, as this reader has always taken it: without
        // semicolons a chain after a statement is not read as alternatives, which keeps
        // two error checks rewritten as if/else, `Error`/`NoError`, from losing one.)
        let head = |open: usize| self.statement_at(unit.span.start, open);
        let mut found = None;
        let mut at = check.span.start;
        let mut skip = own_condition;
        while let Some(open) = self.src.enclosing_brace(at) {
            if open < unit.span.start {
                break;
            }
            at = open;
            if std::mem::take(&mut skip) {
                continue;
            }
            let h = head(open);
            let is_else = word_at(h, "else");
            let is_if = word_at(h, "if");
            let has_else = is_else || {
                let mut e = self.src.close_of(open);
                while e < b.len() && b[e].is_ascii_whitespace() {
                    e += 1;
                }
                e < b.len() && word_at(e, "else")
            };
            if !(is_if || is_else) || !has_else {
                continue;
            }
            // Back through the `} else` heads to the chain's first `if` block.
            let mut first = open;
            let mut first_head = h;
            while word_at(first_head, "else") {
                let mut c = first_head;
                while c > unit.span.start && b[c - 1].is_ascii_whitespace() {
                    c -= 1;
                }
                match (c > unit.span.start && b[c - 1] == b'}')
                    .then(|| matching_open(b, c - 1))
                    .flatten()
                {
                    Some(o) if o >= unit.span.start => {
                        first = o;
                        first_head = head(o);
                    }
                    _ => break,
                }
            }
            if word_at(first_head, "if") && !self.reads_loop_variable(unit, first, first_head) {
                found = Some((first, open));
            }
        }
        found
    }

    /// Whether the head of the block opening at `open` (from `head`) reads a variable
    /// of a `for` loop around it (`for _, tt := range tests {` … `if tt.wantErr {`): over
    /// the rows each branch runs, so its checks are not alternatives.
    fn reads_loop_variable(&self, unit: &Unit, open: usize, head: usize) -> bool {
        let condition: Vec<&str> = super::source::words(&self.src.code[head..open]).collect();
        let mut at = open;
        while let Some(o) = self.src.enclosing_brace(at) {
            if o < unit.span.start {
                break;
            }
            at = o;
            let h = self.block_head(unit, o);
            let loop_head = &self.src.code[h..o];
            let Some(rest) = loop_head.strip_prefix("for") else {
                continue;
            };
            // The names bound: before `range`/`of`/`in`/`:=` (`for (const tc of cases)`).
            let bound = [" range ", " of ", " in ", ":="]
                .iter()
                .filter_map(|k| rest.find(k))
                .min()
                .map_or("", |k| &rest[..k]);
            if super::source::words(bound)
                .filter(|w| !["const", "let", "var", "_", "mut"].contains(w))
                .any(|w| condition.contains(&w))
            {
                return true;
            }
        }
        false
    }

    /// Where the head of the block opening at `open` starts (`if (x) {`, the `else`
    /// of `} else if (x) {`), within `unit`.
    pub(super) fn block_head(&self, unit: &Unit, open: usize) -> usize {
        self.head_at(unit.span.start, open)
    }

    /// [`Model::block_head`] within the code from `floor`. Without semicolons (Go,
    /// JavaScript in the standard style) a statement ends at its line's end, so the
    /// head starts on the last line before the brace that does not continue the one
    /// before it (`x := f()` then `if x != 3 {`: the `if`; `if a &&` then `b {`: the
    /// `if`; Allman's `if (x)` then `{`: the `if`).
    pub(super) fn head_at(&self, floor: usize, open: usize) -> usize {
        let b = self.src.b();
        let statement = self.statement_at(floor, open);
        if memchr::memchr(b'\n', &b[statement..open]).is_none() {
            return statement; // (one line: most heads)
        }
        let skip_space = |mut h: usize| {
            while h < open && b[h].is_ascii_whitespace() {
                h += 1;
            }
            h
        };
        // Line starts from the last, outside brackets: take the first whose line has
        // code and neither continues the line before nor is continued by it.
        let code_of = |from: usize, to: usize| self.src.code[from..to].trim();
        let mut end = open;
        let mut j = open;
        while j > statement {
            match b[j - 1] {
                b')' | b']' => match matching_open(b, j - 1) {
                    Some(o) if o >= statement => j = o,
                    _ => break,
                },
                b'\n' => {
                    let own = code_of(j, end);
                    if !own.is_empty() {
                        let before = code_of(statement, j);
                        // (A label, `case "x":`, and `n++` end their line.)
                        let continues = before.is_empty()
                            || own.starts_with(['.', '&', '|', '?', ':', '+', '-', '*', '/', ','])
                            || (before.ends_with([
                                '&', '|', '(', '[', ',', '=', '>', '+', '-', '*', '/', '.', '?',
                                '\\',
                            ]) && !before.ends_with("++")
                                && !before.ends_with("--"));
                        if !continues {
                            return skip_space(j);
                        }
                    }
                    end = j;
                    j -= 1;
                }
                _ => j -= 1,
            }
        }
        statement
    }

    /// Where the statement holding the block opening at `open` starts: back to a `;`,
    /// `{` or `}` (outside brackets), within the code from `floor`.
    pub(super) fn statement_at(&self, floor: usize, open: usize) -> usize {
        let b = self.src.b();
        let mut i = open;
        while i > floor {
            match b[i - 1] {
                b')' | b']' => match matching_open(b, i - 1) {
                    Some(o) if o >= floor => i = o,
                    _ => break,
                },
                b';' | b'{' | b'}' => break,
                _ => i -= 1,
            }
        }
        while i < open && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }

    /// The lines heading the indented blocks that hold `line` within `unit`, innermost
    /// first, with their indentation (none for a blank line).
    pub(super) fn indent_headers(
        &self,
        unit: &Unit,
        line: usize,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        let first_line = self.src.line_of(unit.span.start);
        let mut indent = self.src.indent(line);
        (first_line..line).rev().filter_map(move |h| {
            let i = self.src.indent(h)?;
            if i >= indent? {
                return None;
            }
            indent = Some(i);
            Some((h, i))
        })
    }

    /// [`Model::alternative`] for blocks by indentation (Python's `if`/`elif`/`else:`,
    /// Ruby's `if`/`elsif`/`else`), by lines.
    fn alternative_indented(&self, unit: &Unit, line: usize) -> Option<(usize, usize)> {
        let first_line = self.src.line_of(unit.span.start);
        let last_line = self.src.line_of(unit.span.end.saturating_sub(1));
        let starts = |l: usize, words: &[&str]| {
            let t = self.src.line_text(l).trim_start();
            words.iter().any(|w| {
                t.strip_prefix(w)
                    .is_some_and(|r| r.is_empty() || r.starts_with([' ', ':', '(']))
            })
        };
        const IF: &[&str] = &["if", "unless"];
        const ELSE: &[&str] = &["else", "elif", "elsif"];
        let mut found = None;
        for (h, i) in self.indent_headers(unit, line) {
            if !(starts(h, IF) || starts(h, ELSE)) {
                continue;
            }
            let has_else = starts(h, ELSE)
                || (h + 1..=last_line)
                    .find(|&l| self.src.indent(l).is_some_and(|j| j <= i))
                    .is_some_and(|l| self.src.indent(l) == Some(i) && starts(l, ELSE));
            if !has_else {
                continue;
            }
            // Up through the `else`/`elif` lines at this indent to the chain's `if`.
            let mut first = h;
            while starts(first, ELSE) {
                match (first_line..first)
                    .rev()
                    .find(|&l| self.src.indent(l).is_some_and(|j| j <= i))
                {
                    Some(l)
                        if self.src.indent(l) == Some(i) && (starts(l, IF) || starts(l, ELSE)) =>
                    {
                        first = l
                    }
                    _ => break,
                }
            }
            if starts(first, IF) {
                found = Some((self.src.line_start(first), self.src.line_start(h)));
            }
        }
        found
    }

    /// Whether a check starts in `span` (the checks are in source order).
    pub(super) fn has_check_in(&self, span: Range<usize>) -> bool {
        let first = self.checks.partition_point(|c| c.span.start < span.start);
        self.checks
            .get(first)
            .is_some_and(|c| c.span.start < span.end)
    }

    /// Rows of the largest table in a unit (a literal list of tuples, structs or
    /// arrays with two or more rows), or 1.
    pub fn rows(&self, unit: &Unit) -> usize {
        let code = &self.src.b()[unit.span.clone()];
        let start = unit.span.start;
        let has_check = |body: &[u8]| {
            let at = body.as_ptr() as usize - code.as_ptr() as usize + start;
            let span = at..at + body.len();
            self.has_check_in(span)
        };
        if self.language == Language::Go
            && let Some(rows) = go_table_rows(&self.src, code, &has_check, false)
        {
            return rows.max(1);
        }
        // A Python table may be a dict looped over by its items (`for year, leap in
        // {2000: True, 1900: False}.items():`).
        if self.language == Language::Python && memchr::memmem::find(code, b".items()").is_some() {
            return rows_in(code).max(dict_rows(code)).max(1);
        }
        // kotest's `forAll(row(1, 2), row(3, 4)) { a, b -> … }`: a row per `row(…)`.
        if self.language == Language::Java && memchr::memmem::find(code, b"forAll(").is_some() {
            return rows_in(code).max(super::tables::kotest_rows(code)).max(1);
        }
        // A Ruby loop over a table named outside the test (`EGP_CASES.each do |c, want|`).
        if self.language == Language::Ruby {
            return rows_in(code)
                .max(self.looped_rows(unit).unwrap_or(1))
                .max(1);
        }
        rows_in(code).max(1)
    }

    /// The canonical text of a check, and its strength.
    pub fn check_key(&self, index: usize, rules: &Rules) -> (String, Strength) {
        match self.keys.get(index) {
            Some(cell) => cell.get_or_init(|| self.read_key(index, rules)).clone(),
            None => self.read_key(index, rules),
        }
    }

    fn read_key(&self, index: usize, rules: &Rules) -> (String, Strength) {
        let check = &self.checks[index];
        if check.kind == CheckKind::ExampleOutput {
            return (self.example_output_key(check), Strength::Equality);
        }
        if check.kind == CheckKind::ExpectedResult {
            let value = checks::squeeze(&self.src.code[check.span.clone()]);
            return (
                format!("Assert.That({value}, Is.EqualTo(ExpectedResult))"),
                Strength::Equality,
            );
        }
        let text = if self.language == Language::Go
            && go_reports_failure(&self.src.code[check.span.clone()])
        {
            format!("t.Error({})", self.go_condition(check.span.start))
        } else {
            self.src.text(check.span.clone())
        };
        let text = match self.go_checkers.iter().find(|(name, _)| {
            text.strip_prefix(name.as_str())
                .is_some_and(|r| r.starts_with('.'))
        }) {
            Some((name, package)) => format!("{package}{}", &text[name.len()..]),
            None => text,
        };
        let text = if self.go_dot_assert
            && text.starts_with(|c: char| c.is_ascii_uppercase())
            && text
                .find('(')
                .is_some_and(|open| !text[..open].contains('.'))
        {
            format!("assert.{text}")
        } else {
            text
        };
        let text = if self.go_checker_object {
            go_checker_call(text)
        } else {
            text
        };
        let text = match self.scope_receiver(check.span.start) {
            Some(receiver) => with_receiver(&text, receiver),
            None => text,
        };
        let key = checks::canonical(&text, rules);
        // JUnit's idiom `try { f(); fail(…); } catch (E e) { }` expects `E` as
        // `assertThrows(E.class, f)` and `@Test(expected = E.class)` do.
        let key = match self.language {
            Language::Java if key == "fail()" => self
                .caught_around(check.span.start)
                .map_or(key, |ty| format!("assertThrows({ty}.class)")),
            Language::Java if key.starts_with("assertThat(") && key.ends_with(").isTrue()") => {
                match key
                    .strip_prefix("assertThat(")
                    .and_then(|k| k.strip_suffix(").isTrue()"))
                    .filter(|flag| flag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
                    .and_then(|flag| self.caught_into_flag(check.span.start, flag))
                {
                    Some(ty) => format!("assertThrows({ty}.class)"),
                    None => key,
                }
            }
            _ => key,
        };
        // Ruby's `payload = catch(:error) { f }` then `expect(payload).to be_a(E)`: the
        // block's own value is no `E`, so the check fails unless `f` throws, as
        // `expect { f }.to throw_symbol(:error)` does.
        let key = match self.language {
            Language::Ruby if key.starts_with("expect(") => self
                .caught_symbol(check.span.start, &key)
                .map_or(key, |(symbol, rest)| {
                    format!("expect{{}}.to throw_symbol({symbol}) {rest}")
                }),
            _ => key,
        };
        let rejection = match self.language {
            Language::JavaScript if key.starts_with("expect(") => {
                self.caught_rejection(check.span.start, &key)
            }
            _ => None,
        };
        let (key, rejection) = match rejection {
            Some(text) => (checks::canonical(&text, rules), true),
            None => (key, false),
        };
        if check.kind == CheckKind::ExpectError {
            return (format!("{EXPECT_ERROR} {key}"), Strength::Other);
        }
        if self.language == Language::JavaScript && self.promise_failure_caught(check, &key) {
            return (format!("{key} (its failure caught away)"), Strength::Void);
        }
        if (self.language == Language::JavaScript
            && !rejection
            && self.floating_promise_check(check, &key))
            || (self.language == Language::CSharp && self.unawaited_async_check(check, &key))
            || self.in_detached_task(check)
        {
            return (format!("{NOT_AWAITED} {key}"), Strength::Void);
        }
        let mut strength = checks::strength(&key, rules);
        // A tolerance passed by name (`const tol = 2.0` then `assert.InDelta(t, 30.0,
        // got, tol)`) is rated by its value.
        if strength != Strength::Weak
            && TOLERANCE_WORDS.iter().any(|w| key.contains(w))
            && let Some(resolved) = self.numbers_named_in(&key, check.span.start)
        {
            let by_value = checks::strength(&resolved, rules);
            if by_value == Strength::Weak {
                strength = by_value;
            }
        }
        // An expected value computed by the code under test checks nothing (marked in
        // its key: its text may be unchanged, `expected = 108.0` having become
        // `expected = total(cart)` above it).
        if strength == Strength::Equality
            && let Some(unit) = self.unit_at(check.span.start)
            && !self.aliases_of(unit).is_empty()
            && let Some(read) =
                checks::self_compared(&self.full_key(index, &key, rules), self.aliases_of(unit))
            && checks::only_assignments_since(
                &self.src.text(self.units[unit].span.start..check.span.end),
                &read,
            )
        {
            return (format!("{key} (compared with itself)"), Strength::Void);
        }
        // An expected error caught as any exception but bound (`var e =
        // assertThrows(Exception.class, f)`) is read further: its type checked after.
        if strength == Strength::Weak
            && self.language == Language::Java
            && key.starts_with("assert")
            && self.src.code[self.src.line_start(check.line)..check.span.start]
                .trim_end()
                .ends_with('=')
        {
            strength = Strength::Equality;
        }
        // A check that runs only when the value it checks already looks right (`if
        // isinstance(r, int): assert r == 1250`) checks nothing the rest of the time;
        // keyed apart, so the same line moved under the condition reads as loosened.
        if let Some(unit) = self.unit_at(check.span.start)
            && let Some(cond) = self
                .guard_of(&self.units[unit], index, &key, rules)
                .or_else(|| self.callback_guard(&self.units[unit], check))
        {
            return (format!("{key} {GUARDED} {cond})"), Strength::Void);
        }
        // AssertJ's `SoftAssertions` made by hand report nothing until `assertAll()`:
        // without it, a failing soft check never fails the test.
        if self.language == Language::Java
            && memchr::memmem::find(self.src.b(), b"new SoftAssertions()").is_some()
            && let Some(soft) = self.src.code[self.src.line_start(check.line)..check.span.start]
                .strip_suffix('.')
                .map(|r| &r[checks::trailing_word_start(r)..])
                .filter(|r| !r.is_empty())
            && let Some(unit) = self.unit_at(check.span.start)
        {
            let code = &self.src.code[self.units[unit].span.clone()];
            let made = code.contains(&format!("{soft} = new SoftAssertions()"));
            if made && !code.contains(&format!("{soft}.assertAll()")) {
                return (format!("{key} (soft, never reported)"), Strength::Void);
            }
        }
        // (Ruby's modifier `if`/`unless` after the check, on the value it checks.)
        if self.language == Language::Ruby
            && let Some((check, cond)) = super::guards::ruby_modifier(&key)
        {
            let cond = match cond.strip_prefix("unless ") {
                Some(c) => format!("not ({c})"),
                None => cond.trim_start_matches("if ").to_string(),
            };
            return (format!("{check} {GUARDED} {cond})"), Strength::Void);
        }
        (key, strength)
    }

    /// The type a check at `pos` expects thrown by JUnit's idiom: inside `try { f();
    /// fail(…); } catch (E e) { }`, or right after `try { f(); } catch (E e) { return;
    /// }` (Kotlin's `catch (e: E)` too).
    /// The object a Kotlin block at `pos` is scoped to: `cart` in `assertSoftly(cart) {`,
    /// `with(cart) {` and `cart.apply {` (its members are called bare inside).
    fn scope_receiver(&self, pos: usize) -> Option<&str> {
        if self.language != Language::Java {
            return None;
        }
        let code = self.src.b();
        let floor = self.unit_at(pos).map_or(0, |u| self.units[u].span.start);
        let mut depth = 0usize;
        let open = (floor..pos).rev().find(|&i| match code[i] {
            b'}' => {
                depth += 1;
                false
            }
            b'{' if depth > 0 => {
                depth -= 1;
                false
            }
            b'{' => true,
            _ => false,
        })?;
        let head = self.src.code[self.src.line_start(self.src.line_of(open))..open].trim_end();
        let path = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        };
        let scoped = ["assertSoftly(", "with("].iter().find_map(|call| {
            let at = head.rfind(call)?;
            let inner = head[at + call.len()..].strip_suffix(')')?;
            let whole_word = !head[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            (whole_word && path(inner)).then_some(inner)
        });
        scoped.or_else(|| {
            let rest = head
                .strip_suffix(".apply")
                .or_else(|| head.strip_suffix(".run"))?;
            let word = &rest[checks::trailing_word_start(rest)..];
            path(word).then_some(word)
        })
    }

    fn caught_around(&self, pos: usize) -> Option<String> {
        let code = self.src.b();
        let catch_head = |open: usize| self.caught_by(open);
        if let Some(open) = self.src.enclosing_brace(pos)
            && code[open] == b'{'
            && code[..open].trim_ascii_end().ends_with(b"try")
        {
            let rest = code.get(self.src.close_of(open)..)?.trim_ascii_start();
            let rest = rest.strip_prefix(b"catch")?.trim_ascii_start();
            let close = rest.iter().position(|&b| b == b'{')?;
            let at = code.len() - rest.len() + close;
            return catch_head(at);
        }
        let before = code[..pos].trim_ascii_end();
        let close = before
            .len()
            .checked_sub(1)
            .filter(|_| before.ends_with(b"}"))?;
        let open = self.src.enclosing_brace(close)?;
        let block = &code[open..close];
        let returns = block.windows(6).enumerate().any(|(i, w)| {
            w == b"return"
                && (i == 0 || !(block[i - 1].is_ascii_alphanumeric() || block[i - 1] == b'_'))
        });
        (code[open] == b'{' && returns).then(|| catch_head(open))?
    }

    /// For Ruby's `expect(NAME).to be_a(E)` (`key`) after `NAME = catch(:sym) {` in the
    /// test around `pos`: the symbol (`:sym`) and the check (`.to be_a(E)`).
    /// JavaScript's `const err = await p.catch((e) => e)` then
    /// `expect(err).toBeInstanceOf(E)` or `expect(err.message).toBe(m)`: a value that
    /// resolves is no `E` and has no such message, so the check fails unless `p`
    /// rejects, as `await expect(p).rejects.toThrow(E)` (or `(m)`) does; that check's
    /// text.
    fn caught_rejection(&self, pos: usize, key: &str) -> Option<String> {
        let close = super::source::matching_close(key.as_bytes(), "expect".len())?;
        let subject = key["expect(".len()..close].trim_start_matches('(');
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        let name_end = subject.find(|c: char| !word(c)).unwrap_or(subject.len());
        let (name, rest) = (&subject[..name_end], &key[close + 1..]);
        let expected = if let Some(ty) = rest.strip_prefix(".toBeInstanceOf(") {
            (subject.len() == name_end).then_some(ty.strip_suffix(')')?)?
        } else {
            // (`err.message`, `(err as NotFoundError).message`.)
            subject[name_end..]
                .split_once(".message")
                .filter(|(cast, after)| {
                    (cast.is_empty() || cast.starts_with(" as ") || cast.starts_with("as "))
                        && after.trim_start_matches(')').is_empty()
                })?;
            [".toBe(", ".toEqual(", ".toStrictEqual("]
                .iter()
                .find_map(|m| rest.strip_prefix(m))?
                .strip_suffix(')')?
        };
        if name.is_empty() {
            return None;
        }
        static CAUGHT: OnceLock<regex::Regex> = OnceLock::new();
        let caught = CAUGHT.get_or_init(|| {
            regex::Regex::new(
                r"(?:const|let|var)\s+([\w$]+)\s*=\s*await\s+([\s\S]+?)\.catch\(\s*\(?\s*([\w$]+)\s*(?::\s*[\w<>\[\]| ]+)?\)?\s*=>\s*([\w$]+)\s*\)\s*;?",
            )
            .expect("caught rejection pattern")
        });
        let from = self.unit_at(pos).map_or(0, |u| self.units[u].span.start);
        let code = &self.src.code[from..pos];
        let promise = caught
            .captures_iter(code)
            .filter(|c| &c[1] == name && c[3] == c[4])
            .last()?
            .get(2)?;
        let raw =
            String::from_utf8_lossy(&self.src.raw[from + promise.start()..from + promise.end()]);
        Some(format!("expect({raw}).rejects.toThrow({expected})"))
    }

    fn caught_symbol(&self, pos: usize, key: &str) -> Option<(String, String)> {
        let (name, rest) = key.strip_prefix("expect(")?.split_once(')')?;
        let kind_of = [
            ".to be_a(",
            ".to be_an(",
            ".to be_kind_of(",
            ".to be_a_kind_of(",
            ".to be_instance_of(",
            ".to be_an_instance_of(",
        ];
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || !kind_of.iter().any(|k| rest.starts_with(k))
        {
            return None;
        }
        let from = self.unit_at(pos).map_or(0, |u| self.units[u].span.start);
        let code = &self.src.code[from..pos];
        let raw = String::from_utf8_lossy(&self.src.raw[from..pos]);
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        // (The last value assigned to the name before the check: `payload = catch(:error)
        // { f }` then `payload = ErrorResponse.new` is no throw.)
        let assigned = code.match_indices(name).filter_map(|(at, _)| {
            if code[..at].ends_with(word) || code[..at].ends_with('.') {
                return None;
            }
            let value = code[at + name.len()..].trim_start().strip_prefix('=')?;
            if value.starts_with(['=', '~', '>']) {
                return None; // a comparison or a hash pair, not an assignment
            }
            Some(at + name.len() + (code[at + name.len()..].len() - value.len()))
        });
        assigned.last().and_then(|value_at| {
            let value = raw.get(value_at..)?.trim_start();
            let symbol = value
                .strip_prefix("catch")?
                .trim_start_matches(['(', ' '])
                .split(|c: char| !(word(c) || c == ':'))
                .next()
                .filter(|s| s.starts_with(':') && s.len() > 1)?;
            Some((symbol.to_string(), rest.to_string()))
        })
    }

    /// The type a `catch (E e) {` block opened at `open` catches (Kotlin's `catch (e:
    /// E) {` too).
    fn caught_by(&self, open: usize) -> Option<String> {
        let code = self.src.b();
        let head = code[..open].trim_ascii_end().strip_suffix(b")")?;
        let start = head.iter().rposition(|&b| b == b'(')?;
        if !head[..start].trim_ascii_end().ends_with(b"catch") {
            return None;
        }
        let inner = String::from_utf8_lossy(&head[start + 1..]).into_owned();
        // (`final Foo e`: the word before the name.)
        let words: Vec<&str> = inner.split_whitespace().collect();
        let ty = match inner.split_once(':') {
            Some((_, ty)) => ty.trim(),
            None => *words.len().checked_sub(2).and_then(|i| words.get(i))?,
        };
        let ty = ty.rsplit('.').next().unwrap_or(ty);
        (!ty.is_empty() && ty.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            .then(|| ty.to_string())
    }

    /// The type whose `catch` block sets `flag` to true before `pos`, in the test
    /// around it: `boolean threw = false; try { f(); } catch (E e) { threw = true; }`
    /// then `assertTrue(threw)` expects `E` as `assertThrows(E.class, f)` does.
    fn caught_into_flag(&self, pos: usize, flag: &str) -> Option<String> {
        let code = self.src.b();
        let from = self.unit_at(pos).map_or(0, |u| self.units[u].span.start);
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        memchr::memmem::find_iter(&code[from..pos], flag.as_bytes())
            .map(|at| from + at)
            .filter(|&at| {
                let rest = code[at + flag.len()..].trim_ascii_start();
                !code[..at].last().is_some_and(|&b| word(b) || b == b'.')
                    && rest.strip_prefix(b"=").is_some_and(|value| {
                        let value = value.trim_ascii_start();
                        value.starts_with(b"true") && !value.get(4).is_some_and(|&b| word(b))
                    })
            })
            .map(|at| {
                self.src
                    .enclosing_brace(at)
                    .and_then(|open| self.caught_by(open))
            })
            // (Every such assignment sits in a catch of one type: `threw = true` after
            // the `try` as well passes without a throw.)
            .try_fold(None, |caught: Option<String>, ty| match (caught, ty) {
                (None, Some(ty)) => Some(Some(ty)),
                (Some(was), Some(ty)) if was == ty => Some(Some(was)),
                _ => None,
            })
            .flatten()
    }

    /// What a JUnit expected error at `line` runs: the test's body for `@Test(expected
    /// = E.class)`, the `try` block of the `try { f(); fail(); } catch (E e)` idioms.
    pub(super) fn expected_error_body(&self, line: usize) -> Option<Range<usize>> {
        if self.language != Language::Java {
            return None;
        }
        let text = self.src.line_text(line);
        let start = self.src.line_start(line);
        let code = self.src.b();
        if text.trim_start().starts_with("@Test") && text.contains("expected") {
            let unit = &self.units[self.unit_at(start)?];
            let open = start + code[start..unit.span.end].iter().position(|&b| b == b'{')?;
            return Some(open + 1..unit.span.end.saturating_sub(1));
        }
        let pos = start + text.find("fail(")?;
        self.caught_around(pos)?;
        let open = self.src.enclosing_brace(pos)?;
        let try_open = if code[..open].trim_ascii_end().ends_with(b"try") {
            open
        } else {
            // After the catch: `try { … } catch (E e) { … } fail();`.
            let close = code[..pos].trim_ascii_end().len() - 1;
            let catch_open = self.src.enclosing_brace(close)?;
            let head = code[..catch_open].trim_ascii_end().strip_suffix(b")")?;
            let paren = head.iter().rposition(|&b| b == b'(')?;
            let before = head[..paren].trim_ascii_end().strip_suffix(b"catch")?;
            let try_close = before.trim_ascii_end().len().checked_sub(1)?;
            self.src.enclosing_brace(try_close)?
        };
        Some(try_open + 1..self.src.close_of(try_open).saturating_sub(1))
    }

    /// A JavaScript check that returns a promise (`expect(p).rejects.toThrow(…)`,
    /// `assert.rejects(…)`, `expect.poll(…)`, chai-as-promised's `.eventually`, a
    /// Playwright web-first matcher) written as
    /// a statement of its own, neither awaited nor returned: it cannot fail the test.
    fn floating_promise_check(&self, check: &Check, key: &str) -> bool {
        let promise = key.contains(".resolves.")
            || key.contains(".rejects.")
            || key.contains(".eventually.") // (chai-as-promised)
            || key.starts_with("assert.rejects(")
            || key.starts_with("assert.doesNotReject(")
            || key.starts_with("expect.poll(")
            || (PLAYWRIGHT_ASYNC.iter().any(|m| key.contains(m))
                && memchr::memmem::find(self.src.raw, b"@playwright/test").is_some());
        if self.supertest_unwaited(check, key) {
            return true;
        }
        // (`assert.rejects(…).then(done).catch(done)`, chai-as-promised's
        // `.notify(done)`: handed to the runner's callback.
        // Bytes: a check cut at its length limit may end inside a character.)
        let after = self.src.b()[check.span.end.min(self.src.b().len())..].trim_ascii_start();
        let handed_on = [".then(", ".catch(", ".finally(", ".notify("]
            .iter()
            .any(|c| key.contains(c) || after.starts_with(c.trim_end_matches('(').as_bytes()));
        if !promise || handed_on {
            return self.in_floating_wait_for(check);
        }
        let line_start = self.src.line_start(check.line);
        let from = check.receiver.min(check.span.start).max(line_start);
        let before = self.src.code[line_start..from].trim();
        // (`await`, `return`, an arrow's body, an argument: waited for, or handed on to
        // something that may wait. `void p` says nobody will. A value bound to a name
        // is waited for only if the test names it again.)
        if let Some(name) = bound_name(before) {
            let end = self
                .unit_at(check.span.start)
                .map_or(self.src.code.len(), |u| self.units[u].span.end);
            let rest = &self.src.code[check.span.end.min(end)..end];
            return !checks::mentions(rest, name);
        }
        before.is_empty() || before.ends_with(';') || before.ends_with('{') || before == "void"
    }

    /// Whether a check is a supertest expectation (`request(app).get(u).expect(404)`)
    /// of a statement that neither returns, awaits nor keeps the chain, nor ends it in
    /// `.end(…)`: a promise nobody waits for, so the test is over before it runs.
    fn supertest_unwaited(&self, check: &Check, key: &str) -> bool {
        if !key.starts_with("expect(") {
            return false;
        }
        let code = &self.src.code;
        let b = code.as_bytes();
        // (The statement's start: back past the chain to a `;` or an open brace.)
        let (mut depth, mut at) = (0i32, check.span.start.min(b.len()));
        while at > 0 {
            at -= 1;
            match b[at] {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' if depth == 0 => break,
                b'(' | b'[' | b'{' => depth -= 1,
                b';' if depth == 0 => break,
                _ => {}
            }
        }
        // (A test that takes a callback, mocha's `function (done)`, ends when it is
        // called, whatever it was handed to: `after(2, done)`.)
        static CALLBACK: OnceLock<regex::bytes::Regex> = OnceLock::new();
        let callback = CALLBACK.get_or_init(|| {
            regex::bytes::Regex::new(r"function[ \t]*\w*[ \t]*\([ \t]*[A-Za-z_$][\w$]*[ \t]*\)|\([ \t]*[A-Za-z_$][\w$]*[ \t]*\)[ \t]*=>|[,(][ \t]*[A-Za-z_$][\w$]*[ \t]*=>")
                .expect("callback pattern")
        });
        if let Some(u) = self.unit_at(check.span.start)
            && callback.is_match(self.src.line_text(self.units[u].line).as_bytes())
        {
            return false;
        }
        let statement = code[at + 1..check.span.start].trim_start();
        let rest = &code[check.span.end.min(code.len())..];
        let end = rest.find(';').unwrap_or(rest.len());
        ["request(", "supertest(", "request.agent("]
            .iter()
            .any(|r| statement.starts_with(r))
            && ![".end(", ".then(", "done"]
                .iter()
                .any(|w| statement.contains(w) || key.contains(w) || rest[..end].contains(w))
    }

    /// Whether a JavaScript check's promise is caught by a handler that does nothing
    /// with the failure: `await expect(alert).toHaveText(…).catch(() => {})`,
    /// `.catch(console.warn)`, `.catch(noop)`. Awaited or not, it cannot fail the test.
    fn promise_failure_caught(&self, check: &Check, key: &str) -> bool {
        let code = &self.src.code;
        let end = check.span.end.min(code.len());
        let after = code[end..].trim_start();
        let in_key = key.find(".catch(").map(|i| &key[i..]);
        let handler = match in_key {
            Some(tail) => checks::squeeze(tail),
            None if after.starts_with(".catch") => {
                let open = end + (code[end..].len() - after.len()) + ".catch".len();
                let open = open + (code[open..].len() - code[open..].trim_start().len());
                if code.as_bytes().get(open) != Some(&b'(') {
                    return false;
                }
                checks::squeeze(&code[open..self.src.close_of(open).min(code.len())])
            }
            None => return false,
        };
        !["throw", "expect", "assert", "done", "fail", "reject"]
            .iter()
            .any(|w| handler.contains(w))
    }

    /// A condition written as a callback or an operator, under which a check runs only
    /// when a value is there: Java's `opt.ifPresent(x -> { … })`, Kotlin's `v?.let { …
    /// }`, JavaScript's `month && expect(month.revenue)…`, Rust's `let Ok(doc) = parse(s)
    /// else { continue; };` before the checks of a loop. Said as the condition.
    fn callback_guard(&self, unit: &Unit, check: &Check) -> Option<String> {
        let code = &self.src.code;
        let at = check.receiver.min(check.span.start);
        let from = unit.span.start.min(at);
        let window = &code[from..at];
        match self.language {
            Language::JavaScript => {
                let line_start = self.src.line_start(check.line).max(from);
                let lead = code[line_start..at].trim();
                let value = lead.strip_suffix("&&")?.trim();
                (!value.is_empty()).then(|| format!("{value} is set"))
            }
            Language::Java => [
                "?.let",
                "?.also",
                "?.run",
                "?.apply",
                ".ifPresent(",
                ".onSuccess",
                ".onFailure",
            ]
            .iter()
            .flat_map(|w| window.match_indices(w).map(|(i, _)| i))
            .find_map(|i| {
                let open = from + i + code[from + i..at].find(['{', '('])?;
                (self.src.close_of(open) > at).then(|| {
                    let line_start = self.src.line_start(self.src.line_of(from + i));
                    let value = checks::squeeze(&self.src.text(line_start..from + i));
                    format!("{value} is there")
                })
            }),
            Language::Rust => window.match_indices(" else {").find_map(|(i, _)| {
                let open = from + i + " else ".len();
                let close = self.src.close_of(open);
                let block = &code[open..close.min(code.len())];
                let line_start = self.src.line_start(self.src.line_of(from + i));
                let head = code[line_start..from + i].trim();
                // (A `return` there is a skip of the test: `find_early_returns`.)
                let skips = block.contains("continue") || block.contains("break");
                // (The checks after it, in the block that holds it.)
                let holds = self
                    .src
                    .enclosing_brace(from + i)
                    .is_some_and(|b| self.src.close_of(b) > at);
                (head.starts_with("let ") && skips && close <= at && holds).then(|| {
                    let head = checks::squeeze(&self.src.text(line_start..from + i));
                    format!("{} matches", head.trim_start_matches("let "))
                })
            }),
            _ => None,
        }
    }

    /// `key` with each name bound once, before `pos`, to a number literal (`const tol =
    /// 2.0`, `tol := 2.0`, `TOL = 0.5`, `val tol = 2.0`) replaced by that literal; `None`
    /// when no name of the key is so bound.
    fn numbers_named_in(&self, key: &str, pos: usize) -> Option<String> {
        let code = &self.src.code[..pos.min(self.src.code.len())];
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = key.to_string();
        let mut changed = false;
        let mut seen = HashSet::new();
        // (Each name of the key once: words that start with a letter.)
        for name in key.split(|c: char| !word(c)) {
            if name.len() < 2
                || !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                || !seen.insert(name)
            {
                continue;
            }
            let mut value = None;
            let mut bound = 0;
            for (i, _) in code.match_indices(name) {
                if code[..i].ends_with(word) || code[i + name.len()..].starts_with(word) {
                    continue;
                }
                let rest = code[i + name.len()..].trim_start_matches([' ', '\t']);
                let Some(rhs) = rest
                    .strip_prefix(":=")
                    .or_else(|| rest.strip_prefix('=').filter(|r| !r.starts_with('=')))
                else {
                    continue;
                };
                bound += 1;
                let rhs = rhs.trim_start_matches([' ', '\t']);
                let end = rhs
                    .find(|c: char| {
                        !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '_'))
                    })
                    .unwrap_or(rhs.len());
                let literal = &rhs[..end];
                let tail = rhs[end..].trim_start_matches(['f', 'd', 'F', 'D', 'm', 'M']);
                let ends = tail.trim_start_matches([' ', '\t']);
                value = (literal.starts_with(|c: char| c.is_ascii_digit())
                    && (ends.is_empty() || ends.starts_with(['\n', ';', '/', '#'])))
                .then(|| literal.to_string());
            }
            if bound == 1
                && let Some(v) = value
            {
                out = checks::replace_word(&out, name, &v);
                changed = true;
            }
        }
        changed.then_some(out)
    }

    /// Whether a C# check that returns a task is neither awaited nor handed on: xUnit's
    /// `Assert.ThrowsAsync<E>(…)`, FluentAssertions' `act.Should().ThrowAsync<E>()` as a
    /// statement (or `_ = …`). The task is dropped, and with it the failure.
    fn unawaited_async_check(&self, check: &Check, key: &str) -> bool {
        let xunit = || memchr::memmem::find(self.src.b(), b"using Xunit").is_some();
        let task = (key.starts_with("Assert.ThrowsAsync")
            || key.starts_with("Assert.ThrowsAnyAsync"))
            && xunit()
            || [
                ".Should().ThrowAsync",
                ".Should().ThrowExactlyAsync",
                ".Should().NotThrowAsync",
                ".Should().CompleteWithinAsync",
                ".Should().NotThrowAfterAsync",
                "Should.ThrowAsync",
                "Should.NotThrowAsync",
                ".ShouldThrowAsync",
                ".ShouldNotThrowAsync",
            ]
            .iter()
            .any(|m| key.contains(m));
        if !task {
            return false;
        }
        let line_start = self.src.line_start(check.line);
        let from = check.receiver.min(check.span.start).max(line_start);
        let before = self.src.code[line_start..from].trim();
        before.is_empty()
            || before.ends_with(';')
            || before.ends_with('{')
            || before == "_ ="
            || before == "_="
    }

    /// Whether a check sits in work started and left running: C#'s `_ = Task.Run(…)` (or
    /// the call as a statement, not awaited), Kotlin's `GlobalScope.launch { … }` or
    /// `CoroutineScope(…).launch { … }` not joined, JavaScript's `xs.forEach(async (x) =>
    /// { … })` or `xs.map(async …)` left standing, Rust's `tokio::spawn`/`thread::spawn`
    /// whose handle nobody waits for (or whose panic is dropped), Java's
    /// `future.thenAccept(…)` not joined. Its failure comes after the test has passed,
    /// or never.
    fn in_detached_task(&self, check: &Check) -> bool {
        let starts: &[&str] = match self.language {
            Language::CSharp => &["Task.Run(", "Task.Factory.StartNew("],
            Language::Java => &[
                "GlobalScope.launch",
                "GlobalScope.async",
                "backgroundScope.launch",
                "backgroundScope.async",
                "MainScope().launch",
                ").launch",
                ".thenAccept(",
                ".thenAcceptAsync(",
                ".whenComplete(",
            ],
            Language::JavaScript => &[".forEach(async", ".map(async"],
            Language::Rust => &["tokio::spawn(", "thread::spawn(", "task::spawn("],
            Language::Ruby => return self.in_unjoined_ruby_thread(check),
            _ => return false,
        };
        let detaches = self.detaches.get_or_init(|| {
            starts.iter().any(|s| {
                let s = s.trim_start_matches(')');
                memchr::memmem::find(self.src.b(), s.as_bytes()).is_some()
            })
        });
        if !detaches {
            return false;
        }
        let Some(unit) = self.unit_at(check.span.start) else {
            return false;
        };
        let from = self.units[unit].span.start;
        let unit_end = self.units[unit].span.end.min(self.src.code.len());
        let code = &self.src.code;
        let window = &code[from..check.span.start];
        starts.iter().any(|start| {
            window.match_indices(start).any(|(i, _)| {
                let at = from + i;
                // (`).launch`: only on a scope made there, `CoroutineScope(Dispatchers.IO)`.)
                if *start == ").launch" {
                    let line_start = self.src.line_start(self.src.line_of(at));
                    if !code[line_start..at]
                        .trim_start()
                        .starts_with("CoroutineScope(")
                    {
                        return false;
                    }
                }
                // Its block or argument list, which must hold the check.
                let search = if start.ends_with('(') {
                    at + start.len() - 1
                } else {
                    at + start.len()
                };
                let Some(open) = code[search..check.span.start]
                    .find(['(', '{'])
                    .map(|o| search + o)
                else {
                    return false;
                };
                let open = if start.ends_with("(async") {
                    at + start.len() - "async".len() - 1
                } else {
                    open
                };
                if self.src.close_of(open) <= check.span.start {
                    return false;
                }
                // The statement it starts: discarded (`_ = `), or standing alone; not
                // awaited, assigned, returned or joined.
                let line_start = self.src.line_start(self.src.line_of(at));
                let lead = code[line_start..at].trim();
                let end = self.src.close_of(open).min(code.len());
                let after = code[end..].trim_start();
                let joined = after.starts_with(".join")
                    || after.starts_with(".Wait")
                    || after.starts_with(".await")
                    || after.starts_with(".get(");
                if self.language == Language::Rust {
                    return !joined && self.handle_dropped(lead, &code[end..unit_end]);
                }
                // (`await xs.forEach(async …)` waits for nothing either; `await
                // Promise.all(xs.map(async …))` and `const ps = xs.map(…)` do, or may.)
                let chained = start.starts_with('.');
                let discarded = if *start == ").launch" {
                    true
                } else if *start == ".map(async"
                    || start.starts_with(".then")
                    || *start == ".whenComplete("
                {
                    lead.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$'))
                } else {
                    chained || lead.is_empty() || lead == "_ =" || lead == "_="
                };
                discarded && !joined
            })
        })
    }

    /// Whether a Ruby check sits in a `Thread.new do … end` (or `{ … }`) that its test
    /// never joins: as a statement of its own with no `.join`/`.value` after it, or
    /// bound to a name (`t = Thread.new`, `threads << Thread.new`) the rest of the test
    /// never joins. The example ends before the thread's expectation fails.
    fn in_unjoined_ruby_thread(&self, check: &Check) -> bool {
        // (Read once per file: most spec files start no thread.)
        if !self
            .detaches
            .get_or_init(|| memchr::memmem::find(self.src.b(), b"Thread.new").is_some())
        {
            return false;
        }
        let Some(unit) = self.unit_at(check.span.start) else {
            return false;
        };
        let from = self.units[unit].span.start;
        let unit_end = self.units[unit].span.end.min(self.src.code.len());
        let code = &self.src.code;
        code[from..check.span.start]
            .match_indices("Thread.new")
            .any(|(i, _)| {
                let at = from + i;
                let line = self.src.line_of(at);
                let text = self.src.line_text(line);
                let block = if let Some(open) = code[at..self.src.line_end(line)].find('{') {
                    at + open..self.src.close_of(at + open)
                } else if text.trim_end().ends_with(" do") || text.contains(" do |") {
                    self.src.indent_block(line)
                } else {
                    return false;
                };
                if !(block.start < check.span.start && check.span.end <= block.end) {
                    return false;
                }
                let lead = code[self.src.line_start(line)..at].trim();
                let after = code[block.end.min(unit_end)..unit_end].trim_start();
                let waited = |s: &str| s.starts_with(".join") || s.starts_with(".value");
                if lead.is_empty() {
                    return !waited(after);
                }
                // (Bound: `t = Thread.new`, `threads << Thread.new`, `threads.push(…)`.)
                let name = lead
                    .trim_end_matches('=')
                    .trim_end_matches("<<")
                    .trim_end_matches(".push(")
                    .trim();
                if name.is_empty()
                    || !name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'@')
                {
                    return false;
                }
                let rest = &code[block.end.min(unit_end)..unit_end];
                !(rest.contains(&format!("{name}.join"))
                    || rest.contains(&format!("{name}.value"))
                    || (rest.contains(&format!("{name}.each"))
                        || rest.contains(&format!("{name}.map")))
                        && (rest.contains("(&:join)") || rest.contains("(&:value)")))
            })
    }

    /// Whether a Rust task or thread handle, bound by `lead` (`let reader =`, `let _ =`,
    /// or nothing), is dropped unwaited in the rest of its test, or waited with its panic
    /// thrown away (`let _ = h.join();`).
    fn handle_dropped(&self, lead: &str, rest: &str) -> bool {
        let name = lead
            .strip_prefix("let ")
            .map(|l| l.trim_start_matches("mut ").trim_end_matches('=').trim());
        // (Gathered, `handles.push(thread::spawn(…))`: each joined, its panic kept
        // (`h.join().unwrap()`), or not.)
        if lead.ends_with(".push(") {
            let joins: Vec<&str> = rest
                .match_indices(".join()")
                .chain(rest.match_indices(".await"))
                .map(|(at, m)| rest[at + m.len()..].trim_start())
                .collect();
            return joins.iter().all(|after| !after.starts_with(['.', '?']));
        }
        let Some(name) = name.filter(|n| !n.is_empty() && *n != "_") else {
            return lead.is_empty() || lead.starts_with("let _");
        };
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return false;
        }
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let uses: Vec<&str> = rest
            .match_indices(name)
            .filter(|(at, _)| {
                !rest[..*at].ends_with(word) && !rest[at + name.len()..].starts_with(word)
            })
            .map(|(at, _)| {
                // (The statement it is used in.)
                let from = rest[..at].rfind([';', '{', '}', '\n']).map_or(0, |i| i + 1);
                let to = rest[at..].find([';', '\n']).map_or(rest.len(), |i| at + i);
                rest[from..to].trim()
            })
            .collect();
        uses.iter().all(|u| {
            u.starts_with("drop(")
                || u.starts_with("let _")
                || u.contains(".abort()")
                || (u.contains(".join()") && !u.contains(".join().") && !u.contains(".join()?"))
        })
    }

    /// Whether a check sits in the callback of a Testing Library `waitFor(…)` that is
    /// neither awaited nor returned: it retries after the test has ended.
    fn in_floating_wait_for(&self, check: &Check) -> bool {
        // (Looked for in the check's own unit only: a file has many checks.)
        let Some(unit) = self.unit_at(check.span.start) else {
            return false;
        };
        let from = self.units[unit].span.start;
        let code = &self.src.code[..check.span.start];
        let window = &code[from..];
        if !window.contains("waitFor(") && !window.contains(".then(") {
            return false;
        }
        let code = &self.src.code;
        let floating = |at: usize| {
            let before = code[self.src.line_start(self.src.line_of(at))..at].trim();
            before.is_empty() || before.ends_with(';') || before.ends_with('{')
        };
        let inside = |at: usize, name: &str| self.src.close_of(at + name.len()) > check.span.start;
        if let Some(at) = code[from..check.span.start]
            .rfind("waitFor(")
            .map(|i| from + i)
            && inside(at, "waitFor")
        {
            return floating(at);
        }
        // A promise chain's `.then((res) => { expect(…) })` (supertest's
        // `request(app).get(…).then(…)`) neither returned nor awaited nor handed a
        // `done`: mocha and jest end the test before it runs.
        let Some(then) = code[from..check.span.start]
            .rfind(".then(")
            .map(|i| from + i)
        else {
            return false;
        };
        if !inside(then, ".then") {
            return false;
        }
        // (The chain's first line: back over lines that continue it, `.get(…)`.)
        let mut line = self.src.line_of(then);
        while line > 0 && self.src.line_text(line).trim_start().starts_with('.') {
            line -= 1;
        }
        let first = self.src.line_text(line).trim_start();
        let start = self.src.line_start(line) + (self.src.line_text(line).len() - first.len());
        let chain = &code[start..self.src.close_of(then + ".then".len()).min(code.len())];
        first.starts_with(|c: char| c.is_ascii_alphabetic())
            && !["return", "await", "const ", "let ", "var ", "yield"]
                .iter()
                .any(|w| first.starts_with(w))
            && !first.contains(" = ")
            && !chain.contains("done")
            // (A statement of its own: not an arrow's expression body, `() =>` before
            // it, which returns it.)
            && code[..start].trim_end().ends_with(['{', ';', '}'])
            && floating(start)
    }

    /// The condition of the `if` whose block holds `pos` (Go's `if got != want {`).
    fn go_condition(&self, pos: usize) -> String {
        let Some(open) = self.src.enclosing_brace(pos) else {
            return String::new();
        };
        let line = self.src.line_of(open);
        let header = self.src.text(self.src.line_start(line)..open);
        let header = header.trim();
        let Some(cond) = header
            .strip_prefix("if ")
            .or_else(|| header.strip_prefix("} else if "))
        else {
            return checks::squeeze(header);
        };
        checks::inline_value(&checks::squeeze(cond))
    }

    /// The local names `unit` assigns once, with their values ([`checks::aliases`]).
    pub fn aliases_in(&self, unit: &Unit) -> &HashMap<String, String> {
        match self.units.iter().position(|u| std::ptr::eq(u, unit)) {
            Some(i) => self.aliases_of(i),
            None => {
                static NONE: OnceLock<HashMap<String, String>> = OnceLock::new();
                NONE.get_or_init(HashMap::new)
            }
        }
    }

    /// [`Model::aliases_in`] the unit of that index, read once.
    fn aliases_of(&self, unit: usize) -> &HashMap<String, String> {
        self.aliases[unit]
            .get_or_init(|| checks::aliases(&self.src.text(self.units[unit].span.clone())))
    }

    /// A check's canonical text with its whole receiver (`params["a"].must_equal 1`,
    /// where the key has `a` alone … see [`Check::receiver`]): what it is about.
    pub fn full_key(&self, index: usize, key: &str, rules: &Rules) -> String {
        let check = &self.checks[index];
        if check.receiver >= check.span.start {
            return key.to_string();
        }
        let full = checks::canonical(&self.src.text(check.receiver..check.span.end), rules);
        // (A check nobody waits for is marked so with its receiver too.)
        match key.strip_prefix(NOT_AWAITED) {
            Some(_) => format!("{NOT_AWAITED} {full}"),
            None => full,
        }
    }

    /// The function a check calls, when the check is a plain call (`assertValid(x)`).
    pub fn check_callee(&self, index: usize) -> Option<&str> {
        if self.checks[index].kind != CheckKind::Call {
            return None; // a comment: the statement must fail to compile, the output match
        }
        let span = &self.checks[index].span;
        let text = self.src.code[span.clone()].trim_start();
        // `helper(…)`, `helper (…)`, or Ruby's paren-less `assert_helper a, b` / `assert_helper`.
        let end = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        let name = &text[..end];
        let next = text[end..].chars().next();
        // (Kotlin's extension helper: `cart.shouldHaveTotals(0, 299)` after `fun
        // Cart.shouldHaveTotals(…)`.)
        if self.language == Language::Java
            && next == Some('.')
            && let Some(extension) = self.extension_helper_call(text)
        {
            return Some(extension);
        }
        (!name.is_empty() && next.is_none_or(|c| c == '(' || c.is_whitespace())).then_some(name)
    }

    /// The name of a Kotlin extension helper of this file that a check's text calls on
    /// its receiver (`x.y.shouldHaveTotals(…)`, the whole check).
    fn extension_helper_call<'t>(&self, text: &'t str) -> Option<&'t str> {
        let open = text.find('(')?;
        let (receiver, name) = text[..open].rsplit_once('.')?;
        let plain = |s: &str| {
            s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        };
        let whole =
            super::source::matching_close(text.as_bytes(), open) == Some(text.trim_end().len() - 1);
        (plain(receiver)
            && plain(name)
            && whole
            && self
                .units
                .iter()
                .any(|u| u.role == Role::Helper && u.leaf == name))
        .then_some(name)
    }

    /// [`Model::check_callee`] when the call is the whole check, not the start of a
    /// chain (`assertThat(x).isEqualTo(y)` with a local `assertThat` making the
    /// subject: the check is the chain's end, not the helper).
    pub fn check_helper_call(&self, index: usize) -> Option<&str> {
        let name = self.check_callee(index)?;
        let span = &self.checks[index].span;
        // (The name opens the check's text; Ruby's paren-less `assert_helper a, b` is
        // no chain.)
        let text = self.src.code[span.clone()].trim_start();
        let at = if text.starts_with(name) {
            0
        } else {
            text.find(&format!(".{name}("))? + 1
        };
        let open = span.end - text.len() + at + name.len();
        if self.src.code.as_bytes().get(open) != Some(&b'(') {
            return Some(name);
        }
        let chained = self
            .src
            .code
            .get(self.src.close_of(open)..span.end)
            .is_some_and(|rest| rest.trim_start().starts_with('.'));
        (!chained).then_some(name)
    }

    /// The helper a call of `name` in `unit` reaches: one defined inside `unit` first
    /// (a function local to the test), else one not local to another unit (a function
    /// nested in another test is out of scope, however it is named: chrono's tests each
    /// define their own `fn check`).
    pub fn helper_for(&self, unit: &Unit, name: &str) -> Option<&Unit> {
        if self.nested_helpers.is_empty() {
            return self
                .units
                .iter()
                .find(|h| h.role == Role::Helper && h.leaf == name && h.span != unit.span);
        }
        let mut visible = None;
        for (i, h) in self.units.iter().enumerate() {
            if h.role != Role::Helper || h.leaf != name || h.span == unit.span {
                continue;
            }
            if within(&h.span, &unit.span) {
                return Some(h);
            }
            let local_elsewhere = self.nested_helpers.contains(&i)
                && self
                    .units
                    .iter()
                    .any(|u| within(&h.span, &u.span) && !within(&unit.span, &u.span));
            if visible.is_none() && !local_elsewhere {
                visible = Some(h);
            }
        }
        visible
    }

    /// The checks of a unit; for a function local to a test, the test's checks within
    /// it (a check belongs to the test it sits in: tests own what their bodies hold).
    pub fn checks_of<'s>(&'s self, unit: &'s Unit) -> std::borrow::Cow<'s, [usize]> {
        if unit.role != Role::Helper || !unit.checks.is_empty() {
            return std::borrow::Cow::Borrowed(&unit.checks);
        }
        match self.unit_at(unit.span.start) {
            Some(t) if self.units[t].role == Role::Test => std::borrow::Cow::Owned(
                self.units[t]
                    .checks
                    .iter()
                    .copied()
                    .filter(|&c| unit.span.contains(&self.checks[c].span.start))
                    .collect(),
            ),
            _ => std::borrow::Cow::Owned(Vec::new()),
        }
    }

    /// Whether `pos` lies in a helper defined inside `unit` (its checks count through
    /// the calls of that helper, once per call, not as the unit's own).
    pub fn in_local_helper(&self, unit: &Unit, pos: usize) -> bool {
        self.nested_helpers
            .iter()
            .map(|&h| &self.units[h])
            .any(|h| within(&h.span, &unit.span) && h.span.contains(&pos))
    }

    /// Whether `unit` calls `name` itself, not only from a function local to it.
    pub fn calls_directly(&self, unit: &Unit, name: &str) -> bool {
        self.all_calls(unit)
            .into_iter()
            .any(|(n, at)| n == name && !self.in_local_helper(unit, at))
    }

    /// How many different calls `unit` makes itself of the functions local to it that
    /// call `name` (`ParameterIs(n, v) => Parameter(n, …)` called four ways: four).
    pub fn calls_through_local(&self, unit: &Unit, name: &str) -> usize {
        let locals: Vec<&Unit> = self
            .nested_helpers
            .iter()
            .map(|&h| &self.units[h])
            .filter(|h| within(&h.span, &unit.span))
            .collect();
        let local = |at: usize| locals.iter().find(|h| h.span.contains(&at));
        let calls = self.all_calls(unit);
        let wrappers: HashSet<&str> = calls
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|&(_, at)| local(at).map(|h| h.leaf.as_str()))
            .filter(|&w| w != name)
            .collect();
        wrappers
            .into_iter()
            .map(|w| {
                calls
                    .iter()
                    .filter(|&&(n, at)| n == w && local(at).is_none())
                    .map(|&(_, at)| {
                        let end = extent(self.src.b(), at, at + w.len(), self.language);
                        checks::squeeze(&self.src.text(at..end.max(at)))
                    })
                    .collect::<HashSet<_>>()
                    .len()
            })
            .sum()
    }

    /// Names called in a unit (`name(`) outside the checks in it, for following checks
    /// into helpers. (Any check in its span: a function nested in a helper has none of
    /// its own, and the `assert (…)` or `AssertionError(…)` of a check is no helper.)
    pub fn calls(&self, unit: &Unit) -> Vec<&str> {
        let mut out = self.all_calls(unit);
        let from = self
            .checks
            .partition_point(|c| c.span.start < unit.span.start);
        let to = self
            .checks
            .partition_point(|c| c.span.start < unit.span.end);
        let checks = &self.checks[from..to.max(from)];
        out.retain(|&(_, at)| {
            !checks
                .iter()
                .any(|c| (c.receiver.min(c.span.start)..c.span.end).contains(&at))
                && !self.groups.iter().any(|g| g.contains(&at))
        });
        let mut names: Vec<&str> = out.into_iter().map(|(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Each call of `name` in a unit, as squeezed text (`assertNoErr(t,c.Execute())`),
    /// made as a helper call: unqualified, or on `self`/`this`/`super`. (A method of
    /// another object, `validator.Validate(…)`, is the code under test.)
    pub fn call_texts(&self, unit: &Unit, name: &str) -> Vec<String> {
        self.call_sites(unit, name)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    }

    /// [`Model::call_texts`] with the line of each call.
    pub fn call_sites(&self, unit: &Unit, name: &str) -> Vec<(String, usize)> {
        let code = self.src.code.as_str();
        let helper_call = |at: usize| -> bool {
            let Some(receiver) = code[..at].trim_end_matches(' ').strip_suffix('.') else {
                return true;
            };
            matches!(
                &receiver[checks::trailing_word_start(receiver)..],
                "self" | "this" | "super" | "cls" | "s" | "suite"
            )
        };
        self.all_calls(unit)
            .into_iter()
            .filter(|&(n, at)| n == name && helper_call(at))
            .map(|(_, at)| {
                let end = extent(self.src.b(), at, at + name.len(), self.language);
                (
                    checks::squeeze(&self.src.text(at..end.max(at))),
                    self.src.line_of(at),
                )
            })
            .collect()
    }

    /// Whether `unit` calls the async helper `helper` (named `name`) only as statements
    /// that nobody awaits, returns or chains on (`verifyReceipt(id, …)` for `await
    /// verifyReceipt(id, …)`, `void check()`; Python's `check_receipt(…)` for `await
    /// check_receipt(…)`, whose coroutine never even runs). Its checks settle after
    /// the test has passed, or never run.
    pub(super) fn async_helper_unawaited(&self, unit: &Unit, name: &str, helper: &Unit) -> bool {
        let code = self.src.code.as_str();
        let head = self.src.line_text(helper.line);
        let is_async = match self.language {
            Language::JavaScript => {
                head.contains("async function")
                    || head.contains("= async")
                    || head.contains(&format!("async {name}("))
            }
            Language::Python => head.trim_start().starts_with("async def"),
            _ => false,
        };
        if !is_async {
            return false;
        }
        let calls: Vec<usize> = self
            .all_calls(unit)
            .into_iter()
            .filter(|&(n, at)| n == name && !(helper.span.start..helper.span.end).contains(&at))
            .map(|(_, at)| at)
            .collect();
        !calls.is_empty()
            && calls.iter().all(|&at| {
                let line_start = self.src.line_start(self.src.line_of(at));
                let lead = code[line_start..at].trim();
                let lead = lead
                    .strip_suffix("this.")
                    .or_else(|| lead.strip_suffix("self."))
                    .unwrap_or(lead)
                    .trim_end();
                let end = extent(self.src.b(), at, at + name.len(), self.language);
                let after = code[end.min(code.len())..].trim_start();
                (lead.is_empty() || lead == "void" || lead.ends_with(';') || lead.ends_with('{'))
                    && !after.starts_with('.')
            })
    }

    /// The word (identifier) starting at `pos`.
    pub(super) fn word_at(&self, pos: usize) -> &str {
        let rest = &self.src.code[pos..];
        &rest[..ident_len(rest)]
    }

    /// Where the type arguments ending just before `end` open (`[Todo]` in Go, `<Todo>`
    /// elsewhere), when they follow a name: `None` for an index (`xs[0]`) or anything
    /// else.
    fn type_arguments_before(&self, floor: usize, end: usize) -> Option<usize> {
        let b = self.src.b();
        let close = end.checked_sub(1).filter(|&c| c > floor)?;
        let open = match (self.language, b[close]) {
            (Language::Go, b']') => matching_open(b, close)?,
            (Language::Rust | Language::Java | Language::CSharp, b'>') => {
                let from = close.saturating_sub(80).max(floor);
                let mut depth = 0usize;
                (from..close).rev().find(|&i| match b[i] {
                    b'>' => {
                        depth += 1;
                        false
                    }
                    b'<' if depth == 0 => true,
                    b'<' => {
                        depth -= 1;
                        false
                    }
                    _ => false,
                })?
            }
            _ => return None,
        };
        let inner = &b[open + 1..close];
        let typeish = !inner.is_empty()
            && inner.iter().all(|&c| {
                c.is_ascii_alphanumeric()
                    || matches!(
                        c,
                        b'_' | b'.'
                            | b','
                            | b' '
                            | b'['
                            | b']'
                            | b'<'
                            | b'>'
                            | b'*'
                            | b'?'
                            | b':'
                            | b'&'
                    )
            })
            && inner
                .first()
                .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'[' | b'*' | b'&'));
        let named = open > floor
            && (b[open - 1].is_ascii_alphanumeric()
                || b[open - 1] == b'_'
                || b[..open].ends_with(b"::"));
        (typeish && named).then_some(open)
    }

    pub(super) fn all_calls(&self, unit: &Unit) -> Vec<(&str, usize)> {
        let b = self.src.b();
        let mut out = Vec::new();
        let span = unit.span.clone();
        let mut i = span.start;
        while i < span.end {
            if b[i] == b'(' {
                let mut j = i;
                while j > span.start && b[j - 1] == b' ' {
                    j -= 1;
                }
                let mut end = j;
                // A generic function called with its type arguments: Go's
                // `decodeAs[Todo](…)`, Rust's `parse::<Todo>(…)`, `Read<Todo>(…)`.
                if let Some(open) = self.type_arguments_before(span.start, end) {
                    j = open;
                    if self.language == Language::Rust && b[..j].ends_with(b"::") {
                        j -= 2;
                    }
                    end = j;
                }
                while j > span.start && (b[j - 1].is_ascii_alphanumeric() || b[j - 1] == b'_') {
                    j -= 1;
                }
                if j < end {
                    out.push((&self.src.code[j..end], j));
                }
            } else if self.language == Language::Ruby
                && (b[i].is_ascii_alphabetic() || b[i] == b'_')
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            {
                // Ruby calls need no parentheses.
                let mut j = i;
                while j < span.end && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                // (Not a keyword argument's label, `f(verify: false)`, nor a symbol.)
                let label = b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':');
                let symbol = i > 0 && b[i - 1] == b':' && (i < 2 || b[i - 2] != b':');
                if !label && !symbol {
                    out.push((&self.src.code[i..j], i));
                }
                i = j;
                continue;
            }
            i += 1;
        }
        out
    }
}

/// Whether the span `inner` lies inside `outer` and is not `outer` itself.
pub(super) fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end && inner != outer
}

/// The helpers among `units` (sorted by start) whose span lies inside another unit's.
fn nested_helpers(units: &[Unit]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut open: Vec<Range<usize>> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        while open.last().is_some_and(|o| o.end <= u.span.start) {
            open.pop();
        }
        if u.role == Role::Helper && open.last().is_some_and(|o| u.span.end <= o.end) {
            out.push(i);
        }
        open.push(u.span.clone());
    }
    out
}

/// Where the receiver of a method check at `dot` starts: back over a chain of names,
/// `.`, `::` and bracketed calls or indexes (`A::B.read(env)["x"]`), not before `floor`.
/// A check's text read in the scope of `receiver`: `total() shouldBe 0` in
/// `assertSoftly(cart) { … }` is `cart.total() shouldBe 0`, as `this.total()` is.
fn with_receiver(text: &str, receiver: &str) -> String {
    let text = text.strip_prefix("this.").unwrap_or(text);
    let word = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(text, |end| &text[..end]);
    let member = word.starts_with(|c: char| c.is_ascii_lowercase())
        && text[word.len()..].starts_with(['(', '.', ' '])
        && word != receiver
        && word != "it";
    if member {
        format!("{receiver}.{text}")
    } else {
        text.to_string()
    }
}

fn receiver_start(code: &[u8], dot: usize, floor: usize) -> usize {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut start = dot;
    // Whether `start` sits on a `.` or `::` (a name or a bracket must come before it).
    let mut after_dot = true;
    while start > floor {
        let prev = code[start - 1];
        if prev.is_ascii_whitespace() {
            // A chain continued over lines: `x.\n  y` or `x\n  .y`.
            let mut q = start - 1;
            while q > floor && code[q - 1].is_ascii_whitespace() {
                q -= 1;
            }
            let Some(&before) = (q > floor).then(|| &code[q - 1]) else {
                break;
            };
            if !after_dot && before == b'.' {
                start = q - 1;
            } else if after_dot && (word(before) || matches!(before, b')' | b']')) {
                start = q;
            } else {
                break;
            }
            after_dot = true;
            continue;
        }
        if word(prev) {
            while start > floor && word(code[start - 1]) {
                start -= 1;
            }
        } else if matches!(prev, b')' | b']') {
            match matching_open(code, start - 1) {
                Some(open) if open >= floor => start = open,
                _ => break,
            }
        } else if !after_dot && prev == b'.' {
            start -= 1;
            after_dot = true;
            continue;
        } else if !after_dot && prev == b':' && start >= floor + 2 && code[start - 2] == b':' {
            start -= 2;
            after_dot = true;
            continue;
        } else {
            break;
        }
        after_dot = false;
    }
    // A chain cannot start with a dot (`foo .must_x` is not read as a receiver).
    while start < dot && matches!(code[start], b'.' | b':') {
        start += 1;
    }
    start
}

/// Python: whether `pos` follows a compound statement's head on its line (`if not CI:
/// assert r == 3`, `case "pg": assert …`, `else: assert …`): a statement of its own.
fn after_compound_head(code: &[u8], pos: usize) -> bool {
    let line_start = code[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = String::from_utf8_lossy(code[line_start..pos].trim_ascii());
    before.ends_with(':')
        && [
            "if", "elif", "else", "case", "for", "while", "with", "try", "except", "finally",
        ]
        .iter()
        .any(|w| {
            before
                .strip_prefix(w)
                .is_some_and(|r| r.starts_with([' ', ':', '(']))
        })
}

/// A Ruby receiver that is a block (`lambda do … end.should raise_error(E)`,
/// `proc { … }.should`): from the word that takes the block, so that the block's calls
/// are the check's subject, not calls of their own.
fn ruby_block_receiver(code: &[u8], receiver: usize) -> usize {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let open = if code[receiver..].starts_with(b"end")
        && !code.get(receiver + 3).is_some_and(|&b| word(b))
    {
        // Back to the `do` this `end` closes (blocks and line-start keywords between).
        let mut depth = 1usize;
        let mut i = receiver;
        loop {
            if i == 0 || receiver - i > 4096 {
                return receiver;
            }
            i -= 1;
            if !word(code[i]) || (i > 0 && word(code[i - 1])) {
                continue;
            }
            let len = code[i..].iter().take_while(|&&b| word(b)).count();
            match &code[i..i + len] {
                b"end" => depth += 1,
                b"do" => {
                    depth -= 1;
                    if depth == 0 {
                        break i;
                    }
                }
                b"if" | b"unless" | b"while" | b"until" | b"case" | b"begin" | b"def"
                | b"class" | b"module"
                    if at_line_start(code, i) =>
                {
                    depth -= 1;
                    if depth == 0 {
                        return receiver;
                    }
                }
                _ => {}
            }
        }
    } else if code[receiver] == b'.' && receiver > 0 && code[receiver - 1] == b'}' {
        match matching_open(code, receiver - 1) {
            Some(open) if receiver - open <= 4096 => open,
            _ => return receiver,
        }
    } else {
        return receiver;
    };
    // The word taking the block: `lambda`, `proc`, `expect`, `->`.
    // (The block may hold checks of its own: it reaches back past them.)
    let floor = code[..open]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = code[floor..open].trim_ascii_end();
    let taker = before.len()
        - before
            .iter()
            .rev()
            .take_while(|&&b| word(b) || b == b'-' || b == b'>')
            .count();
    if taker == before.len() {
        open
    } else {
        floor + taker
    }
}

/// Whether the name at `start` is being declared: the word before it is a type or a
/// keyword that declares (`void`, `def`, `fn`, `func`, `fun`, a return type).
fn declares(code: &[u8], start: usize) -> bool {
    let line_start = code[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = code[line_start..start].trim_ascii_end();
    // An arrow's body (`xs.forEach(x => expect(x)…)`, `case "a" -> assertEquals(…)`).
    if before.ends_with(b"=>") || before.ends_with(b"->") {
        return false;
    }
    let word_start = before
        .iter()
        .rposition(|&b| {
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b'>' || b == b'<' || b == b'?')
        })
        .map_or(0, |i| i + 1);
    let word = &before[word_start..];
    if word.is_empty() || before.len() == start - line_start {
        return false; // nothing, or no space: `x.assertFoo`, `(assertFoo`
    }
    !matches!(
        word,
        b"return"
            | b"await"
            | b"yield"
            | b"else"
            | b"not"
            | b"and"
            | b"or"
            | b"in"
            | b"new"
            | b"throw"
            | b"assert"
            | b"do"
            | b"then"
            | b"try"
            | b"unless"
            | b"if"
            | b"go"
            | b"defer"
            | b"with"
            | b"using"
    )
}

/// The length of the identifier at the start of `text`.
fn ident_len(text: &str) -> usize {
    text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len())
}

/// A printed Go value through its text conversions (`strings.TrimSpace(out)` → `out`):
/// the conversion's only argument that is not a literal.
fn converted(mut value: &str) -> &str {
    while let Some(open) = value.find('(')
        && value.ends_with(')')
        && GO_TEXT_CONVERSIONS.contains(&&value[..open])
        && matching_open(value.as_bytes(), value.len() - 1) == Some(open)
    {
        let args = checks::split_top(&value[open + 1..value.len() - 1]);
        let mut values = args.into_iter().filter(|a| !checks::literal(a));
        match (values.next(), values.next()) {
            (Some(inner), None) => value = inner,
            _ => break,
        }
    }
    value
}

/// Whether a Go check only reports a failure (`t.Errorf(…)`, `s.Fail(…)`): what it
/// checks is the condition of the `if` around it. testify's `assert.X`, `require.X`,
/// `s.Require().X` and suite methods (`s.Equal(…)`) check their own arguments.
fn go_reports_failure(text: &str) -> bool {
    let Some((receiver, rest)) = text.split_once('.') else {
        return false;
    };
    // A suite's own `t` (`s.T().Error(…)`) is the test's.
    let (receiver, rest) = match rest.strip_prefix("T().") {
        Some(rest) => ("t", rest),
        None => (receiver, rest),
    };
    let method = rest.split(['(', ' ', '\t']).next().unwrap_or("");
    match receiver {
        "t" | "tb" | "tt" | "b" | "f" | "c" => matches!(
            method,
            "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow"
        ),
        "s" => matches!(method, "Fail" | "FailNow" | "Errorf" | "Fatalf"),
        _ => false,
    }
}

/// `assert.Equal(want, got)` on testify's checker bound to the package's name (`assert
/// := assert.New(t)`) as `assert.Equal(assert, want, got)`, the shape of the package's
/// `assert.Equal(t, want, got)`; a call with a `t` first is the package's, unchanged.
fn go_checker_call(text: String) -> String {
    let Some((object, rest)) = text
        .split_once('(')
        .and_then(|(head, rest)| Some((head.split_once('.')?.0, rest)))
        .filter(|(object, _)| matches!(*object, "assert" | "require"))
    else {
        return text;
    };
    let first = rest.split(',').next().unwrap_or("").trim();
    let t_like = matches!(first, "t" | "tb" | "b" | "tt" | "t)" | "tb)" | "b)")
        || first.ends_with(".T()")
        || first.ends_with(".T())");
    if t_like {
        return text;
    }
    let open = text.len() - rest.len();
    format!("{}{object}, {}", &text[..open], rest)
}

/// Whether a Go file imports an assertion package with a dot (testify's `assert` or
/// `require`, go-playground's `assert`), so its checks are called bare.
fn go_dot_assert_import(code: &[u8]) -> bool {
    if memchr::memmem::find(code, b"assert").is_none() {
        return false; // most files: no assertion package, no regex run
    }
    static DOT: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    DOT.get_or_init(|| {
        regex::bytes::Regex::new(
            r#"(?m)(?:^|\bimport)[ \t]*\.[ \t]+"github\.com/(?:stretchr/testify/(?:assert|require)|go-playground/assert(?:/v\d+)?)""#,
        )
        .ok()
    })
    .as_ref()
    .is_some_and(|dot| dot.is_match(code))
}

/// Names bound to testify's checker by a helper of the file that returns one
/// (`func newCalc(t *testing.T) (*Calc, *assert.Assertions)`, then `c, is :=
/// newCalc(t)`): each is the package's checker under that name, as with `x :=
/// assert.New(t)`.
fn go_checkers_from_helpers(code: &[u8]) -> Vec<(String, &'static str)> {
    if memchr::memmem::find(code, b".Assertions").is_none() {
        return Vec::new(); // most files: no such helper, no regex run
    }
    static HELPER: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    let Some(helper) = HELPER.get_or_init(|| {
        regex::bytes::Regex::new(
            r"(?-u)\bfunc[ \t]+(\w+)[ \t]*\([^)]*\)[ \t]*(\([^)]*\*(?:assert|require)\.Assertions[^)]*\)|\*(?:assert|require)\.Assertions)",
        )
        .ok()
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in helper.captures_iter(code) {
        let results = String::from_utf8_lossy(&c[2]);
        let results = results.trim_start_matches('(').trim_end_matches(')');
        for (index, result) in results.split(',').enumerate() {
            let package = if result.contains("*assert.Assertions") {
                "assert"
            } else if result.contains("*require.Assertions") {
                "require"
            } else {
                continue;
            };
            let Ok(binding) = regex::bytes::Regex::new(&format!(
                r"(?-u)((?:\w+[ \t]*,[ \t]*)*\w+)[ \t]*:?=[ \t]*{}\(",
                regex::escape(&String::from_utf8_lossy(&c[1]))
            )) else {
                continue;
            };
            for b in binding.captures_iter(code) {
                let names = String::from_utf8_lossy(&b[1]).into_owned();
                if let Some(name) = names.split(',').map(str::trim).nth(index)
                    && name != "_"
                {
                    let pair = (name.to_string(), package);
                    if !out.contains(&pair) {
                        out.push(pair);
                    }
                }
            }
        }
    }
    out
}

/// Entries of the largest dict literal of two or more `key: value` entries in `code`.
fn dict_rows(code: &[u8]) -> usize {
    // (entries so far, every entry has a `:`, the current entry has one)
    let mut stack: Vec<(usize, bool, bool, bool)> = Vec::new();
    let mut best = 0;
    for &c in code {
        match c {
            b'{' => stack.push((0, true, false, c == b'{')),
            b'(' | b'[' => stack.push((0, false, false, false)),
            b')' | b']' | b'}' => {
                if let Some((n, all, colon, brace)) = stack.pop() {
                    let n = n + usize::from(colon);
                    if brace && all && n >= 2 {
                        best = best.max(n);
                    }
                }
            }
            b':' => {
                if let Some(top) = stack.last_mut() {
                    top.2 = true;
                }
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.1 &= top.2;
                    top.0 += usize::from(top.2);
                    top.2 = false;
                }
            }
            _ => {}
        }
    }
    best
}

/// The name a JavaScript statement binds its value to: `const assertion =` → `assertion`.
fn bound_name(lead: &str) -> Option<&str> {
    let rest = ["const ", "let ", "var "]
        .iter()
        .find_map(|k| lead.strip_prefix(k))?;
    let name = rest.strip_suffix('=')?.trim();
    (!name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$'))
    .then_some(name)
}

/// Whether the `verify` at `at` is called on a Mockito `InOrder` the file binds
/// (`InOrder order = inOrder(repo, mailer);` … `order.verify(repo).save(x)`): a check.
fn in_order_verifier(code: &[u8], at: usize) -> bool {
    let before = code[..at].trim_ascii_end();
    let Some(receiver) = before.strip_suffix(b".") else {
        return false;
    };
    let name_start = receiver
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .map_or(0, |i| i + 1);
    let name = &receiver[name_start..];
    !name.is_empty()
        && code.windows(b"inOrder(".len()).enumerate().any(|(i, w)| {
            w == b"inOrder("
                && code[..i]
                    .strip_suffix(b"Mockito.")
                    .unwrap_or(&code[..i])
                    .trim_ascii_end()
                    .strip_suffix(b"=")
                    .is_some_and(|lhs| {
                        let lhs = lhs.trim_ascii_end();
                        lhs.ends_with(name)
                            && !lhs[..lhs.len() - name.len()]
                                .last()
                                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(language: Language, text: &str) -> (Vec<(String, Role, usize, usize)>, usize) {
        let rules = Rules::new(language, None);
        let m = Model::new(text.as_bytes(), &rules);
        let units = m
            .units
            .iter()
            .map(|u| (u.name.clone(), u.role, u.line + 1, u.checks.len()))
            .collect();
        (units, m.skips.len())
    }

    #[test]
    fn python_tests_classes_and_helpers() {
        let (units, skips) = model(
            Language::Python,
            "import pytest\n\ndef helper(x):\n    assert x\n\nclass TestA:\n    @pytest.mark.skip\n    def test_one(self):\n        assert 1 == f()\n        helper(2)\n\nclass Plain:\n    def test_no(self):\n        assert 0\n",
        );
        assert_eq!(
            units,
            vec![
                ("helper".into(), Role::Helper, 3, 1),
                ("TestA.test_one".into(), Role::Test, 8, 1),
                ("Plain.test_no".into(), Role::Helper, 13, 1),
            ]
        );
        assert_eq!(skips, 1);
    }

    #[test]
    fn javascript_tests_suites_each_and_wrappers() {
        let (units, _) = model(
            Language::JavaScript,
            "describe('rate', () => {\n  it('is exact', () => {\n    expect(r()).toBe(1);\n  });\n  test.each([[1, 2], [3, 4]])('adds %i', (a, b) => {\n    expect(a).toBe(b);\n  });\n  test.skipIf(isWin)('skips', () => {});\n});\ntestWithSyncEsm('wrapped', () => { expect(1).toBe(1); });\nconst ok = /x/.test(s);\n",
        );
        let names: Vec<&str> = units.iter().map(|u| u.0.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "'rate' > 'is exact'",
                "'rate' > 'adds %i'",
                "'rate' > 'skips'",
                "'wrapped'"
            ]
        );
    }

    #[test]
    fn rust_tests_and_macro_tests() {
        let (units, _) = model(
            Language::Rust,
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {\n        assert_eq!(1, 1);\n    }\n    fn helper() {}\n}\nsherlock!(finds_it, |dir, cmd| {\n    assert_eq!(2, 2);\n});\n",
        );
        assert_eq!(
            units,
            vec![
                ("a".into(), Role::Test, 4, 1),
                ("helper".into(), Role::Helper, 7, 0),
                ("finds_it".into(), Role::Test, 9, 1),
            ]
        );
    }

    #[test]
    fn java_junit3_private_and_annotated() {
        let (units, _) = model(
            Language::Java,
            "public class ATest extends TestCase {\n    public void testOne() {\n        assertEquals(1, f());\n    }\n    private void testTwo() {\n        assertEquals(2, f());\n    }\n}\n",
        );
        let roles: Vec<(&str, Role)> = units.iter().map(|u| (u.0.as_str(), u.1)).collect();
        assert_eq!(
            roles,
            vec![("testOne", Role::Test), ("testTwo", Role::Helper)]
        );
    }

    #[test]
    fn go_examples_with_output_are_tests() {
        let (units, _) = model(
            Language::Go,
            concat!(
                "package p\n\n",
                "func ExampleSlug() {\n\tfmt.Println(Slug(\"A b\"))\n\t// Output: a-b\n}\n\n",
                "func Example_unordered() {\n\tf()\n\t// Unordered output:\n\t// b\n\t// a\n}\n\n",
                "func ExampleNoOutput() {\n\tfmt.Println(Slug(\"A\"))\n}\n\n",
                "func Examplelower() {\n\t// Output: x\n}\n\n",
                "func ExampleParams(x int) {\n\t// Output: x\n}\n\n",
                "func (s S) ExampleMethod() {\n\t// Output: x\n}\n\n",
                "func ExampleNotLast() {\n\tf()\n\t// Output: x\n\n\t// a note\n}\n\n",
                "func ExampleNotFirst() {\n\tf()\n\t// Prints:\n\t// Output: x\n}\n\n",
                "func ExampleTrailing() {\n\tfmt.Println(1) // Output: 1\n}\n\n",
                "func ExampleBlock() {\n\tf()\n\t/*\n\tOutput:\n\tx\n\t*/\n}\n\n",
                "func ExampleInString() {\n\tf(`\n// Output: x\n`)\n}\n",
            ),
        );
        let tests: Vec<(&str, usize)> = units
            .iter()
            .filter(|u| u.1 == Role::Test)
            .map(|u| (u.0.as_str(), u.3))
            .collect();
        assert_eq!(
            tests,
            vec![
                ("ExampleSlug", 1),
                ("Example_unordered", 1),
                ("ExampleTrailing", 1),
                ("ExampleBlock", 1)
            ]
        );
    }

    /// The key of the only check of the only test of a Go file.
    fn example_key(text: &str) -> (String, Strength) {
        let rules = Rules::new(Language::Go, None);
        let m = Model::new(text.as_bytes(), &rules);
        let (_, unit) = m.tests().next().expect("a test");
        assert_eq!(unit.checks.len(), 1, "{:?}", unit.checks);
        m.check_key(unit.checks[0], &rules)
    }

    #[test]
    fn a_go_example_output_is_one_exact_check_of_what_it_prints() {
        let example =
            |body: &str| example_key(&format!("package p\n\nfunc ExampleF() {{\n{body}}}\n"));
        let (key, strength) = example(
            "\tgot, _ := Render(x)\n\tfmt.Printf(\"%s\\n\", strings.Replace(got, \"\\t\", \" \", -1))\n\tfmt.Println(n, \"done\")\n\t// Output:\n\t// a == b, (c)\n\t// done\n",
        );
        assert_eq!(strength, Strength::Equality);
        assert_eq!(
            key,
            r#"Output(got, n, "a\x20\x3d\x3d\x20b\x2c\x20\x28c\x29\x0adone")"#
        );
        // What it checks is about `got`: a lost exact check of it is covered.
        let subjects = checks::subjects(&key);
        assert_eq!(subjects.len(), 3, "{subjects:?}");
        assert!(checks::covers(subjects[0], "got"));
        // Space around the text and at line ends is not compared by `go test`.
        assert_eq!(
            example("\tfmt.Println(F())\n\t// Output:   \n\t// x  \n\t//\n").0,
            example("\tfmt.Println(F())\n\t// Output: x\n").0
        );
        // An edited output is another expectation.
        assert_ne!(
            example("\tfmt.Println(F())\n\t// Output: x\n").0,
            example("\tfmt.Println(F())\n\t// Output: y\n").0
        );
        // Unordered: the order of the lines is not compared.
        assert_eq!(
            example("\tF()\n\t// Unordered output:\n\t// b\n\t// a\n").0,
            example("\tF()\n\t// unordered output:\n\t// a\n\t// b\n").0
        );
        assert_ne!(
            example("\tF()\n\t// Output:\n\t// b\n\t// a\n").0,
            example("\tF()\n\t// Unordered output:\n\t// b\n\t// a\n").0
        );
        // Printed elsewhere than standard output: not what the output checks.
        assert_eq!(
            example("\tfmt.Fprintln(os.Stderr, x)\n\tfmt.Fprintln(os.Stdout, y)\n\t// Output: y\n")
                .0,
            r#"Output(y, "y")"#
        );
    }

    #[test]
    fn a_go_example_cut_anywhere_never_panics() {
        let rules = Rules::new(Language::Go, None);
        let text = "package p\n\nfunc ExampleF() {\n\tout, _ := F(`a\n// Output: no`)\n\tfmt.Fprintf(os.Stdout, \"%s\", strings.TrimSpace(out)) // x\n\t/* note */ // Output:\n\t// a é\n}\n";
        for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let m = Model::new(&text.as_bytes()[..cut], &rules);
            for c in 0..m.checks.len() {
                m.check_key(c, &rules);
            }
        }
    }

    #[test]
    fn ruby_calls_in_a_checks_block_receiver_or_as_labels_are_no_calls_of_their_own() {
        let rules = Rules::new(Language::Ruby, None);
        let text = "describe A do
  it \"x\" do
    lambda do
      verify_a(1)
    end.should raise_error E
    proc { verify_b(2) }.should raise_error E
    verify_c(3).should == 1
    connect(verify_d: false, via: :verify_e)
    verify_f 4
  end
end
";
        let m = Model::new(text.as_bytes(), &rules);
        let unit = m.units.iter().find(|u| u.role == Role::Test).unwrap();
        let calls = m.calls(unit);
        assert!(
            calls.contains(&"verify_f") && calls.contains(&"connect"),
            "{calls:?}"
        );
        for name in ["verify_a", "verify_b", "verify_c", "verify_d", "verify_e"] {
            assert!(!calls.contains(&name), "{name} in {calls:?}");
        }
        // The block is the check's subject.
        let full: Vec<String> = (0..m.checks.len())
            .map(|c| m.full_key(c, &m.check_key(c, &rules).0, &rules))
            .collect();
        assert!(full[0].starts_with("lambda do verify_a(1)"), "{full:?}");
        assert!(full[1].starts_with("proc{verify_b(2)}"), "{full:?}");
    }
}
