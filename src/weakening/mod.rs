//! Weakening findings: what a change does to the tests, wherever the tests live.
//!
//! Each changed file in a supported language that is test code (by path or by markers
//! in its content) is read, old and new, as *units* (`model`): tests, the helpers they
//! call, runner hooks. Tests are matched by name — within the file, then across the
//! files of the change set, then by their checks, then by the imported or helper names
//! that left a file with a test and arrived with another — and compared one by one: the skips
//! on and above each test, and its checks as a set of canonical texts (`checks`, with
//! the per-language table of equivalences in `rules`), counted by strength. A check
//! moved into a helper the test calls still counts; parametrised cases and table rows
//! count as tests; a new test brings nothing to compare, so a skip on it is not a
//! finding. `protected-moved` follows from paths alone.
//!
//! File by file: `model` reads one version of a file (its text in `source`, its units
//! found per language in `units`, its skips in `skips`); `matching` pairs each old test
//! with the test it became; `bags` gathers the checks a test is compared by; `compare`
//! compares one pair; `change_set` runs them over the files of a change. Here: the
//! entry points, and each file as loaded and read.

mod bags;
mod binding;
mod change_set;
pub mod checks;
mod clocks;
mod compare;
mod doctests;
mod exclusions;
mod expectations;
mod filters;
mod gates;
mod generators;
mod golden;
mod guards;
mod knobs;
mod leniency;
pub mod lexer;
mod matching;
pub mod model;
mod opaque;
mod orders;
pub mod rules;
mod setup;
mod skips;
mod source;
mod stubs;
mod swallow;
mod tables;
mod units;
mod unread;

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use similar::{DiffOp, TextDiff};

use crate::changes::{Blobs, Change, Status};
use crate::config::Config;
pub use crate::finding::{Finding, FindingKind};
use crate::policy::Policy;
use change_set::compare_set;
use checks::Strength;
use model::{Model, Unit};
use rules::{Language, Rules};

/// Files larger than this are not analysed (generated fixtures, not hand-written tests).
/// The largest test file the analyser reads: larger ones are refused with an error
/// rather than passed unread (`report`), and none are skipped silently.
pub const MAX_ANALYSED_BYTES: usize = 64 << 20;

/// All findings for a set of changes.
///
/// Tests are matched across the files of the set: a test removed from one file and
/// added (by name, or with the same checks) to another is a move, compared as one
/// test. Added files are read only when some test would otherwise be missing.
pub fn findings(
    changes: &[Change],
    policy: &Policy,
    config: &Config,
    blobs: &dyn Blobs,
) -> Vec<Finding> {
    let mut out = path_findings(changes, policy);
    let rules = RuleSet::new(config);
    let mut files: Vec<Loaded> = Vec::new();
    let mut added: Vec<&Change> = Vec::new();
    for change in changes {
        if change.old_id.is_none() {
            if change.new_id.is_some() {
                added.push(change);
            }
            continue;
        }
        if let Some(loaded) = load(change, policy, blobs, true) {
            if loaded.docs_only {
                // (Its bytes alone: the file is never lexed or modelled.)
                if let (Some(old), Some(new)) = (&loaded.old, &loaded.new) {
                    out.extend(doctests::set_aside(&loaded.path, old, new));
                }
            } else {
                files.push(loaded);
            }
        }
    }
    let mut extra: Vec<Loaded> = Vec::new();
    let may_move = files.iter().any(|f| f.may_lose_tests(&rules));
    if may_move {
        extra = added
            .iter()
            .filter_map(|c| load(c, policy, blobs, false))
            .collect();
    }
    out.extend(compare_set(&files, &extra, &rules));
    out
}

/// Findings that follow from the change list alone.
pub fn path_findings(changes: &[Change], policy: &Policy) -> Vec<Finding> {
    changes
        .iter()
        .filter(|c| c.status == Status::Renamed)
        .filter_map(|c| {
            let old = c.old_path.as_deref()?;
            let new = c.new_path.as_deref()?;
            let from = policy.protecting_pattern(old)?;
            if policy.is_protected(new) {
                return None;
            }
            Some(Finding {
                kind: FindingKind::ProtectedMoved,
                path: new.to_vec(),
                line: None,
                detail: format!(
                    "moved out of protected `{}` (pattern `{from}`)",
                    String::from_utf8_lossy(old)
                ),
                blocking: false,
                test: None,
            })
        })
        .collect()
}

/// Analyses one file's old and new content (`new` absent: deleted), as the hooks do for
/// a changed test file. Returns nothing for a language the analyser does not know.
pub fn analyse(path: &[u8], old: &[u8], new: Option<&[u8]>, config: &Config) -> Vec<Finding> {
    let Some(language) = Language::of_path(path) else {
        return Vec::new();
    };
    let rules = RuleSet::new(config);
    let file = Loaded {
        path: Cow::Borrowed(path),
        language,
        old: Some(Cow::Borrowed(old)),
        new: new.map(Cow::Borrowed),
        docs_only: false,
    };
    compare_set(std::slice::from_ref(&file), &[], &rules)
}

/// The qualified names of the tests in one file's content, as findings name them (none
/// for a language the analyser does not know, or binary content).
pub fn test_names(path: &[u8], content: &[u8], config: &Config) -> Vec<String> {
    let Some(language) = Language::of_path(path) else {
        return Vec::new();
    };
    if is_binary(content) {
        return Vec::new();
    }
    let set = RuleSet::new(config);
    let model = Model::new(content, set.get(language));
    model.tests().map(|(_, unit)| unit.name.clone()).collect()
}

/// Whether a change to one file only adds tests and checks: new test functions or
/// files, new assertions in existing tests; nothing removed, changed or weakened; no
/// new code outside tests other than imports. Runner files, conftest, fixtures and
/// helpers never count. `old` absent: a new file.
pub fn strengthens(path: &[u8], old: Option<&[u8]>, new: &[u8], config: &Config) -> bool {
    let Some(language) = Language::of_path(path) else {
        return false;
    };
    if !rules::is_test_path(path) || rules::is_runner_path(path) || is_binary(new) {
        return false;
    }
    if old.is_some_and(is_binary) {
        return false;
    }
    let set = RuleSet::new(config);
    let rules = set.get(language);
    let after = Model::new(new, rules);
    let before = old.map(|o| Model::new(o, rules));
    if after.tests().next().is_none() {
        return false;
    }
    // Nothing found by the analysis.
    if let Some(old) = old
        && !analyse(path, old, Some(new), config).is_empty()
    {
        return false;
    }
    let old_tests: HashSet<&str> = before
        .as_ref()
        .map(|b| b.tests().map(|(_, u)| u.name.as_str()).collect())
        .unwrap_or_default();
    let new_tests: Vec<&Unit> = after
        .tests()
        .map(|(_, u)| u)
        .filter(|u| !old_tests.contains(u.name.as_str()))
        .collect();
    // A new test that skips or focuses is not an addition, and neither is one without
    // a check that can fail (`pass`, `assert 1 == 1`): it adds nothing to the oracle.
    if new_tests.iter().any(|u| !u.skips.is_empty()) {
        return false;
    }
    let can_fail = |u: &Unit| {
        u.checks
            .iter()
            .any(|&c| after.check_key(c, rules).1 != Strength::Void)
    };
    if !new_tests.iter().all(|u| can_fail(u)) {
        return false;
    }
    let added_lines: Vec<usize> = match &before {
        None => (0..after.src.line_count()).collect(),
        Some(before) => {
            let diff = TextDiff::from_lines(before.src.code.as_str(), after.src.code.as_str());
            let mut lines = Vec::new();
            for op in diff.ops() {
                match *op {
                    DiffOp::Equal { .. } => {}
                    DiffOp::Insert {
                        new_index, new_len, ..
                    } => lines.extend(new_index..new_index + new_len),
                    DiffOp::Delete {
                        old_index, old_len, ..
                    } => {
                        if (old_index..old_index + old_len)
                            .any(|l| !before.src.line_text(l).trim().is_empty())
                        {
                            return false;
                        }
                    }
                    DiffOp::Replace { .. } => return false,
                }
            }
            lines
        }
    };
    if added_lines.is_empty() {
        return false;
    }
    let mut adds_something = old.is_none();
    for line in added_lines {
        let text = after.src.line_text(line).trim();
        if text.is_empty() || structural(text) || import_line(language, text) {
            continue;
        }
        let at = after.src_line_start(line);
        let in_new_test = new_tests.iter().any(|u| u.span.contains(&at));
        if in_new_test {
            adds_something = true;
            continue;
        }
        // A line of an existing test that is part of a new check.
        let in_check = after.tests().any(|(_, u)| {
            u.span.contains(&at)
                && u.checks.iter().any(|&c| {
                    let span = &after.checks[c].span;
                    let (first, last) = (
                        after.src.line_of(span.start),
                        after.src.line_of(span.end.saturating_sub(1)),
                    );
                    (first..=last).contains(&line)
                })
        });
        if in_check {
            adds_something = true;
            continue;
        }
        if container_header(language, text) {
            continue;
        }
        return false;
    }
    adds_something
}

/// Whether a change (with its blobs) is a pure strengthening; see [`strengthens`].
/// Renames, deletions and type changes never are.
pub fn is_strengthening(change: &Change, config: &Config, blobs: &dyn Blobs) -> bool {
    if !matches!(change.status, Status::Added | Status::Modified) {
        return false;
    }
    let Some(new_id) = change.new_id else {
        return false;
    };
    let Some(new) = blobs.blob(new_id) else {
        return false;
    };
    let old = match change.old_id {
        Some(id) => match blobs.blob(id) {
            Some(old) => Some(old),
            None => return false,
        },
        None => None,
    };
    strengthens(change.path(), old.as_deref(), &new, config)
}

fn structural(text: &str) -> bool {
    text == "end"
        || text.bytes().all(|b| {
            matches!(
                b,
                b'{' | b'}'
                    | b'('
                    | b')'
                    | b'['
                    | b']'
                    | b';'
                    | b','
                    | b'"'
                    | b'\''
                    | b'`'
                    | b' '
                    | b'\t'
            )
        })
}

fn import_line(language: Language, text: &str) -> bool {
    let starts = |p: &[&str]| p.iter().any(|s| text.starts_with(s));
    match language {
        Language::Python => starts(&["import ", "from "]),
        Language::Rust => starts(&["use ", "pub use ", "extern crate "]),
        Language::JavaScript => {
            starts(&["import ", "import{", "export {"])
                || (starts(&["const ", "let ", "var "]) && text.contains("require("))
        }
        Language::Go => starts(&["import ", "package "]),
        Language::Java => starts(&["import ", "package "]),
        Language::Ruby => starts(&["require ", "require_relative "]),
        // (A `using (…)` or `using var …` statement disposes of what it holds.)
        Language::CSharp => {
            starts(&["namespace "])
                || text.strip_prefix("using ").is_some_and(|rest| {
                    let rest = rest.trim_start();
                    !rest.starts_with('(') && !rest.starts_with("var ")
                })
        }
    }
}

fn container_header(language: Language, text: &str) -> bool {
    let starts = |p: &[&str]| p.iter().any(|s| text.starts_with(s));
    match language {
        Language::Python => {
            text.starts_with("class ")
                && text.ends_with(':')
                && (text.starts_with("class Test") || text.contains("TestCase"))
        }
        Language::Rust => {
            text == "#[cfg(test)]" || (starts(&["mod ", "pub mod "]) && text.ends_with('{'))
        }
        Language::JavaScript => starts(&["describe(", "describe (", "context(", "suite("]),
        Language::Java | Language::CSharp => starts(&[
            "class ",
            "public class ",
            "internal class ",
            "public sealed class ",
            "@Nested",
            "[TestFixture",
            "[TestClass",
        ]),
        Language::Ruby => starts(&[
            "describe ",
            "context ",
            "RSpec.describe ",
            "class ",
            "module ",
        ]),
        Language::Go => false,
    }
}

/// Built-in rules per language, or rules with guard.toml's markers.
struct RuleSet<'c> {
    config: &'c Config,
    custom: [OnceLock<Rules>; 7],
}

impl<'c> RuleSet<'c> {
    fn new(config: &'c Config) -> RuleSet<'c> {
        RuleSet {
            config,
            custom: [const { OnceLock::new() }; 7],
        }
    }

    fn get(&self, language: Language) -> &Rules {
        match self.config.weakening.markers.get(language.key()) {
            Some(markers) => {
                self.custom[language.index()].get_or_init(|| Rules::new(language, Some(markers)))
            }
            None => default_rules(language),
        }
    }
}

fn default_rules(language: Language) -> &'static Rules {
    static CACHE: [OnceLock<Rules>; 7] = [const { OnceLock::new() }; 7];
    CACHE[language.index()].get_or_init(|| Rules::new(language, None))
}

fn is_binary(bytes: &[u8]) -> bool {
    bytes.len() > MAX_ANALYSED_BYTES || memchr::memchr(0, &bytes[..bytes.len().min(8000)]).is_some()
}

/// One changed file's contents.
struct Loaded<'b> {
    path: Cow<'b, [u8]>,
    language: Language,
    old: Option<Cow<'b, [u8]>>,
    new: Option<Cow<'b, [u8]>>,
    /// Read for its doc examples alone (a Rust source file without tests).
    docs_only: bool,
}

impl Loaded<'_> {
    /// Whether a quick look says a test may have gone (fewer definitions, or a delete).
    fn may_lose_tests(&self, rules: &RuleSet) -> bool {
        let (Some(old), new) = (&self.old, &self.new) else {
            return false;
        };
        let Some(new) = new else { return true };
        let r = rules.get(self.language);
        let lines = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
        r.defs.find_iter(old).count() > r.defs.find_iter(new).count()
            || memchr::memmem::find(old, b"def test").is_some() // renamed classes
            || lines(old) > lines(new) // table rows moved out
    }
}

/// Reads a change's contents when it is test code in a known language.
fn load(
    change: &Change,
    policy: &Policy,
    blobs: &dyn Blobs,
    with_old: bool,
) -> Option<Loaded<'static>> {
    // Unchanged content (an exact rename): what the move does is a path finding.
    if change.old_id.is_some() && change.new_id == change.old_id {
        return None;
    }
    let language = change.paths().find_map(Language::of_path)?;
    let by_path = change
        .paths()
        .any(|p| rules::is_test_path(p) || policy.is_protected(p));
    if !by_path && language.inline_test_markers().is_empty() {
        return None;
    }
    let old = match (with_old, change.old_id) {
        (true, Some(id)) => Some(blobs.blob(id)?),
        _ => None,
    };
    let new = match change.new_id {
        Some(id) => Some(blobs.blob(id)?),
        None => None,
    };
    if [old.as_ref(), new.as_ref()]
        .into_iter()
        .flatten()
        .any(|b| is_binary(b))
    {
        return None;
    }
    if !by_path {
        let marked = language.inline_test_markers().iter().any(|m| {
            [old.as_ref(), new.as_ref()]
                .into_iter()
                .flatten()
                .any(|b| memchr::memmem::find(b, m.as_bytes()).is_some())
        });
        if !marked {
            // (A Rust source file with doc examples, which `cargo test` runs, is read
            // for them alone.)
            let documented = language == Language::Rust
                && [old.as_ref(), new.as_ref()]
                    .into_iter()
                    .flatten()
                    .all(|b| memchr::memmem::find(b, b"```").is_some());
            if !documented || old.is_none() || new.is_none() {
                return None;
            }
            return Some(Loaded {
                path: Cow::Owned(change.path().to_vec()),
                language,
                old: old.map(Cow::Owned),
                new: new.map(Cow::Owned),
                docs_only: true,
            });
        }
    }
    Some(Loaded {
        path: Cow::Owned(change.path().to_vec()),
        language,
        old: old.map(Cow::Owned),
        new: new.map(Cow::Owned),
        docs_only: false,
    })
}

/// One file, read on both sides.
struct File<'a> {
    path: &'a [u8],
    rules: &'a Rules,
    old: Option<Model<'a>>,
    new: Option<Model<'a>>,
    /// Old line → new line (a deleted line maps to where it was).
    map: OnceLock<Vec<usize>>,
}

impl File<'_> {
    fn map_line(&self, old_line: usize) -> usize {
        let (Some(old), Some(new)) = (&self.old, &self.new) else {
            return old_line;
        };
        let map = self.map.get_or_init(|| {
            // Over our own lines (split at `\n` only): `from_lines` also splits at a
            // lone `\r`, which would index past this map.
            let a: Vec<&str> = old.src.code.split_inclusive('\n').collect();
            let b: Vec<&str> = new.src.code.split_inclusive('\n').collect();
            let diff = TextDiff::from_slices(&a, &b);
            let mut map = vec![0; old.src.line_count() + 1];
            for op in diff.ops() {
                match *op {
                    DiffOp::Equal {
                        old_index,
                        new_index,
                        len,
                    } => (0..len).for_each(|k| map[old_index + k] = new_index + k),
                    DiffOp::Delete {
                        old_index,
                        old_len,
                        new_index,
                    } => (0..old_len).for_each(|k| map[old_index + k] = new_index),
                    DiffOp::Replace {
                        old_index,
                        old_len,
                        new_index,
                        new_len,
                    } => (0..old_len).for_each(|k| {
                        map[old_index + k] = new_index + k.min(new_len.saturating_sub(1))
                    }),
                    DiffOp::Insert { .. } => {}
                }
            }
            map
        });
        let last = new
            .src
            .line_count()
            .saturating_sub(if new.src.code.ends_with('\n') { 2 } else { 1 });
        map.get(old_line).copied().unwrap_or(old_line).min(last)
    }
}

/// A test on one side: (file index, unit index).
type At = (usize, usize);

/// A finding at a 0-based `line`, naming its test (an empty name: none).
fn finding(
    path: &[u8],
    kind: FindingKind,
    line: Option<usize>,
    detail: String,
    test: Option<&str>,
) -> Finding {
    Finding {
        kind,
        path: path.to_vec(),
        line: line.map(|l| l as u32 + 1),
        detail,
        blocking: false,
        test: test.filter(|t| !t.is_empty()).map(String::from),
    }
}

impl Model<'_> {
    /// The offset where a line starts.
    fn src_line_start(&self, line: usize) -> usize {
        let text = self.src.line_text(line);
        text.as_ptr() as usize - self.src.code.as_ptr() as usize
    }
}

#[cfg(test)]
mod tests;
