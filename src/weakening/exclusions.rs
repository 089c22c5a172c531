//! Parts of a value left out of a comparison: `cmpopts.IgnoreFields(Order{}, "Total")`,
//! AssertJ's `ignoringFields("total")`, kotest's `shouldBeEqualToIgnoringFields(…,
//! Invoice::total)`, FluentAssertions' `.Excluding(p => p.Net)`, and text compared
//! with its line endings or white space ignored. A test that compared the whole value
//! passes once the part with the bug is left out. (Case ignored is not read:
//! `equalsIgnoreCase` and `OrdinalIgnoreCase` are as often the code under test.)
//!
//! Only an exclusion a kept test uses is read (a new test's comparison is its own),
//! and only one that leaves out a field the test already spelled out before (its
//! expected value named `Total`): a field that arrives with the change, such as a new
//! timestamp, is left out honestly.

use std::collections::HashSet;

use super::model::{Model, Role};
use super::{File, finding};
use crate::finding::{Finding, FindingKind};

/// Words that leave named fields out of a comparison.
const FIELDS: &[&str] = &[
    "IgnoreFields(",
    "ignoringFields(",
    "ignoringFieldsMatchingRegexes(",
    "IgnoringFields(",
    "ComparingFieldsExcept(",
    "Excluding(",
    "excluding(",
];

/// Words that leave a kind of difference out of a text comparison.
const DIFFERENCES: &[&str] = &[
    "ignoreLineEndingDifferences",
    "ignoreWhiteSpaceDifferences",
    "ignoreAllWhiteSpace",
    "IgnoreLineEndings",
    "IgnoringLineEndings",
    "ignoringNewLines",
    "ignoringWhitespace",
    "ignoringWhitespaces",
    "IgnoringWhitespace",
];

/// Exclusions that arrive in lines a kept test reads, leaving out what it compared.
pub(super) fn exclusions_added(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    // (Every word above holds one of these: three scans of the file, not twenty.)
    let raw = new.src.b();
    if !["gnor", "xclud", "FieldsExcept"]
        .iter()
        .any(|w| memchr::memmem::find(raw, w.as_bytes()).is_some())
    {
        return Vec::new();
    }
    let raw_line = |m: &Model, l: usize| m.src.text(m.src.line_start(l)..m.src.line_end(l));
    let old_lines: HashSet<String> = (0..old.src.line_count())
        .map(|l| raw_line(old, l).trim().to_string())
        .collect();
    let old_tests: Vec<&super::model::Unit> =
        old.units.iter().filter(|u| u.role == Role::Test).collect();
    let mut out = Vec::new();
    for line in 0..new.src.line_count() {
        let text = raw_line(new, line);
        let code = new.src.line_text(line);
        let fields = FIELDS.iter().any(|w| code.contains(w));
        let differences = DIFFERENCES.iter().any(|w| code.contains(w));
        // (A difference ignored only in a check's own line: `Assert.Equal(a, b,
        // ignoreLineEndingDifferences: true)`.)
        let differences = differences && file.rules.checks.is_match(code.as_bytes());
        if !(fields || differences) || old_lines.contains(text.trim()) {
            continue;
        }
        // The kept tests that read the line: around it, or naming what it defines.
        let at = new.src.line_start(line);
        let defined = defined_name(code);
        let readers = new.units.iter().filter(|u| {
            u.role == Role::Test
                && (u.span.contains(&at)
                    || defined
                        .is_some_and(|d| super::checks::mentions(&new.src.code[u.span.clone()], d)))
        });
        let kept: Vec<_> = readers
            .filter_map(|u| old_tests.iter().find(|o| o.name == u.name))
            .collect();
        if kept.is_empty() {
            continue;
        }
        // (Fields: one the test spelled out before, not one arriving now.)
        let left_out = if fields {
            // (The whole call: its fields may sit on the lines after it.)
            // (kotest's first argument is the expected value, not a field.)
            let call = FIELDS
                .iter()
                .find_map(|w| code.find(w).map(|i| (w, at + i + w.len() - 1)))
                .and_then(|(w, open)| {
                    let close = super::source::matching_close(new.src.b(), open)?;
                    let args = new.src.text(open + 1..close);
                    Some(match *w {
                        "IgnoringFields(" | "ComparingFieldsExcept(" => {
                            super::checks::split_top(&args)
                                .get(1..)
                                .map(|rest| rest.join(","))
                                .unwrap_or_default()
                        }
                        _ => args,
                    })
                })
                .unwrap_or_else(|| text.clone());
            let names = excluded_names(&call);
            kept.iter().any(|o| {
                let was = old.src.text(o.span.clone());
                names.iter().any(|n| super::checks::mentions(&was, n))
            })
        } else {
            true
        };
        if left_out {
            out.push(finding(
                file.path,
                FindingKind::AssertionLoosened,
                Some(line),
                format!(
                    "`{}`: the comparison now leaves out part of the value it compared",
                    new.src.shown(line)
                ),
                Some(&kept[0].name),
            ));
        }
    }
    out
}

/// The name a line defines (`var ignore = …`, `opts := …`, `val x = …`), if any.
fn defined_name(code: &str) -> Option<&str> {
    let t = code.trim_start();
    let t = ["var ", "val ", "let ", "const ", "final "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t)
        .trim_start();
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    let rest = t[end..].trim_start();
    let assigns = rest.starts_with(":=")
        || (rest.starts_with('=') && !rest.starts_with("=="))
        || rest.starts_with(':');
    (end > 0 && assigns).then(|| &t[..end])
}

/// The fields an exclusion names: its string literals and the member after a `.` or
/// `::` in its lambdas and references (`"Total"`, `p => p.Net`, `Invoice::total`).
fn excluded_names(line: &str) -> Vec<String> {
    let mut out: Vec<String> = super::checks::text_literals(line)
        .into_iter()
        .map(|l| l[1..l.len() - 1].to_string())
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect();
    // (A member after `::`, or after a lambda's own parameter: `s => s.Net`, `{ it.net }`.)
    let lambda_member = |at: usize| {
        let before = line[..at].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
        let param = &line[before.len()..at];
        let head = before.trim_end();
        param == "it" && head.ends_with('{')
            || (!param.is_empty()
                && head
                    .strip_suffix("=>")
                    .or(head.strip_suffix("->"))
                    .is_some_and(|h| h.trim_end().ends_with(param)))
    };
    for sep in [".", "::"] {
        for (at, _) in line.match_indices(sep) {
            if sep == "." && (line[..at].ends_with(':') || !lambda_member(at)) {
                continue;
            }
            let rest = &line[at + sep.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            let called = rest[end..].starts_with('(');
            if !name.is_empty() && !called && name.starts_with(char::is_alphabetic) {
                out.push(name.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excluded_names_are_the_fields_named() {
        assert_eq!(
            excluded_names(r#"cmpopts.IgnoreFields(Order{}, "ID", "TotalCents")"#),
            ["ID", "TotalCents"]
        );
        assert_eq!(excluded_names(".Excluding(s => s.Net));"), ["Net"]);
        assert_eq!(
            excluded_names("x.shouldBeEqualToIgnoringFields(other, Invoice::total)"),
            ["total"]
        );
        assert_eq!(
            defined_name("var ignore = cmpopts.IgnoreFields(A{}, \"B\")"),
            Some("ignore")
        );
        assert_eq!(defined_name("\topts := cmp.Options{}"), Some("opts"));
        assert_eq!(defined_name("assert.Equal(t, a, b)"), None);
    }
}
