//! JavaScript and TypeScript: `describe`/`it`/`test` calls (with `.each` tables and
//! wrappers), and the functions tests may call.

use std::ops::Range;

use super::{ident_after, new_unit, qualify};
use crate::weakening::checks;
use crate::weakening::model::{Role, Unit};
use crate::weakening::rules::{Language, Rules};
use crate::weakening::source::{Source, at_line_start, extent, list_len};
use crate::weakening::tables::{iterable, receiver_start, table_rows};

/// The units of a JavaScript file.
pub(super) fn javascript_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let b = src.b();
    let mut units = Vec::new();
    let mut suites: Vec<(Range<usize>, String)> = Vec::new();
    let mut each_suites: Vec<(Range<usize>, usize)> = Vec::new();
    // (Read once, when a test is found.)
    let loops: std::sync::OnceLock<Vec<(Range<usize>, &str)>> = std::sync::OnceLock::new();
    for m in rules.defs.find_iter(b) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        // A wrapper (`testWithSyncEsm("…", …)`) is only a test as a statement.
        let wrapper = ["test", "it"].iter().any(|w| {
            trimmed.starts_with(w)
                && trimmed
                    .as_bytes()
                    .get(w.len())
                    .is_some_and(|c| c.is_ascii_uppercase() || *c == b'_')
        });
        if wrapper && !at_line_start(b, at) {
            continue;
        }
        // `regex.test(s)`, `obj.it(…)`, `function test(` are not tests; tap's
        // `t.test('name', …)` is.
        let before = code[..at].trim_end();
        let tap = before.strip_suffix('.').is_some_and(|r| {
            matches!(&r[checks::trailing_word_start(r)..], "t" | "tap" | "tt")
                && trimmed.starts_with("test")
                && code[m.end()..].trim_start().starts_with(['\'', '"', '`'])
        });
        if (before.ends_with('.') && !tap)
            || (before.ends_with("function") && !trimmed.starts_with("function"))
        {
            continue;
        }
        if trimmed.starts_with("function") {
            let after = trimmed
                .trim_start_matches("function")
                .trim_start_matches([' ', '\t', '*']);
            let name = ident_after(after, 0).to_string();
            let Some(open) = code[m.end()..].find('{').map(|i| m.end() + i) else {
                continue;
            };
            let end = src.close_of(open);
            units.push(new_unit(name.clone(), name, Role::Helper, line, at..end));
            continue;
        }
        if trimmed.starts_with("const")
            || trimmed.starts_with("let")
            || trimmed.starts_with("var")
            || trimmed.starts_with("export")
        {
            let decl = trimmed.trim_start_matches("export").trim_start();
            let decl = decl
                .trim_start_matches("const")
                .trim_start_matches("let")
                .trim_start_matches("var");
            let name = ident_after(decl, 0).to_string();
            let arrow = m.end();
            let rest = code[arrow..].trim_start();
            let body_at = arrow + (code.len() - arrow - rest.len());
            let end = if rest.starts_with('{') {
                src.close_of(body_at)
            } else {
                extent(b, body_at, body_at, Language::JavaScript)
            };
            units.push(new_unit(name.clone(), name, Role::Helper, line, at..end));
            continue;
        }
        // A test or suite call: find its argument list (after `.each(…)`, `.skipIf(…)`).
        let mut open = m.end() - 1;
        if matches!(b[open], b'\'' | b'"') {
            open = at + trimmed.find('(').unwrap_or(0);
        }
        let with_args = ["each", "skipIf", "runIf"]
            .iter()
            .any(|w| trimmed.contains(&format!(".{w}")) || trimmed.contains(&format!(". {w}")));
        let mut cases = 1;
        if with_args {
            let group_end = if b[open] == b'`' {
                code[open + 1..]
                    .find('`')
                    .map_or(code.len(), |i| open + i + 2)
            } else {
                src.close_of(open)
            };
            if trimmed.contains("each") {
                // (A tagged template table, read raw, the lexer blanks its text: its
                // rows, under a header row.)
                cases = if b[open] == b'`' {
                    String::from_utf8_lossy(&src.raw[open..group_end.min(src.raw.len())])
                        .lines()
                        .map(|l| l.trim().trim_matches('`').trim())
                        .filter(|l| !l.is_empty())
                        .count()
                        .saturating_sub(1)
                        .max(1)
                } else {
                    // (A table by name, or sliced: `it.each(CASES)`, `[…].slice(0, 2)`.)
                    table_rows(
                        src,
                        code[open + 1..group_end.saturating_sub(1)].trim(),
                        0..0,
                    )
                    .unwrap_or_else(|| list_len(src, b, open + 1))
                    .max(1)
                };
            }
            let rest = code[group_end..].trim_start();
            if !rest.starts_with('(') {
                continue;
            }
            open = group_end + (code.len() - group_end - rest.len());
        } else if b[open] == b'`' {
            continue;
        }
        let end = src.close_of(open);
        let first = code[open + 1..].trim_start();
        let first_at = open + 1 + (code.len() - open - 1 - first.len());
        // Playwright's `test.skip(cond, 'why')` / `test.fixme()` without a title is a
        // call in a test or a suite, not a test: it skips where it stands.
        let untitled_modifier = [".skip", ".fixme"].iter().any(|w| trimmed.contains(w))
            && src.string_at(first_at).is_none()
            && !b[first_at..].starts_with(b"`");
        if untitled_modifier {
            continue;
        }
        let label = match src.string_at(first_at) {
            Some(r) => String::from_utf8_lossy(&src.raw[r]).into_owned(),
            None => {
                let args = &code[first_at..end.saturating_sub(1).max(first_at)];
                checks::squeeze(checks::split_top(args).first().copied().unwrap_or(""))
            }
        };
        let suite = ["describe", "context", "suite", "xdescribe", "fdescribe"]
            .iter()
            .any(|s| trimmed.starts_with(s));
        if suite {
            // (`describe.each([…])`: each test in it runs once per row.)
            if cases > 1 {
                each_suites.push((at..end, cases));
            }
            suites.push((at..end, label));
            continue;
        }
        let mut unit = new_unit(label.clone(), label, Role::Test, line, at..end);
        // (The table read only for a loop a test is defined in.)
        let looped: usize = loops
            .get_or_init(|| loop_tables(src))
            .iter()
            .filter(|(block, _)| block.contains(&at))
            .filter_map(|(_, expr)| table_rows(src, expr, 0..0))
            .product();
        let rows: usize = each_suites
            .iter()
            .filter(|(block, _)| block.contains(&at))
            .map(|(_, n)| n)
            .product();
        unit.cases = cases * looped * rows;
        units.push(unit);
    }
    // Hooks: a skip inside `beforeAll`/`beforeEach` skips the suite's tests.
    qualify(&mut units, &suites);
    units
}

/// The blocks of loops over a table (`CASES.forEach((c) => {…})`, `for (const c of
/// ["a", "b"]) {…}`, the table on lines of its own too), with the table's expression: a
/// test defined in one runs once per row, so a row removed is a case removed.
fn loop_tables<'s>(src: &'s Source) -> Vec<(Range<usize>, &'s str)> {
    let code = src.code.as_str();
    let mut out = Vec::new();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '$';
    for (at, _) in code.match_indices("for (") {
        if code[..at].ends_with(word) {
            continue;
        }
        let close = src.close_of(at + 4);
        let rest = code[close.min(code.len())..].trim_start();
        let block = code.len() - rest.len();
        if !rest.starts_with('{') {
            continue;
        }
        if let Some(expr) = iterable(&code[at..close]) {
            out.push((block..src.close_of(block), expr));
        }
    }
    for (at, m) in code.match_indices(".forEach(") {
        // The table: a bracketed literal ending just before, or a name.
        let Some(start) = receiver_start(code, at, &[']'], word) else {
            continue;
        };
        let before = code[..at].trim_end();
        let call_end = src.close_of(at + m.len() - 1);
        let Some(block) = code[at..call_end].find('{').map(|i| at + i) else {
            continue;
        };
        out.push((block..src.close_of(block), &code[start..before.len()]));
    }
    out
}
