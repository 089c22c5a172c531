//! Checks that run only in some environments: under a condition on an environment
//! variable, the platform or `testing.Short()` (`if (!process.env.CI) { expect(…) }`,
//! `CI || expect(…)`, `expect(…) unless ENV["CI"]`, a `switch` on it), with a branch
//! of the condition that checks nothing, or, on a variable, a branch that checks only
//! weaker (`toBeDefined()` on CI, `toBe(3)` elsewhere); also a call of a local helper
//! that holds checks. In CI such a check may never run, so for its test the gate is
//! a conditional skip, compared like any other: one added to a test that existed is
//! `skip-added`; a gate the test already had, or one on a brand-new test, is not.

use super::checks::{self, Strength};
use super::model::{Model, Role, Skip, SkipKind, Unit};
use super::rules::Rules;
use super::source::{starts_with_word, words};
use std::ops::Range;

/// A condition on the environment around some of a test's checks.
#[derive(Debug, Clone)]
pub struct EnvCondition {
    /// The test (an index into `Model::units`).
    pub unit: usize,
    /// The head's line, squeezed (`if(!process.env.CI){`).
    pub text: String,
    /// The test's checks under it, in any branch (indices into `Model::checks`).
    pub checks: Vec<usize>,
    /// Calls under it of local helpers that hold checks (their positions).
    pub calls: Vec<usize>,
    /// The checks it gates: all of them where a branch checks nothing; where every
    /// branch checks, those stronger than another branch's.
    pub gated_checks: Vec<usize>,
    /// The calls it gates, likewise.
    pub gated_calls: Vec<usize>,
    /// The conditional skip it makes (an index into `Model::skips`) if it gates any.
    pub skip: Option<usize>,
}

/// What a condition reads when it reads an environment variable or a runner's option
/// (in blanked code: strings are blank, so the names outside them).
const VARIABLES: &[&str] = &[
    "process.env",
    "os.environ",
    "getenv",
    "Getenv",
    "LookupEnv",
    "env::var",
    "var_os(",
    "ENV[",
    "ENV.",
    "GetEnvironmentVariable",
    "testing.Short()",
    "option_env!",
    "import.meta.env",
    "Deno.env",
    "Bun.env",
    "getoption(",
    "config.option.",
    "flag.Bool",
    "flag.String",
    "flag.Int",
    "flag.Duration",
];

/// What a condition reads when it reads the platform: a check under one may hold
/// another expected value on each side (`if sys.platform == "win32"`). Java's
/// `getProperty(…)` is most often `os.name`; `getBoolean(…)` is as often a row's field.
const PLATFORM: &[&str] = &[
    "getProperty(",
    "getBoolean(",
    "process.platform",
    "sys.platform",
    "platform.system",
    "os.name",
    "os.platform(",
    "runtime.GOOS",
    "runtime.GOARCH",
    "cfg!(",
    "OperatingSystem.Is",
    "IsOSPlatform",
    "IS_OS_",
    "win_platform",
    "RUBY_PLATFORM",
    "host_os",
    "OSVersion",
    "platform.machine",
    "platform.python_implementation",
];

/// Calls that read the environment when called bare, after `use std::env::var`
/// (`var("CI")`; not `x.var(…)`, not `set_var(…)`).
const BARE_CALLS: &[&str] = &["var("];

/// What a search found first in a text.
#[derive(Clone, Copy, PartialEq)]
enum Read {
    Variable,
    Platform,
}

/// Searches built once: `VARIABLES`, `PLATFORM` and `BARE_CALLS` in one automaton,
/// `CI_FLAGS` (by word, any case) in another. Literal searches, so that the pass
/// every file gets costs next to nothing.
struct Readers {
    names: aho_corasick::AhoCorasick,
    flags: aho_corasick::AhoCorasick,
}

fn readers() -> &'static Readers {
    use aho_corasick::AhoCorasick;
    static READERS: std::sync::OnceLock<Readers> = std::sync::OnceLock::new();
    READERS.get_or_init(|| Readers {
        names: AhoCorasick::new(VARIABLES.iter().chain(PLATFORM).chain(BARE_CALLS))
            .expect("literal patterns"),
        flags: AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(CI_FLAGS)
            .expect("literal patterns"),
    })
}

/// The reads of the environment in `text`, as they are found (`BARE_CALLS` only
/// where not after a word or a dot; CI flags by word), stopping when `enough` says so.
fn reads(text: &str, mut enough: impl FnMut(Read) -> bool) -> bool {
    let r = readers();
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let free_before = |s: usize| s == 0 || !word(b[s - 1]);
    let free_after = |e: usize| b.get(e).is_none_or(|&c| !word(c));
    let alone = |s: usize, e: usize| free_before(s) && free_after(e);
    let (variables, platform) = (VARIABLES.len(), VARIABLES.len() + PLATFORM.len());
    r.names.find_iter(b).any(|m| match m.pattern().as_usize() {
        k if k < variables => enough(Read::Variable),
        // (Java's `Boolean.getBoolean(…)` is a system property, a flag the runner
        // sets; a row's `getBoolean(…)` is read like the platform.)
        k if k < platform && text[..m.start()].ends_with("Boolean.") => enough(Read::Variable),
        k if k < platform => enough(Read::Platform),
        _ => {
            free_before(m.start())
                && (m.start() == 0 || b[m.start() - 1] != b'.')
                && enough(Read::Variable)
        }
    }) || memchr::memmem::find_iter(b, b"CI").any(|i| alone(i, i + 2) && enough(Read::Variable))
        || r.flags
            .find_iter(b)
            .any(|m| alone(m.start(), m.end()) && enough(Read::Variable))
}

/// Whether a condition reads the environment: an environment variable, a runner's
/// option, the platform, or a CI flag (`CI`, `isCI`, `isCi`, `IS_CI`, `is_ci`; not
/// `meanCI`).
pub(super) fn reads_environment(text: &str) -> bool {
    reads(text, |_| true)
}

/// Whether a condition reads an environment variable, a runner's option or a CI flag.
fn reads_variables(text: &str) -> bool {
    reads(text, |r| r == Read::Variable)
}

/// CI flags by name, in any case (`isCI`, `isCi`, `IS_CI`, `runningInCI`).
const CI_FLAGS: &[&str] = &[
    "isci",
    "inci",
    "onci",
    "is_ci",
    "in_ci",
    "on_ci",
    "runninginci",
    "running_in_ci",
    "isrunninginci",
    "is_running_in_ci",
];

/// Whether a word of `text` is one of `names` (sorted).
fn names_in(names: &[String], text: &str) -> bool {
    // (Not a field of something else: `request.environ`, `opts.slow`.)
    !names.is_empty()
        && words(text).any(|w| {
            let at = w.as_ptr() as usize - text.as_ptr() as usize;
            !text[..at].ends_with('.') && names.binary_search_by(|n| n.as_str().cmp(w)).is_ok()
        })
}

/// The name a line binds with `=` or `:=` (`const slow = …`, `let slow: bool = …`,
/// `private static final boolean SLOW = …`), if it is an assignment.
fn bound_name(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let eq = (0..b.len()).find(|&i| {
        b[i] == b'='
            && b.get(i + 1).is_none_or(|&c| c != b'=' && c != b'>')
            && (i == 0 || !b"=!<>+-*/%&|^".contains(&b[i - 1]) || b[i - 1] == b':')
    })?;
    let target = line[..eq].trim_end().trim_end_matches(':').trim_end();
    // A type annotation (`slow: bool`, `isCI: boolean`) follows the name.
    let target = match target.rfind(':') {
        Some(colon) if !target[..colon].ends_with(':') => target[..colon].trim_end(),
        _ => target,
    };
    let name = words(target).last()?;
    (!name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// Whether `text` (trimmed) is a condition's head: `if`, `unless`, `elif`, `elsif`,
/// `else if`, JUnit's `assumingThat(cond, () -> {`.
fn is_condition_head(text: &str) -> bool {
    ["if", "unless", "elif", "elsif", "else", "assumingThat"]
        .iter()
        .any(|w| starts_with_word(text, w))
}

/// A Ruby `case` or Python `match` ([`Model::case_arms`]): its lines (the `case`/`match`
/// line first, then each arm's head), each arm's body, and whether an arm takes every
/// other value (`else`, `case _`).
struct CaseArms {
    heads: Vec<usize>,
    bodies: Vec<Range<usize>>,
    has_else: bool,
}

/// What the gate readers ask about: a test, with its calls of checking helpers.
struct Ask<'a> {
    unit: &'a Unit,
    rules: &'a Rules,
    calls: &'a [usize],
}

impl Model<'_> {
    /// Names bound to a read of the environment (`const slow = !process.env.CI`, `SLOW =
    /// not os.environ.get("CI")`, `var short = testing.Short()`) and short helpers that
    /// read it (`fn slow_tests_enabled() -> bool { env::var(…).is_ok() }`): a condition
    /// on one reads the environment.
    pub(super) fn find_env_names(&mut self) {
        // Python's `from os import environ`: a bare `environ` is the process's (not a
        // WSGI request's, where nothing imports it so).
        let imports_environ = self.language == super::rules::Language::Python
            && self.src.code.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("from os import") && words(l).any(|w| w == "environ")
            });
        self.env_read = imports_environ || reads_environment(&self.src.code);
        if !self.env_read {
            return;
        }
        // (A name also bound to anything else, `got` of `if got := f(); …`, is none.)
        let mut names = Vec::new();
        let mut variables = Vec::new();
        let mut others = Vec::new();
        for line in self.src.code.lines() {
            let statement = line.trim_start();
            if ["if", "for", "while", "switch", "elif", "match"]
                .iter()
                .any(|w| starts_with_word(statement, w))
            {
                continue;
            }
            // Go's `flag.BoolVar(&quick, "quick", …)` binds the name it points to.
            if let Some((_, target)) = statement.split_once("Var(&")
                && statement.starts_with("flag.")
                && reads_environment(statement)
                && let Some(name) = words(target).next()
            {
                names.push(name.to_string());
                variables.push(name.to_string());
                continue;
            }
            if let Some(name) = bound_name(line) {
                let bare = imports_environ && words(line).any(|w| w == "environ");
                if bare || reads_environment(line) {
                    names.push(name.to_string());
                    if bare || reads_variables(line) {
                        variables.push(name.to_string());
                    }
                } else {
                    others.push(name);
                }
            }
        }
        for list in [&mut names, &mut variables] {
            list.retain(|n| !others.contains(&n.as_str()));
            if imports_environ {
                list.push("environ".to_string());
            }
        }
        for unit in &self.units {
            let text = &self.src.code[unit.span.clone()];
            if unit.role != Role::Test && unit.span.len() < 400 && reads_environment(text) {
                let name = unit.leaf.trim_end_matches(['?', '!']).to_string();
                if reads_variables(text) {
                    variables.push(name.clone());
                }
                names.push(name);
            }
        }
        for list in [&mut names, &mut variables] {
            list.retain(|n| n.len() > 1);
            list.sort();
            list.dedup();
        }
        self.env_names = names;
        self.env_variable_names = variables;
    }

    /// Whether `text` reads the environment, directly or through a name bound to it.
    pub(super) fn reads_env(&self, text: &str) -> bool {
        reads_environment(text) || names_in(&self.env_names, text)
    }

    /// Whether `text` reads an environment variable, a runner's option or a CI flag,
    /// directly or through a name bound to one (not only the platform).
    fn reads_env_variables(&self, text: &str) -> bool {
        reads_variables(text) || names_in(&self.env_variable_names, text)
    }

    /// Finds the conditions on the environment around each test's own checks, and
    /// records each that gates them as a conditional skip of the test (one per gate,
    /// however many checks it holds).
    pub(super) fn find_gated_checks(&mut self, rules: &Rules) {
        if !self.env_read {
            return; // (most files: nothing to read)
        }
        struct Found {
            unit: usize,
            at: usize,
            checks: Vec<usize>,
            calls: Vec<usize>,
            gated_checks: Vec<usize>,
            gated_calls: Vec<usize>,
            gated: bool,
        }
        let mut found: Vec<Found> = Vec::new();
        for (ui, unit) in self.units.iter().enumerate() {
            if unit.role != Role::Test || !self.reads_env(&self.src.code[unit.span.clone()]) {
                continue;
            }
            let calls = self.checking_calls(unit);
            if unit.checks.is_empty() && calls.is_empty() {
                continue;
            }
            let ask = Ask {
                unit,
                rules,
                calls: &calls,
            };
            let from = found.len();
            let subjects = unit
                .checks
                .iter()
                .map(|&c| (Some(c), self.checks[c].span.clone(), self.rank(c, rules)))
                .chain(calls.iter().map(|&at| {
                    // (A helper named like a check is compared by its checks; any other,
                    // `loginWithToken(page)`, is setup that checks on the way: never the
                    // stronger side of a branch.)
                    let rank = if super::bags::check_like(self.word_at(at)) {
                        self.call_rank(unit, at, rules)
                    } else {
                        0
                    };
                    (None, at..at, rank)
                }));
            for (check, span, rank) in subjects {
                let Some((at, gated)) = self.gate_of(&ask, span.clone(), rank) else {
                    continue;
                };
                let f = match found[from..].iter().position(|f| f.at == at) {
                    Some(k) => &mut found[from + k],
                    None => {
                        found.push(Found {
                            unit: ui,
                            at,
                            checks: Vec::new(),
                            calls: Vec::new(),
                            gated_checks: Vec::new(),
                            gated_calls: Vec::new(),
                            gated: false,
                        });
                        found.last_mut().expect("just pushed")
                    }
                };
                match check {
                    Some(c) => {
                        f.checks.push(c);
                        if gated {
                            f.gated_checks.push(c);
                        }
                    }
                    None => {
                        f.calls.push(span.start);
                        if gated {
                            f.gated_calls.push(span.start);
                        }
                    }
                }
                f.gated |= gated;
            }
        }
        for f in found {
            let line = self.src.line_of(f.at);
            let text = checks::squeeze(self.src.line_text(line));
            let skip = f.gated.then(|| {
                self.skips.push(Skip {
                    pos: f.at,
                    line,
                    text: text.clone(),
                    kind: SkipKind::Conditional,
                });
                self.units[f.unit].skips.push(self.skips.len() - 1);
                self.skips.len() - 1
            });
            self.env_conditions.push(EnvCondition {
                unit: f.unit,
                text,
                checks: f.checks,
                calls: f.calls,
                gated_checks: f.gated_checks,
                gated_calls: f.gated_calls,
                skip,
            });
        }
    }

    /// Calls in a test of local helpers that hold checks (their positions), outside
    /// the test's own local helpers: a condition around one gates its checks. Not a
    /// call whose result the statement binds (`const base = process.env.URL ||
    /// startServer()`): that is setup, whatever it checks on the way, unless the
    /// helper is named like a check (`const v = process.env.CI ? r : verifySum(r)`).
    pub(super) fn checking_calls(&self, unit: &Unit) -> Vec<usize> {
        self.all_calls(unit)
            .into_iter()
            .filter(|&(name, at)| {
                name != unit.leaf
                    && !self.in_local_helper(unit, at)
                    && self
                        .helper_for(unit, name)
                        .is_some_and(|h| !self.checks_of(h).is_empty())
                    && (super::bags::check_like(name)
                        || bound_name(
                            &self.src.code[self.src.line_start(self.src.line_of(at))..at],
                        )
                        .is_none())
            })
            .map(|(_, at)| at)
            .collect()
    }

    /// How strong the checks of the helper called at `at` are: the strongest.
    fn call_rank(&self, unit: &Unit, at: usize, rules: &Rules) -> u8 {
        self.helper_for(unit, self.word_at(at))
            .and_then(|h| self.checks_of(h).iter().map(|&c| self.rank(c, rules)).max())
            .unwrap_or(2)
    }

    /// How strong a check is, for comparing the branches of a condition: exact values
    /// and expected errors are not weaker than each other.
    fn rank(&self, index: usize, rules: &Rules) -> u8 {
        let (key, strength) = self.check_key(index, rules);
        // (An exact check of a value's type is no exact check of the value.)
        const TYPE_ONLY: &[&str] = &[
            "typeof ",
            "expect.any(",
            "expect.anything(",
            "type(",
            ".class",
            "GetType()",
            "==ANY",
            "ANY==",
        ];
        match strength {
            Strength::Void => 0,
            Strength::Equality
                if TYPE_ONLY.iter().any(|t| {
                    key.match_indices(t).any(|(i, _)| {
                        !t.starts_with(|c: char| c.is_alphanumeric())
                            || !key[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
                }) =>
            {
                1
            }
            Strength::Weak => 1,
            Strength::Other | Strength::Equality => 2,
        }
    }

    /// Where the condition on the environment around a check (or a checking call) at
    /// `span` starts, and whether it gates it (it runs only when the environment
    /// allows): a condition before it in its statement, a Ruby modifier after it, or an
    /// enclosing `if` chain ([`Model::gates`]).
    fn gate_of(&self, ask: &Ask, span: Range<usize>, rank: u8) -> Option<(usize, bool)> {
        let unit = ask.unit;
        let at = span.start;
        let line = self.src.line_of(at);
        let line_start = self.src.line_start(line).max(unit.span.start);
        // In the check itself: `assert CI or r == 3`, `assert r == 3 if not CI else
        // True`, `ENV['CI'] or expect(…)`.
        let own = &self.src.code[span];
        if self.reads_env(own)
            && (own.contains(" or ")
                || own.contains("||")
                || (own.contains(" if ") && own.contains(" else ")))
        {
            return Some((at, true));
        }
        // In its statement, on its line: `if (!CI) expect(…)`, `CI || expect(…)`,
        // `!CI && expect(…)`, `CI ? null : expect(…)`, `if not CI: assert …`.
        let b = self.src.b();
        let mut start = at;
        while start > line_start && !matches!(b[start - 1], b';' | b'{' | b'}') {
            start -= 1;
        }
        let raw_prefix = &self.src.code[start..at];
        let prefix = raw_prefix.trim();
        let gated_by = |p: &str| {
            let p = p.trim_start();
            self.reads_env(p)
                && (is_condition_head(p)
                    || ["||", "&&", "?", " or ", " and "]
                        .iter()
                        .any(|op| p.contains(op)))
        };
        if gated_by(raw_prefix) {
            return Some((
                start + raw_prefix.len() - raw_prefix.trim_start().len(),
                true,
            ));
        }
        // A head on the line before (`if (!CI)` then the check, unbraced; a condition
        // ending in `&&`).
        if prefix.is_empty()
            && let Some(prev) = (self.src.line_of(unit.span.start)..line)
                .rev()
                .find(|&l| !self.src.line_text(l).trim().is_empty())
        {
            let p = self.src.line_text(prev).trim();
            let open = (is_condition_head(p) && p.ends_with(')'))
                || ["||", "&&", "?"].iter().any(|op| p.ends_with(op));
            if open && !p.ends_with('{') && gated_by(p) {
                let head = self.src.line_start(prev) + self.src.indent(prev).unwrap_or(0);
                return Some((head, true));
            }
        }
        // A Ruby modifier: `expect(…).to eq(1) unless ENV["CI"]`.
        if self.language == super::rules::Language::Ruby {
            let rest = &self.src.code[at..self.src.line_end(line).max(at)];
            if let Some(k) = [" if ", " unless "].iter().find_map(|w| rest.find(w))
                && self.reads_env(&rest[k..])
            {
                return Some((at, true));
            }
        }
        // A guard before it that leaves the loop's turn (`if os.Getenv("CI") != "" {
        // continue }`, `next if ENV["CI"]` in a block): the rest of the turn is gated.
        if let Some(guard) = self.loop_exit_guard(unit, at) {
            return Some((guard, true));
        }
        if self.language.indented() {
            self.gate_by_indent(ask, at, rank)
        } else {
            self.gate_by_braces(ask, at, rank)
        }
    }

    /// Where a guard on the environment starts that ends the turn of a loop around
    /// `at` before it (`continue`, `break`; Ruby's `next` in a block below the test's
    /// level; a `return` in a callback below the test's level in JavaScript, Java,
    /// Kotlin, C# and Rust, as in `rows.forEach((r) => { if (CI) return; expect(…) })`,
    /// Kotlin's `return@forEach`), at `at`'s level or one around it, checking nothing
    /// on the way out.
    fn loop_exit_guard(&self, unit: &Unit, at: usize) -> Option<usize> {
        use super::rules::Language;
        let b = self.src.b();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let callbacks = matches!(
            self.language,
            Language::JavaScript | Language::Java | Language::CSharp | Language::Rust
        );
        let mut exits: Vec<&str> = vec!["continue", "break"];
        if self.language == Language::Ruby {
            exits.push("next");
        }
        if callbacks {
            exits.push("return");
        }
        let scope = unit.span.start..at.min(unit.span.end);
        for exit in exits {
            for found in memchr::memmem::find_iter(&b[scope.clone()], exit.as_bytes()) {
                let p = scope.start + found;
                let end = p + exit.len();
                if (p > 0 && word(b[p - 1])) || b.get(end).is_some_and(|&c| word(c)) {
                    continue;
                }
                let guard = if self.language.indented() {
                    self.indented_exit_guard(unit, p, exit, at)
                } else {
                    self.braced_exit_guard(unit, p, exit, at)
                };
                if guard.is_some() {
                    return guard;
                }
            }
        }
        None
    }

    /// [`Model::loop_exit_guard`] for the exit at `p` in braced code: `if (c) exit;` or
    /// `if c { exit }`, in a block that holds `at`.
    fn braced_exit_guard(&self, unit: &Unit, p: usize, exit: &str, at: usize) -> Option<usize> {
        let code = &self.src.code;
        let b = self.src.b();
        let rest = code[p + exit.len()..].trim_start_matches([' ', '\t']);
        // (`continue outer`, `return;`, `return null;` … a value returned in a callback.)
        let line_end = rest.find(['\n', ';', '}']).unwrap_or(rest.len());
        let returned = rest[..line_end].trim();
        if exit != "return" && !returned.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let open = self.src.enclosing_brace(p)?;
        let (head, level) = {
            // One line: `if (CI) continue;` (the statement from after `;`, `{`, `}`).
            let line_start = self.src.line_start(self.src.line_of(p)).max(open + 1);
            let mut s = p;
            while s > line_start && !matches!(b[s - 1], b';' | b'{' | b'}') {
                s -= 1;
            }
            let statement = code[s..p].trim();
            if !statement.is_empty() {
                (s + (code[s..p].len() - code[s..p].trim_start().len()), open)
            } else {
                // A block ending in the exit, checking nothing first.
                let inside = code[open + 1..self.src.close_of(open).min(code.len())]
                    .trim()
                    .trim_end_matches('}')
                    .trim();
                let statements: Vec<&str> = inside
                    .split([';', '\n'])
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .collect();
                // (What it does before leaving, `skipped++`, a log, is no check.)
                let close = self.src.close_of(open);
                let checks_inside = self.has_check_in(open..close);
                let ends_in_exit = statements.last().is_some_and(|last| {
                    *last == exit
                        || last
                            .strip_prefix(exit)
                            .is_some_and(|r| r.starts_with([' ', '@']))
                });
                if !ends_in_exit || checks_inside {
                    return None;
                }
                (self.block_head(unit, open), self.src.enclosing_brace(open)?)
            }
        };
        if level < unit.span.start || at >= self.src.close_of(level) {
            return None;
        }
        // A `return` leaves a loop's turn only in a callback below the test's level
        // (Kotlin's `return@forEach` always does).
        if exit == "return" && !rest.starts_with('@') {
            let body = self
                .src
                .enclosing_brace(level)
                .is_none_or(|o| o < unit.span.start);
            let callback = {
                let h = &code[self.block_head(unit, level)..level];
                // (Rust's closure: `for_each(|r| {`.)
                h.contains("=>")
                    || h.contains("->")
                    || h.trim_end().ends_with('|')
                    || words(h).any(|w| w == "function")
            };
            if body || !callback {
                return None;
            }
        }
        let text = &code[head..p];
        // (Kotlin: `System.getenv("CI")?.let { return@forEach }`.)
        let kotlin_let = super::source::KOTLIN_SCOPE_CALLS.iter().any(|w| {
            text.trim_end()
                .trim_end_matches('{')
                .trim_end()
                .ends_with(w)
        });
        ((starts_with_word(text, "if") || kotlin_let) && self.reads_env(text)).then_some(head)
    }

    /// [`Model::loop_exit_guard`] for the exit at `p` in indented code: Python's `if c:
    /// continue` (one line or a block), Ruby's `next if c` / `break unless c` or an
    /// `if` block holding the exit; the lines from it to `at` stay inside its level.
    fn indented_exit_guard(&self, unit: &Unit, p: usize, exit: &str, at: usize) -> Option<usize> {
        let line = self.src.line_of(p);
        let text = self.src.line_text(line).trim();
        let rest =
            self.src.code[p + exit.len()..self.src.line_end(line).max(p + exit.len())].trim();
        let (head_line, reads) = if text.starts_with(exit) {
            if let Some(cond) = ["if ", "unless "].iter().find_map(|w| rest.strip_prefix(w)) {
                (line, self.reads_env(cond))
            } else if rest.is_empty() {
                // The exit alone in an `if` block: the head is the line above, less indented.
                let indent = self.src.indent(line)?;
                let head = (self.src.line_of(unit.span.start)..line)
                    .rev()
                    .find(|&l| self.src.indent(l).is_some_and(|i| i < indent))?;
                let (from, to) = (self.src.line_start(head + 1), self.src.line_start(line));
                let checks_inside = self.has_check_in(from..to);
                let h = self.src.line_text(head).trim();
                if checks_inside || !starts_with_word(h, "if") {
                    return None;
                }
                (head, self.reads_env(h))
            } else {
                return None;
            }
        } else if starts_with_word(text, "if") && text.ends_with(&format!(": {exit}")) {
            (line, self.reads_env(text))
        } else {
            return None;
        };
        if !reads {
            return None;
        }
        // Ruby's `next` at the test's own level is its guard return (see `skips`).
        let level = self.src.indent(head_line)?;
        if exit == "next" {
            let body = (self.src.line_of(unit.span.start) + 1..=head_line)
                .find_map(|l| self.src.indent(l));
            if body == Some(level) {
                return None;
            }
        }
        let check_line = self.src.line_of(at);
        let inside = (head_line + 1..=check_line)
            .filter_map(|l| self.src.indent(l))
            .all(|i| i >= level);
        inside.then(|| self.src.line_start(head_line) + level)
    }

    /// Whether an `if` chain on the environment (its heads, its branches' bodies)
    /// gates check `index`: a branch checks nothing (no `else` is such a branch), or,
    /// on a variable rather than the platform, a branch checks only weaker than it
    /// (`if (process.env.CI) { expect(r).toBeDefined() } else { expect(r).toBe(3) }`:
    /// in CI the exact check never runs). On the platform each side may expect its own
    /// value, so checks on both sides are no gate.
    fn gates(
        &self,
        ask: &Ask,
        own: u8,
        heads: &[&str],
        bodies: &[Range<usize>],
        has_else: bool,
    ) -> bool {
        let strongest = |body: &Range<usize>| {
            let checks = ask
                .unit
                .checks
                .iter()
                .filter(|&&c| body.contains(&self.checks[c].span.start))
                .map(|&c| self.rank(c, ask.rules));
            let calls = ask
                .calls
                .iter()
                .filter(|&&at| body.contains(&at))
                .map(|&at| self.call_rank(ask.unit, at, ask.rules));
            checks.chain(calls).max()
        };
        // (A branch that fails, `else raise "unknown DB"`, `default: t.Fatal(…)`, lets
        // nothing through unchecked.)
        let fails = |body: &Range<usize>| {
            let text = self.src.code[body.clone()]
                .trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == '{');
            [
                "raise",
                "throw",
                "panic!",
                "fail(",
                "fail ",
                "unreachable!",
                "t.Fatal",
                "pytest.fail(",
                "Assert.Fail(",
                "assert False",
            ]
            .iter()
            .any(|w| text.starts_with(w))
                // (Not a raise the runner reads as a skip: `raise pytest.skip.Exception`,
                // `throw new SkipException()`, `Assert.Inconclusive`.)
                && !["skip", "pending", "ignore", "inconclusive", "abort"].iter().any(|w| {
                    text.lines()
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase()
                        .contains(w)
                })
        };
        if !has_else || bodies.iter().any(|b| strongest(b).is_none() && !fails(b)) {
            return true;
        }
        heads.iter().any(|h| self.reads_env_variables(h))
            && bodies.iter().any(|b| strongest(b).is_some_and(|s| s < own))
    }

    /// The innermost enclosing `if` chain (braced) that reads the environment and gates
    /// the check ([`Model::gates`]), else the innermost that reads it.
    fn gate_by_braces(&self, ask: &Ask, at: usize, rank: u8) -> Option<(usize, bool)> {
        let unit = ask.unit;
        let b = self.src.b();
        let mut reading = None;
        let mut at = at;
        while let Some(open) = self.src.enclosing_brace(at) {
            if open < unit.span.start {
                return None;
            }
            at = open;
            let mut h = self.block_head(unit, open);
            // Go's `if init; cond {`: the head starts at the `if`.
            let before = self.src.code[..h].trim_end();
            if self.language == super::rules::Language::Go && before.ends_with(';') {
                let init = self.block_head(unit, before.len() - 1);
                if starts_with_word(&self.src.code[init..], "if") {
                    h = init;
                }
            }
            // A `switch` on the environment (in its head, or in its labels: Go's `switch
            // { case os.Getenv("CI") != "":`, `switch (true)`): its arms are the branches.
            let rust_match = self.language == super::rules::Language::Rust
                && starts_with_word(&self.src.code[h..open], "match");
            if starts_with_word(&self.src.code[h..open], "switch") || rust_match {
                let head = &self.src.code[h..open];
                // (A Rust `match` is exhaustive: a `_` arm or not, every case has an arm.)
                let (arms, has_default) = if rust_match {
                    (self.match_arms(open), true)
                } else {
                    self.switch_arms(open)
                };
                let labels: Vec<&str> = arms
                    .iter()
                    .map(|arm| {
                        let text = &self.src.code[arm.clone()];
                        &text[..text.find([':', '\n']).unwrap_or(text.len())]
                    })
                    .collect();
                if self.reads_env(head) || labels.iter().any(|l| self.reads_env(l)) {
                    let heads: Vec<&str> = std::iter::once(head).chain(labels).collect();
                    if self.gates(ask, rank, &heads, &arms, has_default) {
                        return Some((h, true));
                    }
                    reading.get_or_insert((h, false));
                }
                continue;
            }
            if self.loops_over_env_table(unit, &self.src.code[h..open], h) {
                return Some((h, true));
            }
            if !is_condition_head(&self.src.code[h..open]) {
                continue;
            }
            // Back to the chain's first block, then every branch forward.
            let mut first = (h, open);
            while starts_with_word(&self.src.code[first.0..], "else") {
                let mut c = first.0;
                while c > unit.span.start && b[c - 1].is_ascii_whitespace() {
                    c -= 1;
                }
                match (c > unit.span.start && b[c - 1] == b'}')
                    .then(|| super::source::matching_open(b, c - 1))
                    .flatten()
                {
                    Some(o) if o >= unit.span.start => first = (self.block_head(unit, o), o),
                    _ => break,
                }
            }
            let mut branches = vec![first];
            let mut has_else = false;
            loop {
                let (_, o) = *branches.last().expect("a first branch");
                let mut e = self.src.close_of(o);
                while e < b.len() && b[e].is_ascii_whitespace() {
                    e += 1;
                }
                if !starts_with_word(&self.src.code[e..], "else") {
                    break;
                }
                let Some(next) = self.src.code[e..unit.span.end.min(b.len())]
                    .find('{')
                    .map(|k| e + k)
                else {
                    break;
                };
                has_else = !starts_with_word(self.src.code[e + 4..].trim_start(), "if");
                branches.push((e, next));
                if has_else {
                    break;
                }
            }
            let heads: Vec<&str> = branches
                .iter()
                .map(|&(h, o)| &self.src.code[h..o])
                .collect();
            let bodies: Vec<Range<usize>> = branches
                .iter()
                .map(|&(_, o)| o..self.src.close_of(o))
                .collect();
            let reads = heads.iter().any(|h| self.reads_env(h));
            if reads && self.gates(ask, rank, &heads, &bodies, has_else) {
                return Some((first.0, true));
            }
            if reads {
                reading.get_or_insert((first.0, false));
            }
        }
        reading
    }

    /// The arms of the `switch` block opening at `open` (from each `case`/`default` at
    /// its level to the next), and whether it has a `default`.
    fn switch_arms(&self, open: usize) -> (Vec<Range<usize>>, bool) {
        let b = self.src.b();
        let close = self.src.close_of(open).min(b.len());
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let mut starts = Vec::new();
        let mut has_default = false;
        let mut i = open + 1;
        while i < close {
            if b[i] == b'{' {
                i = self.src.close_of(i).max(i + 1);
                continue;
            }
            if !word(b[i - 1]) {
                let rest = &self.src.code[i..close];
                if starts_with_word(rest, "case") {
                    starts.push(i);
                } else if starts_with_word(rest, "default") {
                    starts.push(i);
                    has_default = true;
                }
            }
            i += 1;
        }
        let mut arms: Vec<Range<usize>> = starts
            .iter()
            .enumerate()
            .map(|(k, &s)| s..starts.get(k + 1).copied().unwrap_or(close))
            .collect();
        // Stacked labels (`case 'mysql':` then `case 'mariadb':`) share the next arm.
        let label_only = |arm: &Range<usize>| {
            let text = self.src.code[arm.clone()].trim_end();
            text.ends_with(':') && !text.contains('\n')
        };
        let mut k = arms.len();
        while k > 1 {
            k -= 1;
            if label_only(&arms[k - 1]) {
                arms[k - 1].end = arms[k].end;
                arms.remove(k);
            }
        }
        (arms, has_default)
    }

    /// Whether `head` (at `at`) is a loop whose rows an environment variable decides:
    /// its rows read one (`for (const c of process.env.CI ? [] : cases)`, a table bound
    /// to such a read), or a condition on one assigns their name before it (`if
    /// os.Getenv("CI") != "" { tests = tests[:0] }`): under CI it may run no row, a
    /// branch that checks nothing. (Rows added, `tests = append(tests, winCase)`, empty
    /// nothing; rows rewritten for the platform keep every row.)
    fn loops_over_env_table(&self, unit: &Unit, head: &str, at: usize) -> bool {
        let head = head.trim_start();
        let rows = if starts_with_word(head, "for") || starts_with_word(head, "while") {
            // (After the first `of`, `in`, `range`, Java's `:`; a C-style loop's whole
            // head.)
            if head.contains(';') {
                head
            } else {
                [" of ", " in ", "range ", " : "]
                    .iter()
                    .filter_map(|w| head.find(w).map(|k| k + w.len()))
                    .min()
                    .map_or(head, |k| &head[k..])
            }
        } else if let Some(k) = [
            ".forEach",
            ".for_each(",
            ".each(",
            ".each ",
            ".each_with_index",
            ".map(",
            ".times",
        ]
        .iter()
        .find_map(|w| head.find(w))
        {
            &head[..k]
        } else {
            return false;
        };
        // (Not a loop over the environment itself, `os.environ.items()`.)
        const WHOLE: &[&str] = &[
            "(process.env)",
            "os.environ.items()",
            "os.environ.keys()",
            "os.environ.values()",
            "os.Environ()",
            "env::vars()",
            "ENV.each",
            "ENV.to_h",
            "GetEnvironmentVariables()",
            "getenv().entrySet()",
            "getenv().keySet()",
        ];
        if WHOLE.iter().any(|w| rows.contains(w)) {
            return false;
        }
        if self.reads_env_variables(rows) {
            return true;
        }
        let before = &self.src.code[unit.span.start..at.max(unit.span.start)];
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        words(rows).any(|name| {
            before.match_indices(name).any(|(k, _)| {
                let b = before.as_bytes();
                let free =
                    (k == 0 || !word(b[k - 1])) && !b.get(k + name.len()).is_some_and(|&c| word(c));
                let rest = before[k + name.len()..].trim_start();
                let value = rest.get(1..).unwrap_or("").trim_start();
                let grows = value.starts_with(&format!("append({name},"))
                    || value.starts_with(&format!("[...{name}"))
                    || value.starts_with(&format!("{name} +"))
                    || value.starts_with(&format!("{name}.concat("));
                let assigned = rest.starts_with('=') && !rest.starts_with("==") && !grows;
                free && assigned && {
                    let pos = unit.span.start + k;
                    let line = self.src.line_of(pos);
                    let statement = &self.src.code[self.src.line_start(line)..pos];
                    // On its line (`if (process.env.CI) cases = [];`) or in a block
                    // whose head reads it.
                    (is_condition_head(statement.trim_start())
                        && self.reads_env_variables(statement))
                        || self.enclosing_head(unit, pos).is_some_and(|h| {
                            is_condition_head(h.trim_start()) && self.reads_env_variables(h)
                        })
                }
            })
        })
    }

    /// The head of the block (braced or indented) around `pos` within `unit`.
    fn enclosing_head(&self, unit: &Unit, pos: usize) -> Option<&str> {
        if self.language.indented() {
            let (h, _) = self.indent_headers(unit, self.src.line_of(pos)).next()?;
            Some(self.src.line_text(h))
        } else {
            let open = self
                .src
                .enclosing_brace(pos)
                .filter(|&o| o >= unit.span.start)?;
            Some(&self.src.code[self.block_head(unit, open)..open])
        }
    }

    /// The arms of the Rust `match` block opening at `open`: each pattern with its
    /// body, up to the `,` after it or the `}` of a braced body.
    fn match_arms(&self, open: usize) -> Vec<Range<usize>> {
        let b = self.src.b();
        let close = self.src.close_of(open).saturating_sub(1).min(b.len());
        let mut arms = Vec::new();
        let (mut start, mut arrow) = (open + 1, None);
        let mut i = open + 1;
        while i < close {
            match b[i] {
                b'(' | b'[' | b'{' => {
                    let end = self.src.close_of(i);
                    let body = arrow.is_some_and(|a: usize| b[a..i].trim_ascii().is_empty());
                    if b[i] == b'{' && body {
                        arms.push(start..end);
                        (start, arrow) = (end, None);
                    }
                    i = end;
                    continue;
                }
                b'=' if b.get(i + 1) == Some(&b'>') => arrow = Some(i + 2),
                b',' if arrow.is_some() => {
                    arms.push(start..i);
                    (start, arrow) = (i + 1, None);
                }
                _ => {}
            }
            i += 1;
        }
        if arrow.is_some() {
            arms.push(start..close);
        }
        arms
    }

    /// The Ruby `case` or Python `match` whose arm heads at `head` (at `indent`): a
    /// `when`/`else` (Ruby) or `case` (Python) line.
    fn case_arms(&self, unit: &Unit, head: usize, indent: usize) -> Option<CaseArms> {
        use super::rules::Language;
        let first_line = self.src.line_of(unit.span.start);
        let last_line = self.src.line_of(unit.span.end.saturating_sub(1));
        let text = |l: usize| self.src.line_text(l).trim_start();
        let (arm, opener) = match self.language {
            Language::Ruby if starts_with_word(text(head), "in") => ("in", "case"),
            Language::Ruby => ("when", "case"),
            Language::Python => ("case", "match"),
            _ => return None,
        };
        let arm_head =
            |l: usize| starts_with_word(text(l), arm) || starts_with_word(text(l), "else");
        if !arm_head(head) {
            return None;
        }
        // Ruby's `when` sits at its `case`'s indent; Python's `case` below its `match`.
        let opener_line = (first_line..head).rev().find(|&l| {
            self.src.indent(l).is_some_and(|j| match self.language {
                Language::Ruby => j < indent || (j == indent && !arm_head(l)),
                _ => j < indent,
            })
        })?;
        if !starts_with_word(text(opener_line), opener) {
            return None;
        }
        let mut heads = vec![opener_line];
        let mut l = opener_line + 1;
        while l <= last_line {
            match self.src.indent(l) {
                Some(j) if j < indent => break,
                Some(j) if j == indent => {
                    if arm_head(l) {
                        heads.push(l);
                    } else {
                        break;
                    }
                }
                _ => {}
            }
            l += 1;
        }
        let arms = &heads[1..];
        let bodies: Vec<Range<usize>> = arms
            .iter()
            .enumerate()
            .map(|(k, &h)| {
                let end = arms.get(k + 1).map_or_else(
                    || self.src.line_start(l.min(last_line + 1)),
                    |&n| self.src.line_start(n),
                );
                self.src.line_end(h)..end.max(self.src.line_end(h))
            })
            .collect();
        let has_else = arms.iter().any(|&h| {
            let t = text(h);
            starts_with_word(t, "else")
                || t.starts_with("case _:")
                || t == "in _"
                || t.starts_with("in _ ")
        });
        Some(CaseArms {
            heads,
            bodies,
            has_else,
        })
    }

    /// [`Model::gate_by_braces`] for blocks by indentation (Python, Ruby).
    fn gate_by_indent(&self, ask: &Ask, at: usize, rank: u8) -> Option<(usize, bool)> {
        let unit = ask.unit;
        let line = self.src.line_of(at);
        let first_line = self.src.line_of(unit.span.start);
        let last_line = self.src.line_of(unit.span.end.saturating_sub(1));
        let head_of = |l: usize| self.src.line_text(l).trim_start();
        let mut reading = None;
        for (h, i) in self.indent_headers(unit, line) {
            if let Some(case) = self.case_arms(unit, h, i) {
                let texts: Vec<&str> = case.heads.iter().map(|&l| head_of(l)).collect();
                if texts.iter().any(|t| self.reads_env(t)) {
                    let opener = case.heads[0];
                    let head = self.src.line_start(opener) + self.src.indent(opener).unwrap_or(0);
                    if self.gates(ask, rank, &texts, &case.bodies, case.has_else) {
                        return Some((head, true));
                    }
                    reading.get_or_insert((head, false));
                }
                continue;
            }
            let at_head = self.src.line_start(h) + i;
            if self.loops_over_env_table(unit, head_of(h), at_head) {
                return Some((at_head, true));
            }
            if !is_condition_head(head_of(h)) {
                continue;
            }
            // The chain's heads at this indent: up to its `if`, down to its end.
            let at_indent = |l: usize| self.src.indent(l) == Some(i);
            let mut first = h;
            while !["if", "unless"]
                .iter()
                .any(|w| starts_with_word(head_of(first), w))
            {
                match (first_line..first)
                    .rev()
                    .find(|&l| self.src.indent(l).is_some_and(|j| j <= i))
                {
                    Some(l) if at_indent(l) && is_condition_head(head_of(l)) => first = l,
                    _ => break,
                }
            }
            let mut heads = vec![first];
            loop {
                let last = *heads.last().expect("a first head");
                match (last + 1..=last_line).find(|&l| self.src.indent(l).is_some_and(|j| j <= i)) {
                    Some(l)
                        if at_indent(l)
                            && ["else", "elif", "elsif"]
                                .iter()
                                .any(|w| starts_with_word(head_of(l), w)) =>
                    {
                        heads.push(l)
                    }
                    _ => break,
                }
            }
            let has_else = starts_with_word(head_of(*heads.last().expect("a head")), "else");
            let texts: Vec<&str> = heads.iter().map(|&l| head_of(l)).collect();
            let bodies: Vec<Range<usize>> = heads
                .iter()
                .enumerate()
                .map(|(k, &l)| {
                    let end = heads.get(k + 1).map_or_else(
                        || self.src.indent_block(l).end,
                        |&next| self.src.line_start(next),
                    );
                    self.src.line_end(l)..end
                })
                .collect();
            let reads = texts.iter().any(|h| self.reads_env(h));
            let head = self.src.line_start(first) + i;
            if reads && self.gates(ask, rank, &texts, &bodies, has_else) {
                return Some((head, true));
            }
            if reads {
                reading.get_or_insert((head, false));
            }
        }
        reading
    }
}

/// How many of `list` are `k`.
fn count(list: &[String], k: &str) -> usize {
    list.iter().filter(|x| *x == k).count()
}

/// A test as it was or is: its model, its unit, its conditions on the environment.
pub(super) type Side<'s, 'm> = (&'s Model<'m>, &'s Unit, &'s [&'s EnvCondition]);

/// Whether a change moved checks of a test under a gate, over the whole test: a
/// check whose text left the test's unconditioned checks for a gated one, a call of a
/// checking helper likewise, or (edited on the way) unconditioned checks gone to no
/// branch that still runs them while the gated ones grew. (A check added under a
/// condition, a condition rewritten or reformatted, a gated value edited, a branch's
/// check deleted: none of these; the last is judged by the checks.)
pub(super) fn moved_under(rules: &Rules, old: Side, new: Side) -> bool {
    let ((om, ou, og), (nm, nu, ng)) = (old, new);
    let same_language = om.language == nm.language;
    fn gating<'a>(g: &[&'a EnvCondition]) -> Vec<&'a EnvCondition> {
        g.iter().copied().filter(|c| c.skip.is_some()).collect()
    }
    let (og_gating, ng_gating) = (gating(og), gating(ng));
    // Calls of local helpers that hold checks, by name.
    let free_calls = |m: &Model, u: &Unit, g: &[&EnvCondition]| -> Vec<String> {
        m.checking_calls(u)
            .into_iter()
            .filter(|at| !g.iter().any(|c| c.calls.contains(at)))
            .map(|at| m.word_at(at).to_string())
            .collect()
    };
    if same_language && ng_gating.iter().any(|c| !c.gated_calls.is_empty()) {
        let (free_old, free_new) = (free_calls(om, ou, og), free_calls(nm, nu, ng));
        let moved = ng_gating
            .iter()
            .flat_map(|c| c.gated_calls.iter().map(|&at| nm.word_at(at)))
            .any(|k| count(&free_old, k) > count(&free_new, k));
        if moved {
            return true;
        }
    }
    let gated = |g: &[&EnvCondition]| -> Vec<usize> {
        g.iter()
            .flat_map(|c| c.gated_checks.iter().copied())
            .collect()
    };
    let (gated_old, gated_new) = (gated(&og_gating), gated(&ng_gating));
    if gated_new.is_empty() {
        return false;
    }
    let free = |u: &Unit, g: &[&EnvCondition]| -> Vec<usize> {
        u.checks
            .iter()
            .copied()
            .filter(|i| !g.iter().any(|c| c.checks.contains(i)))
            .collect()
    };
    let (free_old, free_new) = (free(ou, og), free(nu, ng));
    let grew = gated_new.len() > gated_old.len();
    if !same_language {
        return grew && free_new.len() < free_old.len();
    }
    let keys = |m: &Model, list: &[usize]| -> Vec<String> {
        list.iter().map(|&c| m.check_key(c, rules).0).collect()
    };
    let (free_old, free_new) = (keys(om, &free_old), keys(nm, &free_new));
    if keys(nm, &gated_new)
        .iter()
        .any(|k| count(&free_old, k) > count(&free_new, k))
    {
        return true;
    }
    // Free checks that went, but not to a branch that still runs them.
    let ungated: Vec<usize> = ng
        .iter()
        .flat_map(|c| c.checks.iter().filter(|i| !c.gated_checks.contains(i)))
        .copied()
        .collect();
    let mut gone = free_old;
    for k in free_new.iter().chain(&keys(nm, &ungated)) {
        if let Some(i) = gone.iter().position(|g| g == k) {
            gone.swap_remove(i);
        }
    }
    grew && !gone.is_empty()
}

#[cfg(test)]
mod tests {
    use super::{bound_name, reads_environment};

    #[test]
    fn names_bound_by_assignments_in_each_language() {
        for (line, name) in [
            ("const runSlow = !process.env.CI;", "runSlow"),
            ("let slow: bool = std::env::var(\"CI\").is_err();", "slow"),
            ("const isCI: boolean = Boolean(process.env.CI)", "isCI"),
            ("SLOW = not os.environ.get(\"CI\")", "SLOW"),
            ("\tslow := os.Getenv(\"CI\") == \"\"", "slow"),
            (
                "private static final boolean SLOW = System.getenv(\"CI\") == null;",
                "SLOW",
            ),
        ] {
            assert_eq!(bound_name(line), Some(name), "{line}");
        }
        // A comparison or an arrow is no assignment.
        assert_eq!(bound_name("if (process.env.CI == 1) {"), None);
        assert_eq!(bound_name("it('x', () => expect(a).toBe(1))"), None);
    }

    #[test]
    fn ci_flags_are_read_by_name_not_by_any_word_ending_in_ci() {
        for text in [
            "if (CI)",
            "if (!isCI)",
            "if (!isCi)",
            "unless is_ci",
            "IS_CI &&",
            "if var(    ).is_err() {",
            "if not request.config.getoption(      ):",
        ] {
            assert!(reads_environment(text), "{text}");
        }
        // Only bare `var(…)` reads a variable: not a method, not another function.
        for text in ["if x.var(1) {", "env::set_var(k, v);", "let my_var(3)"] {
            assert!(!reads_environment(text), "{text}");
        }
        // A platform read is the environment, but no variable; so is a Java property.
        assert!(!super::reads_variables(
            "if (System.getProperty(       ).startsWith(x)) {"
        ));
        assert!(reads_environment("if runtime.GOOS == \"windows\" {"));
        assert!(!super::reads_variables("if runtime.GOOS == \"windows\" {"));
        assert!(super::reads_variables("if (process.env.CI) {"));
        for text in [
            "if (meanCI.width > 0)",
            "if (isASCII(s))",
            "if (cidr)",
            "ci += 1",
            "PCI",
        ] {
            assert!(!reads_environment(text), "{text}");
        }
    }
}
