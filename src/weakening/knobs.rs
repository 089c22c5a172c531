//! Property tests told to run fewer cases (and repeated tests fewer times): a count lowered
//! (`@settings(max_examples=500)` → `2`, fast-check `numRuns: 1000` → `5`, proptest
//! `with_cases(512)` → `1`, kotest `checkAll(500, …)` → `5`, `invocations = 500` →
//! `5`), set below the framework's default on a test that ran with the default, or
//! dropped from a test that ran more than the default. The checks read the same;
//! the inputs they see are fewer, so a bug the generator used to find passes.
//!
//! Likewise a concurrent test cut to one worker (`const workers = 50` → `1`, `new
//! Task<int>[10]` → `[1]`): nothing runs at the same time, so a race passes.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use super::model::{Model, Role};
use super::rules::Language;
use super::{File, finding};
use crate::finding::{Finding, FindingKind};

/// A setting of how many cases a property runs: a word it cannot be written without,
/// its pattern (the count in group 1) and the framework's default, used when a test
/// that had no setting gets one.
struct Knob {
    marker: &'static str,
    pattern: &'static str,
    default: u64,
}

const KNOBS: &[Knob] = &[
    // Hypothesis.
    Knob {
        marker: "max_examples",
        pattern: r"\bmax_examples[ \t]*=[ \t]*([0-9][0-9_]*)\b",
        default: 100,
    },
    // fast-check.
    Knob {
        marker: "numRuns",
        pattern: r"\bnumRuns[ \t]*:[ \t]*([0-9][0-9_]*)\b",
        default: 100,
    },
    // proptest.
    Knob {
        marker: "with_cases",
        pattern: r"\bwith_cases[ \t]*\([ \t]*([0-9][0-9_]*)[ \t]*\)",
        default: 256,
    },
    Knob {
        marker: "ProptestConfig",
        pattern: r"\bProptestConfig[ \t]*\{[^{}]*?\bcases[ \t]*:[ \t]*([0-9][0-9_]*)\b",
        default: 256,
    },
    // QuickCheck's `QuickCheck::new().tests(2_000)`.
    Knob {
        marker: ".tests(",
        pattern: r"\.tests[ \t]*\([ \t]*([0-9][0-9_]*)[ \t]*\)",
        default: 100,
    },
    // kotest.
    Knob {
        marker: "All",
        pattern: r"\b(?:checkAll|forAll)[ \t]*(?:<[^<>()]*>)?[ \t]*\([ \t]*([0-9][0-9_]*)[ \t]*[,)]",
        default: 1000,
    },
    Knob {
        marker: "PropTestConfig",
        pattern: r"\bPropTestConfig[ \t]*\([^()]*?\biterations[ \t]*=[ \t]*([0-9][0-9_]*)\b",
        default: 1000,
    },
    // kotest's `.config(invocations = 500)`: a test run that many times.
    Knob {
        marker: "invocations",
        pattern: r"\.config[ \t]*\([^()]*\binvocations[ \t]*=[ \t]*([0-9][0-9_]*)\b",
        default: 1,
    },
    // jqwik.
    Knob {
        marker: "@Property",
        pattern: r"@Property[ \t]*\([^()]*?\btries[ \t]*=[ \t]*([0-9][0-9_]*)\b",
        default: 1000,
    },
    // FsCheck.
    Knob {
        marker: "Max",
        pattern: r"\bMax(?:Test|NbOfTest)[ \t]*=[ \t]*([0-9][0-9_]*)\b",
        default: 100,
    },
    // JUnit 5's `@RepeatedTest(50)` and NUnit's `[Repeat(50)]`: a randomised test run
    // fewer times.
    Knob {
        marker: "@RepeatedTest",
        pattern: r"@RepeatedTest[ \t]*\((?:[ \t]*value[ \t]*=)?[ \t]*([0-9][0-9_]*)\b",
        default: 1,
    },
    Knob {
        marker: "Repeat",
        pattern: r"\[[ \t]*Repeat[ \t]*\([ \t]*([0-9][0-9_]*)[ \t]*\)",
        default: 1,
    },
    // Go's testing/quick.
    Knob {
        marker: "quick.Config",
        pattern: r"\bquick\.Config[ \t]*\{[^{}]*?\bMaxCount[ \t]*:[ \t]*([0-9][0-9_]*)\b",
        default: 100,
    },
];

fn patterns() -> &'static [Regex] {
    static ONCE: OnceLock<Vec<Regex>> = OnceLock::new();
    ONCE.get_or_init(|| {
        KNOBS
            .iter()
            .map(|k| Regex::new(k.pattern).expect("knob pattern"))
            .collect()
    })
}

/// One setting found: which knob, its count, its line, and the test it sits in (by
/// name; `None` outside every test).
struct Setting {
    knob: usize,
    count: u64,
    line: usize,
    test: Option<String>,
}

fn settings(model: &Model) -> Vec<Setting> {
    let code = &model.src.code;
    let mut out = Vec::new();
    for (knob, re) in patterns().iter().enumerate() {
        if memchr::memmem::find(code.as_bytes(), KNOBS[knob].marker.as_bytes()).is_none() {
            continue;
        }
        for caps in re.captures_iter(code) {
            let Some(count) = caps
                .get(1)
                .and_then(|m| m.as_str().replace('_', "").parse().ok())
            else {
                continue;
            };
            let pos = caps.get(0).map_or(0, |m| m.start());
            let test = model
                .unit_at(pos)
                .map(|u| &model.units[u])
                .filter(|u| u.role == Role::Test)
                .map(|u| u.name.clone());
            out.push(Setting {
                knob,
                count,
                line: model.src.line_of(pos),
                test,
            });
        }
    }
    out
}

/// Findings for property settings that run fewer cases than before: per test (or
/// outside every test) and knob, the settings in order, old against new; a setting new
/// on a test that had none is compared with the framework's default.
pub(super) fn fewer_cases(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    // (Read only where a knob's name is in the text at all.)
    let named = |m: &Model| {
        let code = m.src.code.as_bytes();
        KNOBS
            .iter()
            .any(|k| memchr::memmem::find(code, k.marker.as_bytes()).is_some())
    };
    if !named(new) && !named(old) {
        return Vec::new();
    }
    type Key = (Option<String>, usize);
    let group = |m: &Model| -> HashMap<Key, Vec<(u64, usize)>> {
        let mut by: HashMap<Key, Vec<(u64, usize)>> = HashMap::new();
        for s in settings(m) {
            by.entry((s.test, s.knob))
                .or_default()
                .push((s.count, s.line));
        }
        by
    };
    let (was, now) = (group(old), group(new));
    let old_tests: std::collections::HashSet<&str> = old
        .units
        .iter()
        .filter(|u| u.role == Role::Test)
        .map(|u| u.name.as_str())
        .collect();
    let mut out = Vec::new();
    for ((test, knob), counts) in &now {
        let before: Vec<u64> = match was.get(&(test.clone(), *knob)) {
            Some(b) => b.iter().map(|(c, _)| *c).collect(),
            // A test that ran with the default, given a setting.
            None if test.as_deref().is_some_and(|t| old_tests.contains(t)) => {
                vec![KNOBS[*knob].default]
            }
            None => continue,
        };
        for (&(count, line), &had) in counts.iter().zip(&before) {
            if count < had {
                out.push(finding(
                    file.path,
                    FindingKind::AssertionLoosened,
                    Some(line),
                    format!(
                        "`{}`: the property now runs {count} case{}, {had} before",
                        new.src.shown(line),
                        if count == 1 { "" } else { "s" }
                    ),
                    test.as_deref(),
                ));
            }
        }
    }
    // A setting dropped from a test still there: it runs with the default again.
    let new_tests: std::collections::HashMap<&str, usize> = new
        .units
        .iter()
        .filter(|u| u.role == Role::Test)
        .map(|u| (u.name.as_str(), u.line))
        .collect();
    for ((test, knob), counts) in &was {
        let Some(&line) = test.as_deref().and_then(|t| new_tests.get(t)) else {
            continue;
        };
        let default = KNOBS[*knob].default;
        if now.contains_key(&(test.clone(), *knob)) || counts.iter().all(|(c, _)| *c <= default) {
            continue;
        }
        let had = counts.iter().map(|(c, _)| *c).max().unwrap_or(default);
        if KNOBS[*knob].marker == "max_examples" && profile_cases(new, line) >= Some(had) {
            continue;
        }
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(line),
            format!(
                "`{}`: its setting of {had} cases is gone, so it runs the default {default}",
                test.as_deref().unwrap_or("")
            ),
            test.as_deref(),
        ));
    }
    out.sort_by_key(|f| f.line);
    out
}

/// The fewest cases the Hypothesis profiles a test runs under register
/// (`@settings(settings.get_profile("thorough"))` above the test at `line`, or
/// `settings.load_profile("ci")` for the module, each with `register_profile("ci",
/// max_examples=500)` in the file), if it runs under any and each is registered so.
fn profile_cases(model: &Model, line: usize) -> Option<u64> {
    static USED: OnceLock<Regex> = OnceLock::new();
    static REGISTERED: OnceLock<Regex> = OnceLock::new();
    let used = USED.get_or_init(|| {
        Regex::new(r#"\b(get|load)_profile[ \t]*\([ \t]*["']([\w.-]+)["']"#).expect("profile use")
    });
    let registered = REGISTERED.get_or_init(|| {
        Regex::new(r#"\bregister_profile[ \t]*\([ \t]*["']([\w.-]+)["'][^)]*\bmax_examples[ \t]*=[ \t]*([0-9][0-9_]*)"#)
            .expect("profile registration")
    });
    let raw = String::from_utf8_lossy(model.src.raw);
    let above = model.src.line_start(line.saturating_sub(4));
    let head = model.src.line_end(line).min(raw.len());
    let names: Vec<&str> = used
        .captures_iter(&raw)
        .filter(|c| {
            let at = c.get(0).map_or(0, |m| m.start());
            &c[1] == "load" || (above..head).contains(&at)
        })
        .filter_map(|c| c.get(2).map(|m| m.as_str()))
        .collect();
    names
        .iter()
        .map(|name| {
            registered
                .captures_iter(&raw)
                .filter(|c| &c[1] == *name)
                .filter_map(|c| c[2].replace('_', "").parse::<u64>().ok())
                .min()
        })
        .min()
        .flatten()
}

/// Calls and keywords that start work running at the same time.
const CONCURRENT: &[&str] = &[
    "go func",
    "sync.WaitGroup",
    "errgroup.",
    "Task.Run(",
    "Task.WhenAll(",
    "Parallel.For",
    "new Thread(",
    "Thread(",
    "thread::spawn(",
    "tokio::spawn(",
    "Executors.",
    "ExecutorService",
    "CountDownLatch",
    "CompletableFuture.",
    "runBlocking",
    "async {",
    "launch {",
    "threading.Thread(",
    "ThreadPoolExecutor(",
    "asyncio.gather(",
    "Promise.all(",
];

/// Findings for a concurrent test whose count of workers, tasks or goroutines went
/// from several to one: the same line with one number lowered to 1 (or 0).
pub(super) fn concurrency_cut(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for unit in new.units.iter().filter(|u| u.role == Role::Test) {
        let now = &new.src.code[unit.span.clone()];
        if !CONCURRENT.iter().any(|c| now.contains(c)) {
            continue;
        }
        let Some(was) = old
            .units
            .iter()
            .find(|u| u.role == Role::Test && u.name == unit.name)
            .map(|u| &old.src.code[u.span.clone()])
        else {
            continue;
        };
        let lines_was: Vec<&str> = was.lines().map(str::trim).collect();
        let first = new.src.line_of(unit.span.start);
        for (i, line) in now.lines().enumerate() {
            let line = line.trim();
            // (Not a check, nor the condition of one: `assert.Equal(t, 2, n)` → `1`,
            // Go's `if n != 2 {` → `1`, is an expectation changed.)
            if line.is_empty()
                || lines_was.contains(&line)
                || file.rules.checks.is_match(line.as_bytes())
                || line.starts_with("if ")
                || line.starts_with("if(")
                || line.starts_with("} else if")
            {
                continue;
            }
            // Go: a goroutine's `go` dropped, so the closure runs inline, one after
            // another (`go func(w int) {` → `func(w int) {`).
            let inline = file.rules.language == Language::Go
                && line.starts_with("func(")
                && lines_was
                    .iter()
                    .any(|w| w.strip_prefix("go ") == Some(line));
            let cut = lines_was.iter().find_map(|w| {
                let (a, b) = super::checks::changed_number(w, line)?;
                let (a, b) = (a.parse::<u64>().ok()?, b.parse::<u64>().ok()?);
                (a >= 2 && b <= 1).then_some((a, b))
            });
            let why = match (inline, cut) {
                (true, _) => "the goroutine's `go` is dropped, so each runs in turn".to_string(),
                (false, Some((a, b))) => {
                    format!("the concurrent test now runs {b} at a time where it ran {a}")
                }
                (false, None) => continue,
            };
            let at = first + i;
            out.push(finding(
                file.path,
                FindingKind::AssertionLoosened,
                Some(at),
                format!("`{}`: {why}, so nothing overlaps", new.src.shown(at)),
                Some(&unit.name),
            ));
            break;
        }
    }
    out
}
