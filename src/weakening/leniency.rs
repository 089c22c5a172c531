//! Mocks made lenient: Moq's `MockBehavior.Strict` dropped, MockK's `relaxed = true`
//! (or `@RelaxedMockK`) added. A strict mock fails the test on a call nobody set up; a
//! lenient one answers it with a default, so a test that counted on its mock to catch an
//! unexpected call (an invalid row saved, a payment sent twice) passes. Compared per
//! mocked type, so a new test with a relaxed mock of its own is no finding.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use super::model::{Model, Role};
use super::{File, finding};
use crate::finding::{Finding, FindingKind};

/// A mock made on one line: what it mocks, and whether it fails on a call not set up.
struct Mock {
    of: String,
    strict: bool,
    line: usize,
    test: Option<String>,
}

/// Moq's `new Mock<T>(…)` and MockK's `mockk<T>(…)`, `@MockK`/`@RelaxedMockK` (the
/// type is read from the declaration that follows).
fn mocks(model: &Model) -> Vec<Mock> {
    static MADE: OnceLock<Regex> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        Regex::new(
            r"\bnew[ \t]+Mock[ \t]*<[ \t]*([\w.]+)[^>\n]*>[ \t]*\(([^()\n]*)\)|\bmockk[ \t]*<[ \t]*([\w.]+)[^>\n]*>[ \t]*\(([^()\n]*)\)|@(MockK|RelaxedMockK)\b[^\n]*\n?[^:\n]*:[ \t]*([\w.]+)",
        )
        .expect("mock pattern")
    });
    let code = &model.src.code;
    let mut out = Vec::new();
    for caps in made.captures_iter(code) {
        let at = caps.get(0).map_or(0, |m| m.start());
        let group = |i| caps.get(i).map_or("", |m: regex::Match| m.as_str());
        let (of, strict) = if !group(1).is_empty() {
            (group(1), group(2).contains("Strict"))
        } else if !group(3).is_empty() {
            let args = group(4);
            let relaxed = args.contains("relaxed") && args.contains("true");
            (group(3), !relaxed)
        } else {
            (group(6), group(5) == "MockK")
        };
        let test = model
            .unit_at(at)
            .map(|u| &model.units[u])
            .filter(|u| u.role == Role::Test)
            .map(|u| u.name.clone());
        out.push(Mock {
            of: of.to_string(),
            strict,
            line: model.src.line_of(at),
            test,
        });
    }
    out
}

/// `assertion-loosened` for each mocked type with as many mocks as before, fewer of
/// them strict: at the first lenient one.
pub(super) fn mocks_made_lenient(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let code = new.src.code.as_bytes();
    if memchr::memmem::find(code, b"Mock").is_none()
        && memchr::memmem::find(code, b"mockk").is_none()
    {
        return Vec::new();
    }
    let group = |m: &Model| {
        let mut by: HashMap<String, Vec<Mock>> = HashMap::new();
        for mock in mocks(m) {
            by.entry(mock.of.clone()).or_default().push(mock);
        }
        by
    };
    let (was, now) = (group(old), group(new));
    let mut out = Vec::new();
    for (of, mocks) in &now {
        let Some(before) = was.get(of) else { continue };
        let strict = |v: &[Mock]| v.iter().filter(|m| m.strict).count();
        if mocks.len() < before.len() || strict(mocks) >= strict(before) {
            continue;
        }
        let Some(lenient) = mocks.iter().find(|m| !m.strict) else {
            continue;
        };
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(lenient.line),
            format!(
                "`{}`: a strict mock of `{of}` made lenient, so a call nobody set up no longer fails the test",
                new.src.shown(lenient.line)
            ),
            lenient.test.as_deref(),
        ));
    }
    out.sort_by_key(|f| f.line);
    out
}
