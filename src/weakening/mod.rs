//! Weakening findings: what a change does to the tests, wherever the tests live.
//!
//! Each changed file in a supported language that is test code (by path or by markers
//! in its content) is read, old and new, as *units* (`model`): tests, the helpers they
//! call, runner hooks. Tests are matched by name — within the file, then across the
//! files of the change set, then by their checks — and compared one by one: the skips
//! on and above each test, and its checks as a set of canonical texts (`checks`, with
//! the per-language table of equivalences in `rules`), counted by strength. A check
//! moved into a helper the test calls still counts; parametrised cases and table rows
//! count as tests; a new test brings nothing to compare, so a skip on it is not a
//! finding. `protected-moved` follows from paths alone.

pub mod checks;
pub mod lexer;
pub mod model;
pub mod rules;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use similar::{DiffOp, TextDiff};

use crate::changes::{Blobs, Change, Status};
use crate::config::Config;
pub use crate::finding::{Finding, FindingKind};
use crate::policy::Policy;
use checks::Strength;
use model::{Model, Role, SkipKind, Unit};
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
            files.push(loaded);
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
    };
    compare_set(std::slice::from_ref(&file), &[], &rules)
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
        Language::CSharp => starts(&["using ", "namespace "]),
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
}

impl Loaded<'_> {
    /// Whether a quick look says a test may have gone (fewer definitions, or a delete).
    fn may_lose_tests(&self, rules: &RuleSet) -> bool {
        let (Some(old), new) = (&self.old, &self.new) else {
            return false;
        };
        let Some(new) = new else { return true };
        let r = rules.get(self.language);
        r.defs.find_iter(old).count() > r.defs.find_iter(new).count()
            || memchr::memmem::find(old, b"def test").is_some() // renamed classes
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
            return None;
        }
    }
    Some(Loaded {
        path: Cow::Owned(change.path().to_vec()),
        language,
        old: old.map(Cow::Owned),
        new: new.map(Cow::Owned),
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
            let diff = TextDiff::from_lines(old.src.code.as_str(), new.src.code.as_str());
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

fn compare_set(files: &[Loaded], extra: &[Loaded], rules: &RuleSet) -> Vec<Finding> {
    let read: Vec<File> = files
        .iter()
        .chain(extra)
        .map(|f| {
            let r = rules.get(f.language);
            File {
                path: &f.path,
                rules: r,
                old: f.old.as_deref().map(|b| Model::new(b, r)),
                new: f.new.as_deref().map(|b| Model::new(b, r)),
                map: OnceLock::new(),
            }
        })
        .collect();
    let mut out = Vec::new();
    let mut pairs: Vec<(At, At)> = Vec::new();
    let mut removed: Vec<At> = Vec::new();
    let mut added: Vec<At> = Vec::new();

    for (fi, file) in read.iter().enumerate() {
        if let (Some(old), Some(new)) = (&file.old, &file.new)
            && old.src.code == new.src.code
        {
            continue; // only comments or strings changed
        }
        let old_tests: Vec<usize> = file
            .old
            .as_ref()
            .map(|m| live_tests(m).collect())
            .unwrap_or_default();
        let new_tests: Vec<usize> = file
            .new
            .as_ref()
            .map(|m| live_tests(m).collect())
            .unwrap_or_default();
        let (matched, left_old, left_new) =
            match_by_name(file.old.as_ref(), &old_tests, file.new.as_ref(), &new_tests);
        pairs.extend(matched.into_iter().map(|(o, n)| ((fi, o), (fi, n))));
        removed.extend(left_old.into_iter().map(|o| (fi, o)));
        added.extend(left_new.into_iter().map(|n| (fi, n)));
        // Helpers and hooks are compared by name too (a loosened helper, a skip in
        // `setUp`), without ever being "removed".
        if let (Some(old), Some(new)) = (&file.old, &file.new) {
            out.extend(compare_helpers(file, old, new));
            out.extend(shadowing(file, old, new));
        }
    }

    // Tests missing from one file found in another: by name, then by their checks
    // (the test whose checks hold all of the missing one's, closest first; then by
    // the checks' shapes: moved, renamed and with values edited).
    if !removed.is_empty() && read.len() > 1 {
        let mut taken: HashSet<At> = HashSet::new();
        let mut still = Vec::new();
        for &r in &removed {
            let Some(ru) = read[r.0].old.as_ref().map(|m| &m.units[r.1]) else {
                continue;
            };
            let candidate = added
                .iter()
                .filter(|a| a.0 != r.0 && !taken.contains(a))
                .find(|a| new_unit(&read, **a).name == ru.name)
                .or_else(|| {
                    added
                        .iter()
                        .filter(|a| a.0 != r.0 && !taken.contains(a))
                        .find(|a| new_unit(&read, **a).leaf == ru.leaf)
                })
                .copied();
            match candidate {
                Some(a) => {
                    taken.insert(a);
                    pairs.push((r, a));
                }
                None => still.push(r),
            }
        }
        let keys_of = |at: At, old_side: bool| -> HashSet<String> {
            let file = &read[at.0];
            let model = if old_side {
                file.old.as_ref()
            } else {
                file.new.as_ref()
            };
            model.map_or_else(HashSet::new, |m| {
                own_keys(Some(m), &m.units[at.1], file.rules)
            })
        };
        let shapes = |keys: &HashSet<String>| -> HashSet<String> {
            keys.iter().map(|k| checks::shape(k)).collect()
        };
        let mut by_checks: Vec<(At, HashSet<String>)> =
            still.drain(..).map(|r| (r, keys_of(r, true))).collect();
        by_checks.sort_by_key(|(r, keys)| (std::cmp::Reverse(keys.len()), *r));
        // Arrivals with their checks and shapes, indexed by each (only those holding
        // a missing test's first check can hold all of it).
        let arrivals: Vec<(At, HashSet<String>, HashSet<String>)> = added
            .iter()
            .map(|&a| {
                let keys = keys_of(a, false);
                let sh = shapes(&keys);
                (a, keys, sh)
            })
            .collect();
        let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_shape: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, (_, keys, sh)) in arrivals.iter().enumerate() {
            for k in keys {
                by_key.entry(k).or_default().push(i);
            }
            for k in sh {
                by_shape.entry(k).or_default().push(i);
            }
        }
        for (r, keys) in by_checks {
            let mine = shapes(&keys);
            // The arrival holding all of `want` (in its `pick`ed set) with the fewest
            // others.
            let best = |want: &HashSet<String>, index: &HashMap<&str, Vec<usize>>, by_shape| {
                let pick = |i: usize| {
                    if by_shape {
                        &arrivals[i].2
                    } else {
                        &arrivals[i].1
                    }
                };
                let first = want.iter().next()?;
                index
                    .get(first.as_str())?
                    .iter()
                    .filter(|&&i| !taken.contains(&arrivals[i].0))
                    .filter(|&&i| want.iter().all(|k| pick(i).contains(k)))
                    .map(|&i| (pick(i).len() - want.len(), arrivals[i].0))
                    .min()
                    .map(|(_, a)| a)
            };
            let candidate = best(&keys, &by_key, false).or_else(|| best(&mine, &by_shape, true));
            match candidate {
                Some(a) => {
                    taken.insert(a);
                    pairs.push((r, a));
                }
                None => still.push(r),
            }
        }
        still.sort();
        removed = still;
        added.retain(|a| !taken.contains(a));
    }

    // Checks that appear in the change (in new tests, or new in changed ones): a
    // check moved out of one test into another, in any file, is not lost.
    let mut appeared = Appeared::default();
    for &(f, u) in &added {
        if let Some(model) = &read[f].new {
            for item in bag(model, &model.units[u], read[f].rules) {
                appeared.add(item.key, item.strength, true);
            }
        }
    }
    for &(o, n) in &pairs {
        let (Some(old), Some(new)) = (read[o.0].old.as_ref(), read[n.0].new.as_ref()) else {
            continue;
        };
        let (ou, nu) = (&old.units[o.1], &new.units[n.1]);
        if old.src.code[ou.span.clone()] != new.src.code[nu.span.clone()] {
            let had = own_keys(Some(old), ou, read[o.0].rules);
            for &c in &nu.checks {
                let (key, strength) = new.check_key(c, read[n.0].rules);
                let fresh = !had.contains(&key);
                appeared.add(key, strength, fresh);
            }
        }
    }
    // Checks new outside any test (module level, a helper, a class field holding a
    // failing stub) were moved there.
    for file in &read {
        if let Some(new) = &file.new {
            let outside = |m: &Model| -> Vec<(String, Strength)> {
                let in_helpers = m
                    .units
                    .iter()
                    .filter(|u| u.role == Role::Helper)
                    .flat_map(|u| u.checks.iter().copied());
                m.loose_checks
                    .iter()
                    .copied()
                    .chain(in_helpers)
                    .map(|c| m.check_key(c, file.rules))
                    .collect()
            };
            let had: HashSet<String> = file
                .old
                .as_ref()
                .map(|old| outside(old).into_iter().map(|(k, _)| k).collect())
                .unwrap_or_default();
            for (key, strength) in outside(new) {
                if !had.contains(&key) {
                    appeared.add(key, strength, true);
                }
            }
        }
    }
    let changed_helpers: Vec<bool> = read
        .iter()
        .map(|f| match (&f.old, &f.new) {
            (Some(old), Some(new)) => helpers_changed(old, new),
            _ => true,
        })
        .collect();
    for (o, n) in &pairs {
        out.extend(compare_pair(&read, *o, *n, changed_helpers[o.0], &appeared));
    }

    // What is still missing, file by file.
    let mut by_file: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, u) in &removed {
        by_file.entry(*f).or_default().push(*u);
    }
    let mut files_sorted: Vec<_> = by_file.into_iter().collect();
    files_sorted.sort();
    for (fi, mut gone) in files_sorted {
        let file = &read[fi];
        let Some(old) = &file.old else { continue };
        // An exact duplicate removed (the same body, under another name, still in the
        // file) loses nothing.
        if let Some(new) = &file.new {
            let bodies: HashSet<String> = live_tests(new)
                .filter(|&u| !new.units[u].checks.is_empty())
                .map(|u| body_text(new, &new.units[u]))
                .collect();
            gone.retain(|&u| !bodies.contains(&body_text(old, &old.units[u])));
            if gone.is_empty() {
                continue;
            }
        }
        let Some(new) = &file.new else {
            let all = live_tests(old).count();
            let detail = if gone.len() == all {
                format!("test file deleted ({all} {})", plural(all, "test", "tests"))
            } else {
                format!(
                    "test file deleted ({} of its {all} tests are not found elsewhere in the change)",
                    gone.len()
                )
            };
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                None,
                detail,
                None,
            ));
            continue;
        };
        let arrived: Vec<usize> = added.iter().filter(|a| a.0 == fi).map(|a| a.1).collect();
        let cases_gone: usize = gone.iter().map(|&u| old.units[u].cases).sum();
        let cases_new: usize = arrived.iter().map(|&u| new.units[u].cases).sum();
        let first = &old.units[gone[0]];
        let line = file.map_line(first.line);
        if !arrived.is_empty() && cases_new >= cases_gone {
            // Tests merged or split (a parametrize or table refactor): compare what
            // they check, together.
            let before = bag_of(old, &gone, file.rules);
            let after = bag_of(new, &arrived, file.rules);
            out.extend(compare_bags(
                file,
                &before,
                &after,
                line,
                &first.name,
                old,
                new,
                &appeared,
            ));
            continue;
        }
        if arrived.is_empty() {
            for &u in &gone {
                let unit = &old.units[u];
                out.push(finding(
                    file.path,
                    FindingKind::TestRemoved,
                    Some(file.map_line(unit.line)),
                    format!("`{}` removed", unit.name),
                    Some(&unit.name),
                ));
            }
        } else {
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                Some(line),
                format!(
                    "{cases_gone} {} removed ({}), {cases_new} added in their place",
                    plural(cases_gone, "test case", "test cases"),
                    gone.iter()
                        .map(|&u| format!("`{}`", old.units[u].name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(&first.name),
            ));
        }
        let lost: usize = gone
            .iter()
            .map(|&u| distinct_checks(old, &old.units[u], file.rules))
            .sum();
        if lost > 0 {
            out.push(finding(
                file.path,
                FindingKind::AssertionsRemoved,
                Some(line),
                format!(
                    "{lost} {} went with the removed {}",
                    plural(lost, "check", "checks"),
                    plural(gone.len(), "test", "tests")
                ),
                Some(&first.name),
            ));
        }
    }

    // Module-level checks (outside any test) of files present on both sides.
    for file in &read {
        if let (Some(old), Some(new)) = (&file.old, &file.new)
            && old.src.code != new.src.code
        {
            let before = loose_bag(old, file.rules);
            let after = loose_bag(new, file.rules);
            if !before.is_empty() {
                let line = before
                    .iter()
                    .map(|c| file.map_line(c.line))
                    .next()
                    .unwrap_or(0);
                out.extend(compare_bags(
                    file, &before, &after, line, "", old, new, &appeared,
                ));
            }
        }
    }

    dedup(&mut out);
    out.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    out
}

/// A unit's source after its first line (its name), spacing squeezed.
fn body_text(model: &Model, unit: &Unit) -> String {
    let first_line_end = model.src.line_end(model.src.line_of(unit.span.start));
    let from = first_line_end.clamp(unit.span.start, unit.span.end);
    checks::squeeze(&model.src.text(from..unit.span.end))
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 { one } else { many }
}

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

fn dedup(out: &mut Vec<Finding>) {
    let mut seen = HashSet::new();
    out.retain(|f| seen.insert((f.kind, f.path.clone(), f.line)));
}

fn new_unit<'m>(read: &'m [File], at: At) -> &'m Unit {
    &read[at.0].new.as_ref().map(|m| &m.units[..]).unwrap_or(&[])[at.1]
}

/// Tests the runner collects (a test redefined later in its scope does not run).
fn live_tests<'m>(model: &'m Model) -> impl Iterator<Item = usize> + 'm {
    model
        .tests()
        .filter(|(_, u)| u.shadowed_by.is_none())
        .map(|(i, _)| i)
}

/// Matches tests by qualified name, then what is left by the name alone.
fn match_by_name(
    old: Option<&Model>,
    old_tests: &[usize],
    new: Option<&Model>,
    new_tests: &[usize],
) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let (Some(old), Some(new)) = (old, new) else {
        return (Vec::new(), old_tests.to_vec(), new_tests.to_vec());
    };
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for &n in new_tests {
        by_name
            .entry(new.units[n].name.as_str())
            .or_default()
            .push(n);
    }
    let mut pairs = Vec::new();
    let mut left_old = Vec::new();
    for &o in old_tests {
        match by_name.get_mut(old.units[o].name.as_str()) {
            Some(list) if !list.is_empty() => pairs.push((o, list.remove(0))),
            _ => left_old.push(o),
        }
    }
    let mut left_new: Vec<usize> = by_name.into_values().flatten().collect();
    left_new.sort_unstable();
    // A renamed class or suite: the same leaf name, once on each side.
    let mut still_old = Vec::new();
    for o in left_old {
        let leaf = old.units[o].leaf.as_str();
        let same: Vec<usize> = left_new
            .iter()
            .copied()
            .filter(|&n| new.units[n].leaf == leaf)
            .collect();
        let unique_old = old_tests
            .iter()
            .filter(|&&x| old.units[x].leaf == leaf)
            .count()
            == 1;
        if same.len() == 1 && unique_old {
            pairs.push((o, same[0]));
            left_new.retain(|&n| n != same[0]);
        } else {
            still_old.push(o);
        }
    }
    (pairs, still_old, left_new)
}

/// The checks a change brings in (in new tests, or new in changed ones): a check lost
/// from one test and brought in elsewhere was moved. A check brought in new also
/// stands for a lost check of the same shape (the same check of other literal values:
/// a check moved and its expectation rewritten, as it could be in place).
#[derive(Default)]
struct Appeared {
    keys: HashSet<String>,
    /// Fresh checks by shape and strength, counted (ordered: found by prefix too).
    shapes: std::collections::BTreeMap<String, HashMap<Strength, usize>>,
}

impl Appeared {
    fn add(&mut self, key: String, strength: Strength, fresh: bool) {
        if fresh {
            *self
                .shapes
                .entry(checks::shape(&key))
                .or_default()
                .entry(strength)
                .or_default() += 1;
        }
        self.keys.insert(key);
    }

    /// Whether a lost check is found in the change: the same check, or a fresh one of
    /// the same shape and strength outside the test that lost it (`own` are that
    /// test's fresh checks; `places=7` → `places=0` is a loosening, not a move).
    fn holds(&self, item: &Item, own: &[&Item]) -> bool {
        if self.keys.contains(&item.key) {
            return true;
        }
        // The same shape, or the same call with more arguments (`raises(E)` →
        // `raises(E, match=…)`): at least as strict.
        let shape = checks::shape(&item.key);
        let open = shape.strip_suffix(')').map(|s| format!("{s},"));
        let like =
            |other: &str| other == shape || open.as_deref().is_some_and(|o| other.starts_with(o));
        let here = own
            .iter()
            .filter(|g| g.strength == item.strength && like(&checks::shape(&g.key)))
            .count();
        let count = |(_, by): (&String, &HashMap<Strength, usize>)| {
            by.get(&item.strength).copied().unwrap_or(0)
        };
        let mut there: usize = self.shapes.get_key_value(&shape).map_or(0, count);
        if let Some(open) = &open {
            there += self
                .shapes
                .range(open.clone()..)
                .take_while(|(s, _)| s.starts_with(open.as_str()))
                .map(count)
                .sum::<usize>();
        }
        there > here
    }
}

/// A check as compared: canonical text, strength, where, and how many cases it covers.
#[derive(Debug, Clone)]
struct Item {
    key: String,
    strength: Strength,
    line: usize,
    mult: usize,
    /// Whether it is the test's own line (else in a helper: its line is the helper's).
    own: bool,
}

/// Names that read as a check when called (`assert_valid(…)`, `expectSuccess(…)`).
fn check_like(name: &str) -> bool {
    if name == "ensure" {
        return false; // Ruby's `begin … ensure … end`
    }
    let lower = name.to_ascii_lowercase();
    [
        "assert", "check", "verify", "expect", "ensure", "validate", "must", "should",
    ]
    .iter()
    .any(|w| lower.starts_with(w) || lower.contains(&format!("_{w}")))
        || lower.starts_with("_assert")
        || lower.starts_with("_check")
}

/// The checks of a unit, following the helpers it calls (in its own file, three
/// levels deep); a call to a check-like helper that cannot be read counts as one check.
fn bag(model: &Model, unit: &Unit, rules: &Rules) -> Vec<Item> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    collect(model, unit, rules, 0, unit.cases, true, &mut seen, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn collect(
    model: &Model,
    unit: &Unit,
    rules: &Rules,
    depth: usize,
    cases: usize,
    own: bool,
    seen: &mut HashSet<String>,
    out: &mut Vec<Item>,
) {
    let rows = std::cell::OnceCell::new();
    for &c in &unit.checks {
        if depth < 3
            && let Some(helper) = model.check_callee(c).and_then(|name| {
                model
                    .units
                    .iter()
                    .find(|u| u.role == Role::Helper && u.leaf == name && u.leaf != unit.leaf)
            })
            && seen.insert(helper.leaf.clone())
        {
            collect(model, helper, rules, depth + 1, cases, false, seen, out);
            continue;
        }
        let (key, strength) = model.check_key(c, rules);
        let mult = if model.in_loop(unit, c) {
            *rows.get_or_init(|| model.rows(unit))
        } else {
            1
        };
        out.push(Item {
            key,
            strength,
            line: model.checks[c].line,
            mult: mult * cases,
            own,
        });
    }
    if depth >= 3 {
        return;
    }
    for name in model.calls(unit) {
        if name == unit.leaf || !seen.insert(name.to_string()) {
            continue;
        }
        let helper = model
            .units
            .iter()
            .find(|u| u.role == Role::Helper && u.leaf == name);
        match helper {
            Some(h) => {
                let rows =
                    if first_call(model, unit, name).is_some_and(|at| model.in_loop_at(unit, at)) {
                        model.rows(unit)
                    } else {
                        1
                    };
                collect(model, h, rules, depth + 1, cases * rows, false, seen, out);
            }
            // A check-like helper from elsewhere: each call counts as a check.
            None if check_like(name) && depth == 0 => {
                for text in model.call_texts(unit, name) {
                    out.push(Item {
                        key: format!("call:{text}"),
                        strength: Strength::Other,
                        line: unit.line,
                        mult: cases,
                        own,
                    });
                }
            }
            None => {}
        }
    }
}

/// Where `unit` first calls `name`.
fn first_call(model: &Model, unit: &Unit, name: &str) -> Option<usize> {
    let code = &model.src.code[unit.span.clone()];
    code.find(&format!("{name}("))
        .map(|at| unit.span.start + at)
}

fn bag_of(model: &Model, units: &[usize], rules: &Rules) -> Vec<Item> {
    units
        .iter()
        .flat_map(|&u| bag(model, &model.units[u], rules))
        .collect()
}

fn loose_bag(model: &Model, rules: &Rules) -> Vec<Item> {
    model
        .loose_checks
        .iter()
        .map(|&c| {
            let (key, strength) = model.check_key(c, rules);
            Item {
                key,
                strength,
                line: model.checks[c].line,
                mult: 1,
                own: true,
            }
        })
        .collect()
}

fn own_keys(model: Option<&Model>, unit: &Unit, rules: &Rules) -> HashSet<String> {
    let Some(model) = model else {
        return HashSet::new();
    };
    unit.checks
        .iter()
        .map(|&c| model.check_key(c, rules).0)
        .collect()
}

fn distinct_checks(model: &Model, unit: &Unit, rules: &Rules) -> usize {
    own_keys(Some(model), unit, rules).len()
}

/// Compares one old test with the test it became.
fn compare_pair(
    read: &[File],
    o: At,
    n: At,
    helpers_changed: bool,
    elsewhere: &Appeared,
) -> Vec<Finding> {
    let (of, nf) = (&read[o.0], &read[n.0]);
    let (Some(old), Some(new)) = (of.old.as_ref(), nf.new.as_ref()) else {
        return Vec::new();
    };
    let (ou, nu) = (&old.units[o.1], &new.units[n.1]);
    let mut out = Vec::new();
    out.extend(compare_skips(nf, old, ou, new, nu));
    // Fewer parametrised cases is a removed test, unless the rows became checks
    // (`[Theory]` rows written out in a `[Fact]`).
    // (Counted as written: the same check after each of several inputs counts each time.)
    let own = |_: &Model, u: &Unit| u.checks.len();
    if nu.cases < ou.cases && nu.cases * own(new, nu) < ou.cases * own(old, ou) {
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!(
                "`{}`: {} cases before, {} after",
                nu.name, ou.cases, nu.cases
            ),
            Some(&nu.name),
        ));
    }
    // The same code, the same helpers: nothing more to compare.
    let same_code = old.src.code[ou.span.clone()] == new.src.code[nu.span.clone()];
    if same_code && o.0 == n.0 && !helpers_changed {
        return out;
    }
    let before = bag(old, ou, of.rules);
    let after = bag(new, nu, nf.rules);
    let line = if o.0 == n.0 { None } else { Some(nu.line) };
    // An old line of the test, placed in the new test by a diff of the two tests
    // alone (small: no diff of the whole file).
    let within = |old_line: usize| -> usize {
        let (o0, n0) = (
            old.src.line_of(ou.span.start),
            new.src.line_of(nu.span.start),
        );
        let last = new.src.line_of(nu.span.end.saturating_sub(1)).max(n0);
        let a = &old.src.code[ou.span.clone()];
        let b = &new.src.code[nu.span.clone()];
        let target = old_line.saturating_sub(o0);
        let mut mapped = None;
        for op in TextDiff::from_lines(a, b).ops() {
            let (o, n) = (op.old_range(), op.new_range());
            if o.contains(&target) {
                mapped = Some(match op {
                    DiffOp::Delete { .. } | DiffOp::Insert { .. } => n.start,
                    _ => n.start + (target - o.start).min(n.len().saturating_sub(1)),
                });
                break;
            }
        }
        (n0 + mapped.unwrap_or(target)).clamp(n0, last)
    };
    let at = |items: &[Item]| -> usize {
        line.unwrap_or_else(|| items.first().map_or(nu.line, |i| within(i.line)))
    };
    let lost_line = {
        let keys: HashSet<&str> = after.iter().map(|i| i.key.as_str()).collect();
        let lost: Vec<Item> = before
            .iter()
            .filter(|i| !keys.contains(i.key.as_str()) && i.own)
            .cloned()
            .collect();
        if lost.is_empty() { nu.line } else { at(&lost) }
    };
    out.extend(compare_bags(
        nf, &before, &after, lost_line, &nu.name, old, new, elsewhere,
    ));
    out
}

/// Whether any helper with checks differs between the two versions.
fn helpers_changed(old: &Model, new: &Model) -> bool {
    let code = |m: &Model| -> HashMap<String, String> {
        m.units
            .iter()
            .filter(|u| u.role == Role::Helper && !u.checks.is_empty())
            .map(|u| (u.leaf.clone(), m.src.code[u.span.clone()].to_string()))
            .collect()
    };
    code(old) != code(new)
}

/// Findings between two sets of checks. `line` is where a removal is reported.
#[allow(clippy::too_many_arguments)]
fn compare_bags(
    file: &File,
    before: &[Item],
    after: &[Item],
    line: usize,
    test: &str,
    old: &Model,
    new: &Model,
    elsewhere: &Appeared,
) -> Vec<Finding> {
    let old_keys: HashSet<&str> = before.iter().map(|i| i.key.as_str()).collect();
    let new_keys: HashSet<&str> = after.iter().map(|i| i.key.as_str()).collect();
    // A check rewritten into one the test already had (`301` → `StatusMovedPermanently`
    // beside an existing check of it) still runs: more of an existing check counts as
    // gained. (Fewer of one is not lost: an exact duplicate removed checks nothing less.)
    fn count(items: &[Item]) -> HashMap<&str, usize> {
        let mut n: HashMap<&str, usize> = HashMap::new();
        for i in items {
            *n.entry(i.key.as_str()).or_default() += i.mult;
        }
        n
    }
    let (n_before, n_after) = (count(before), count(after));
    let mut seen = HashSet::new();
    let more: Vec<Item> = after
        .iter()
        .filter(|i| seen.insert(i.key.as_str()))
        .filter_map(|i| {
            let was = *n_before.get(i.key.as_str())?;
            let now = n_after[i.key.as_str()];
            (now > was).then(|| Item {
                mult: now - was,
                ..i.clone()
            })
        })
        .collect();
    let mut seen = HashSet::new();
    let mut gained: Vec<&Item> = after
        .iter()
        .filter(|i| !old_keys.contains(i.key.as_str()) && seen.insert(i.key.as_str()))
        .collect();
    let mut seen = HashSet::new();
    let lost: Vec<&Item> = before
        .iter()
        .filter(|i| !new_keys.contains(i.key.as_str()) && !elsewhere.holds(i, &gained))
        .filter(|i| seen.insert(i.key.as_str()))
        .collect();
    // Only as the rewrite of a lost check of the same value and strength: a check
    // replaced by a copy of another one (`assert y == 2` → `assert x == 1`) is lost.
    gained.extend(more.iter().filter(|m| {
        lost.iter()
            .any(|l| l.strength == m.strength && checks::related(&l.key, &m.key))
    }));
    // One exact check of a whole value covers lost checks of its parts.
    let wholes: Vec<&str> = gained
        .iter()
        .filter(|i| i.strength == Strength::Equality)
        .flat_map(|i| checks::subjects(&i.key))
        .collect();
    let lost: Vec<&Item> = if wholes.is_empty() {
        lost
    } else {
        lost.into_iter()
            .filter(|i| {
                !checks::subjects(&i.key)
                    .iter()
                    .any(|part| wholes.iter().any(|w| checks::covers(w, part)))
            })
            .collect()
    };
    let sum = |items: &[&Item], f: &dyn Fn(Strength) -> bool| -> usize {
        items.iter().filter(|i| f(i.strength)).map(|i| i.mult).sum()
    };
    let eq_lost = sum(&lost, &|s| s == Strength::Equality);
    let eq_gained = sum(&gained, &|s| s == Strength::Equality);
    // A weaker check stands in for a lost exact one only when it is about the same
    // value: `assert x == 3` → `assert x > 0` loosens; a check of another value
    // replacing it is a rewrite.
    let stand_ins: Vec<&Item> = gained
        .iter()
        .filter(|g| matches!(g.strength, Strength::Weak | Strength::Void))
        .filter(|g| {
            lost.iter()
                .any(|l| l.strength == Strength::Equality && checks::related(&l.key, &g.key))
        })
        .copied()
        .collect();
    let weak_gained = sum(&stand_ins, &|_| true);
    let real_lost = sum(&lost, &|s| s != Strength::Void);
    let real_gained = sum(&gained, &|s| s != Strength::Void);
    let void_gained = sum(&gained, &|s| s == Strength::Void);
    let mut out = Vec::new();
    let loosened = (eq_lost > eq_gained && weak_gained > 0)
        || (void_gained > 0 && real_lost > real_gained.saturating_sub(0) && real_lost > 0);
    if loosened {
        let now = stand_ins
            .first()
            .or_else(|| gained.iter().find(|i| i.strength == Strength::Void))
            .or(gained.first())
            .copied();
        let was = now.and_then(|now| {
            lost.iter()
                .find(|l| l.strength == Strength::Equality && checks::related(&l.key, &now.key))
                .or(lost.first())
                .copied()
        });
        if let (Some(now), Some(was)) = (now, was) {
            out.push(finding(
                file.path,
                FindingKind::AssertionLoosened,
                Some(now.line),
                format!(
                    "`{}` replaced by `{}`",
                    old.src.shown(was.line),
                    new.src.shown(now.line)
                ),
                Some(test),
            ));
        }
    }
    // The same check with a bound moved to let more through (`< 100` → `< 500`), or
    // expecting any exception instead of one (`raises(ValueError)` → `raises(Exception)`).
    let widened = lost.iter().find_map(|l| {
        gained.iter().find_map(|g| {
            if checks::bound_widened(&l.key, &g.key) {
                Some((*l, *g, "the bound lets more through"))
            } else if checks::exception_widened(&l.key, &g.key) {
                Some((*l, *g, "any exception of the wider type now passes"))
            } else {
                None
            }
        })
    });
    if let (false, Some((was, now, why))) = (loosened, widened) {
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(now.line),
            format!(
                "`{}` replaced by `{}`: {why}",
                old.src.shown(was.line),
                new.src.shown(now.line)
            ),
            Some(test),
        ));
    }
    let stricter = eq_gained > eq_lost;
    if real_lost > real_gained && !stricter && !(loosened && real_lost <= real_gained + void_gained)
    {
        let count = |items: &[Item]| -> usize {
            let mut seen = HashSet::new();
            items
                .iter()
                .filter(|i| i.strength != Strength::Void && seen.insert(i.key.as_str()))
                .map(|i| i.mult)
                .sum()
        };
        let what = if test.is_empty() {
            String::new()
        } else {
            format!("`{test}`: ")
        };
        out.push(finding(
            file.path,
            FindingKind::AssertionsRemoved,
            Some(line),
            format!(
                "{what}{} checks before, {} after",
                count(before),
                count(after)
            ),
            Some(test),
        ));
    }
    out
}

/// Skips added to (or above) a test that existed before.
fn compare_skips(file: &File, old: &Model, ou: &Unit, new: &Model, nu: &Unit) -> Vec<Finding> {
    let kinds = |m: &Model, u: &Unit| -> (usize, usize, usize) {
        let mut k = (0, 0, 0);
        for &s in &u.skips {
            match m.skips[s].kind {
                SkipKind::Conditional => k.0 += 1,
                SkipKind::Unconditional => k.1 += 1,
                SkipKind::Inverting => k.2 += 1,
            }
        }
        k
    };
    let (oc, ou_, oi) = kinds(old, ou);
    let (nc, nu_, ni) = kinds(new, nu);
    let old_texts: Vec<&str> = ou
        .skips
        .iter()
        .map(|&s| old.skips[s].text.as_str())
        .collect();
    let fresh = |inverting: bool| {
        nu.skips
            .iter()
            .map(|&s| &new.skips[s])
            .filter(|s| (s.kind == SkipKind::Inverting) == inverting)
            .find(|s| !old_texts.contains(&s.text.as_str()))
            .or_else(|| {
                nu.skips
                    .iter()
                    .map(|&s| &new.skips[s])
                    .rfind(|s| (s.kind == SkipKind::Inverting) == inverting)
            })
    };
    let mut out = Vec::new();
    if ni > oi
        && let Some(s) = fresh(true)
    {
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(s.line),
            format!(
                "`{}` added: `{}` now passes when it fails",
                new.src.shown(s.line),
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    if (nu_ > ou_ || nc + nu_ > oc + ou_)
        && let Some(s) = fresh(false)
    {
        let detail = if s.text == "return" {
            format!("`return` before the checks of `{}`", nu.name)
        } else {
            format!("`{}` added", new.src.shown(s.line))
        };
        out.push(finding(
            file.path,
            FindingKind::SkipAdded,
            Some(s.line),
            detail,
            Some(&nu.name),
        ));
    }
    out
}

/// Helpers and hooks with the same name on both sides (the k-th of a name with the
/// k-th: overloads and trait impls share names): loosened or removed checks in a
/// helper a test calls, skips added to it or to a hook. (A test calling it is compared
/// through it too; the findings are the same lines and are reported once.)
fn compare_helpers(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let called = |m: &Model| -> HashSet<String> {
        m.tests()
            .flat_map(|(_, u)| m.calls(u).into_iter().map(String::from))
            .collect()
    };
    let called_both = std::cell::OnceCell::new();
    let mut out = Vec::new();
    // Same-named units (overloads, the `read` of many anonymous adapters): those
    // whose code is unchanged somewhere among them are set aside, the rest paired
    // in order.
    let group = |m: &Model, u: &Unit| -> Vec<usize> {
        (0..m.units.len())
            .filter(|&i| m.units[i].role == u.role && m.units[i].name == u.name)
            .collect()
    };
    let mut paired: HashMap<(&str, Role), Vec<(usize, usize)>> = HashMap::new();
    for ou in old.units.iter().filter(|u| u.role != Role::Test) {
        paired
            .entry((ou.name.as_str(), ou.role))
            .or_insert_with(|| {
                let code_old = |i: usize| &old.src.code[old.units[i].span.clone()];
                let code_new = |i: usize| &new.src.code[new.units[i].span.clone()];
                let mut olds = group(old, ou);
                let mut news = group(new, ou);
                olds.retain(
                    |&o| match news.iter().position(|&n| code_new(n) == code_old(o)) {
                        Some(at) => {
                            news.remove(at);
                            false
                        }
                        None => true,
                    },
                );
                olds.into_iter().zip(news).collect()
            });
    }
    let mut pairs: Vec<(usize, usize)> = paired.into_values().flatten().collect();
    pairs.sort_unstable();
    for (o, n) in pairs {
        let (ou, nu) = (&old.units[o], &new.units[n]);
        let (called_old, called_new) = called_both.get_or_init(|| (called(old), called(new)));
        if ou.role == Role::Helper
            && !(called_old.contains(&ou.leaf) || called_new.contains(&nu.leaf))
        {
            continue; // not test code: production functions with asserts
        }
        if ou.role == Role::Helper && !ou.checks.is_empty() {
            let before = bag(old, ou, file.rules);
            let after = bag(new, nu, file.rules);
            let keys: HashSet<&str> = after.iter().map(|i| i.key.as_str()).collect();
            let line = before
                .iter()
                .find(|i| !keys.contains(i.key.as_str()))
                .map_or(nu.line, |i| file.map_line(i.line));
            out.extend(compare_bags(
                file,
                &before,
                &after,
                line,
                &nu.name,
                old,
                new,
                &Appeared::default(),
            ));
        }
        out.extend(compare_skips(file, old, ou, new, nu));
    }
    out
}

/// A test redefined later in the same scope no longer runs (Python).
fn shadowing(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let shadowed = |m: &Model, name: &str| {
        m.tests()
            .filter(|(_, u)| u.name == name && u.shadowed_by.is_some())
            .count()
    };
    let mut out = Vec::new();
    for (_, u) in new.tests() {
        let Some(by) = u.shadowed_by else { continue };
        if shadowed(new, &u.name) > shadowed(old, &u.name) {
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                Some(u.line),
                format!(
                    "`{}` is defined again at line {}: this one no longer runs",
                    u.name,
                    by + 1
                ),
                Some(&u.name),
            ));
        }
    }
    out
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
