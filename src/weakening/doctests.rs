//! Rust doc tests set aside. A fenced example in a doc comment (`/// ```` or
//! `/// ```rust`) is compiled and run by `cargo test`; marked `ignore`, `no_run`,
//! `text` or `compile_fail` it no longer runs (`no_run` still compiles it), so what it
//! asserts is no longer checked, like an `#[ignore]` added.

use super::finding;
use crate::finding::{Finding, FindingKind};

/// One fence opening an example in a doc comment: its line and whether `cargo test`
/// runs it.
struct Fence {
    line: usize,
    runs: bool,
    /// The example's lines, to find it again after the change.
    body: Vec<String>,
}

/// The fences that open examples in a file's doc comments, in order (read from the
/// bytes: no lexing or model is needed, so a source file read for its examples alone
/// costs one pass).
fn fences(raw: &[u8]) -> Vec<Fence> {
    if memchr::memmem::find(raw, b"```").is_none() {
        return Vec::new();
    }
    let mut out: Vec<Fence> = Vec::new();
    let mut open = false;
    let mut inside = false;
    let mut by_attribute = false;
    for (line, text) in raw.split(|&b| b == b'\n').enumerate() {
        let text = String::from_utf8_lossy(text);
        let t = text.trim_start();
        // A fence written as an attribute (`#[cfg_attr(x, doc = "```")]`, its
        // alternatives on the lines after) opens an example whose marks depend on the
        // build: it keeps the pairing, and the example is not read.
        if t.starts_with("#[") && t.contains("doc = \"```") {
            if !(open && by_attribute) {
                open = true;
                inside = false;
                by_attribute = true;
            }
            continue;
        }
        let Some(doc) = ["///", "//!"].iter().find_map(|p| t.strip_prefix(p)) else {
            continue;
        };
        let Some(info) = doc.trim_start().strip_prefix("```") else {
            if open
                && inside
                && let Some(last) = out.last_mut()
            {
                last.body.push(doc.trim().to_string());
            }
            continue;
        };
        by_attribute = false;
        if open {
            open = false; // the closing fence
            inside = false;
            continue;
        }
        open = true;
        let words: Vec<&str> = info
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let set_aside = words
            .iter()
            .any(|w| matches!(*w, "ignore" | "no_run" | "text" | "compile_fail"));
        let rust = words.iter().all(|w| {
            matches!(*w, "rust" | "should_panic" | "edition2015" | "edition2018")
                || w.starts_with("edition")
                || matches!(*w, "ignore" | "no_run" | "text" | "compile_fail")
        });
        if !rust {
            continue; // another language's block, never run
        }
        inside = true;
        out.push(Fence {
            line,
            runs: !set_aside,
            body: Vec::new(),
        });
    }
    out
}

/// Findings for doc examples that ran and no longer do: an example set aside whose
/// lines are those of one that ran before and that no example running now has.
pub(super) fn set_aside(path: &[u8], old: &[u8], new: &[u8]) -> Vec<Finding> {
    let now = fences(new);
    if now.iter().all(|n| n.runs) {
        return Vec::new();
    }
    let was = fences(old);
    now.iter()
        .filter(|n| {
            !n.runs
                && !n.body.is_empty()
                && was.iter().any(|w| w.runs && w.body == n.body)
                && !was.iter().any(|w| !w.runs && w.body == n.body)
                && !now.iter().any(|o| o.runs && o.body == n.body)
        })
        .map(|n| {
            let shown = new
                .split(|&b| b == b'\n')
                .nth(n.line)
                .map(|l| String::from_utf8_lossy(l).trim().to_string())
                .unwrap_or_default();
            finding(
                path,
                FindingKind::SkipAdded,
                Some(n.line),
                format!("`{shown}`: the doc example no longer runs under `cargo test`"),
                None,
            )
        })
        .collect()
}
