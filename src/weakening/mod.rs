//! Weakening findings: what a change does to the tests, wherever the tests live.
//!
//! For each changed file in a supported language that is test code (by path or by
//! markers in its old or new content), the old and new blobs are compared with comments
//! and strings blanked (`lexer`), counting tests, assertions and skips with per-language
//! patterns (`rules`), and pairing equality and weaker assertions hunk by hunk.
//! `protected-moved` follows from paths alone.

pub mod lexer;
pub mod rules;

use std::ops::Range;
use std::sync::OnceLock;

use similar::{DiffOp, TextDiff};

use crate::changes::{Blobs, Change, Status};
use crate::config::Config;
pub use crate::finding::{Finding, FindingKind};
use crate::policy::Policy;
use rules::{Language, Rules};

/// Files larger than this are not analysed (generated fixtures, not hand-written tests).
const MAX_ANALYSED_BYTES: usize = 4 << 20;

/// All findings for a set of changes.
pub fn findings(
    changes: &[Change],
    policy: &Policy,
    config: &Config,
    blobs: &dyn Blobs,
) -> Vec<Finding> {
    let mut out = path_findings(changes, policy);
    for change in changes {
        out.extend(content_findings(change, policy, config, blobs));
    }
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
            })
        })
        .collect()
}

/// Findings inside one changed file, when it is test code in a known language.
fn content_findings(
    change: &Change,
    policy: &Policy,
    config: &Config,
    blobs: &dyn Blobs,
) -> Vec<Finding> {
    // A new file cannot weaken what was there before, nor can unchanged content (an
    // exact rename: what the move itself does is a path finding).
    let Some(old_id) = change.old_id else {
        return Vec::new();
    };
    if change.new_id == Some(old_id) {
        return Vec::new();
    }
    let path = change.path();
    let Some(language) = change.paths().find_map(Language::of_path) else {
        return Vec::new();
    };
    let by_path = change
        .paths()
        .any(|p| rules::is_test_path(p) || policy.is_protected(p));
    if !by_path && language.inline_test_markers().is_empty() {
        return Vec::new();
    }
    let Some(old) = blobs.blob(old_id) else {
        return Vec::new();
    };
    let new = change.new_id.and_then(|id| blobs.blob(id));
    if change.new_id.is_some() && new.is_none() {
        return Vec::new();
    }
    if [Some(&old), new.as_ref()]
        .into_iter()
        .flatten()
        .any(|b| is_binary(b))
    {
        return Vec::new();
    }
    let by_marker = || {
        language.inline_test_markers().iter().any(|m| {
            [Some(&old), new.as_ref()]
                .into_iter()
                .flatten()
                .any(|b| memchr::memmem::find(b, m.as_bytes()).is_some())
        })
    };
    if !by_path && !by_marker() {
        return Vec::new();
    }
    analyse(path, &old, new.as_deref(), config)
}

/// Analyses one file's old and new content (`new` absent: deleted), as the hooks do for
/// a changed test file. Returns nothing for a language the analyser does not know.
pub fn analyse(path: &[u8], old: &[u8], new: Option<&[u8]>, config: &Config) -> Vec<Finding> {
    let Some(language) = Language::of_path(path) else {
        return Vec::new();
    };
    match config.weakening.markers.get(language.key()) {
        Some(markers) => compare(
            path,
            language,
            &Rules::new(language, Some(markers)),
            old,
            new,
        ),
        None => compare(path, language, default_rules(language), old, new),
    }
}

fn default_rules(language: Language) -> &'static Rules {
    static CACHE: [OnceLock<Rules>; 5] = [const { OnceLock::new() }; 5];
    let slot = match language {
        Language::Python => 0,
        Language::Rust => 1,
        Language::JavaScript => 2,
        Language::Go => 3,
        Language::Java => 4,
    };
    CACHE[slot].get_or_init(|| Rules::new(language, None))
}

fn is_binary(bytes: &[u8]) -> bool {
    bytes.len() > MAX_ANALYSED_BYTES || memchr::memchr(0, &bytes[..bytes.len().min(8000)]).is_some()
}

/// One match: its 0-based line and the matched text.
#[derive(Debug, Clone)]
struct Hit {
    line: usize,
    text: String,
}

/// Tests, assertions and skips found in one version of a file.
#[derive(Debug, Default)]
struct Scan {
    tests: Vec<Hit>,
    asserts: Vec<Hit>,
    skips: Vec<Hit>,
    equality: Vec<Hit>,
    weak: Vec<Hit>,
}

fn scan(code: &str, rules: &Rules) -> Scan {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', code.as_bytes()).map(|i| i + 1))
        .collect();
    let hits = |re: &regex::bytes::Regex| -> Vec<Hit> {
        re.find_iter(code.as_bytes())
            .map(|m| Hit {
                line: line_starts.partition_point(|&s| s <= m.start()) - 1,
                text: String::from_utf8_lossy(m.as_bytes()).trim().to_string(),
            })
            .collect()
    };
    Scan {
        tests: hits(&rules.tests),
        asserts: hits(&rules.asserts),
        skips: hits(&rules.skips),
        equality: hits(&rules.equality),
        weak: hits(&rules.weak),
    }
}

/// Line `line` (0-based) of the source, trimmed and shortened for a message.
fn source_line(source: &[u8], line: usize) -> Option<String> {
    let text = source.split(|&b| b == b'\n').nth(line)?;
    let text = String::from_utf8_lossy(text);
    let text = text.trim();
    let mut shown: String = text.chars().take(80).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    Some(shown)
}

/// A changed region: old lines and new lines (0-based, half-open).
struct Hunk {
    old: Range<usize>,
    new: Range<usize>,
}

fn hunks(old: &str, new: &str) -> Vec<Hunk> {
    let diff = TextDiff::from_lines(old, new);
    let mut out: Vec<Hunk> = Vec::new();
    let mut open: Option<Hunk> = None;
    for op in diff.ops() {
        if let DiffOp::Equal { .. } = op {
            out.extend(open.take());
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        match open.as_mut() {
            Some(h) => {
                h.old.end = o.end;
                h.new.end = n.end;
            }
            None => open = Some(Hunk { old: o, new: n }),
        }
    }
    out.extend(open);
    out
}

fn within<'h>(hits: &'h [Hit], lines: &Range<usize>) -> impl Iterator<Item = &'h Hit> + use<'h> {
    let lines = lines.clone();
    hits.iter().filter(move |h| lines.contains(&h.line))
}

fn count(hits: &[Hit], lines: &Range<usize>) -> usize {
    within(hits, lines).count()
}

/// The findings between an old and a new version of one file (`new` absent: deleted).
fn compare(
    path: &[u8],
    language: Language,
    rules: &Rules,
    old: &[u8],
    new: Option<&[u8]>,
) -> Vec<Finding> {
    let syntax = language.syntax();
    let old_code = lexer::strip(old, syntax);
    let before = scan(&old_code, rules);
    let finding = |kind: FindingKind, line: Option<usize>, detail: String| Finding {
        kind,
        path: path.to_vec(),
        line: line.map(|l| l as u32 + 1),
        detail,
        blocking: false,
    };
    let Some(new) = new else {
        if before.tests.is_empty() {
            return Vec::new();
        }
        let n = before.tests.len();
        let detail = format!(
            "test file deleted ({n} {})",
            if n == 1 { "test" } else { "tests" }
        );
        return vec![finding(FindingKind::TestRemoved, None, detail)];
    };
    let new_code = lexer::strip(new, syntax);
    if new_code == old_code {
        return Vec::new(); // only comments or strings changed
    }
    let after = scan(&new_code, rules);
    let hunks = hunks(&old_code, &new_code);
    let mut out = Vec::new();

    if after.tests.len() < before.tests.len() {
        let at = hunks
            .iter()
            .find(|h| count(&before.tests, &h.old) > count(&after.tests, &h.new));
        out.push(finding(
            FindingKind::TestRemoved,
            at.map(|h| h.new.start),
            format!(
                "{} tests before, {} after",
                before.tests.len(),
                after.tests.len()
            ),
        ));
    }

    let mut extra_skips = after.skips.len().saturating_sub(before.skips.len());
    for h in &hunks {
        let added = count(&after.skips, &h.new).saturating_sub(count(&before.skips, &h.old));
        for hit in within(&after.skips, &h.new).take(added.min(extra_skips)) {
            let shown = source_line(new, hit.line).unwrap_or_else(|| hit.text.clone());
            out.push(finding(
                FindingKind::SkipAdded,
                Some(hit.line),
                format!("`{shown}` added"),
            ));
            extra_skips -= 1;
        }
    }

    if after.asserts.len() < before.asserts.len() {
        let at = hunks
            .iter()
            .find(|h| count(&before.asserts, &h.old) > count(&after.asserts, &h.new));
        out.push(finding(
            FindingKind::AssertionsRemoved,
            at.map(|h| h.new.start),
            format!(
                "{} assertions before, {} after",
                before.asserts.len(),
                after.asserts.len()
            ),
        ));
    }

    for h in &hunks {
        let equality_lost = count(&before.equality, &h.old) > count(&after.equality, &h.new);
        let weak_gained = count(&after.weak, &h.new) > count(&before.weak, &h.old);
        if !(equality_lost && weak_gained) {
            continue;
        }
        let was = within(&before.equality, &h.old).next();
        let now = within(&after.weak, &h.new).next();
        if let (Some(was), Some(now)) = (was, now) {
            let was_shown = source_line(old, was.line).unwrap_or_else(|| was.text.clone());
            let now_shown = source_line(new, now.line).unwrap_or_else(|| now.text.clone());
            out.push(finding(
                FindingKind::AssertionLoosened,
                Some(now.line),
                format!("`{was_shown}` replaced by `{now_shown}`"),
            ));
        }
    }
    out.sort_by_key(|f| f.line);
    out
}

#[cfg(test)]
mod tests;
