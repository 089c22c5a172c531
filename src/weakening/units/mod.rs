//! Finding the units (tests, helpers, runner hooks) of one version of a file, one
//! language family per file; what they share is here.

mod brace;
mod javascript;
mod python;
mod ruby;

use std::ops::Range;

pub(super) use brace::{example_body, go_example_output, named_subtests};

use super::model::{Role, Unit};
use super::rules::{Language, Rules};
use super::source::{Source, matching_open};

/// The units of `src`, found by its language's finder.
pub(super) fn find_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    match rules.language {
        Language::Python => python::python_units(src, rules),
        Language::Ruby => ruby::ruby_units(src, rules),
        Language::JavaScript => javascript::javascript_units(src, rules),
        Language::Rust | Language::Go | Language::Java | Language::CSharp => {
            brace::brace_units(src, rules)
        }
    }
}

/// Walks up from a definition over the lines of its decorators or attributes.
fn head_start(src: &Source, def_line: usize, markers: &[&str]) -> usize {
    let mut start = src.line_start(def_line);
    let mut line = def_line;
    while line > 0 {
        let Some(prev) = (0..line).rev().find(|&l| src.indent(l).is_some()) else {
            break;
        };
        let t = src.line_text(prev).trim();
        // (`@Test fun f() {` and `@Test fun f() { check(1) }` are declarations of
        // their own, not annotations of the line after them.)
        if markers.iter().any(|m| t.starts_with(m)) && !t.ends_with('{') && !declares(t) {
            start = src.line_start(prev);
            line = prev;
            continue;
        }
        // The last line of a multi-line decorator: `)` or `]` closing one that opened
        // on a decorator line.
        if t.ends_with(')') || t.ends_with(']') || t.ends_with("),") || t.ends_with("],") {
            let end = src.line_start(prev) + src.line_text(prev).rfind([')', ']']).unwrap_or(0);
            if let Some(open) = matching_open(src.b(), end) {
                let open_line = src.line_of(open);
                let ot = src.line_text(open_line).trim();
                if open_line < prev && markers.iter().any(|m| ot.starts_with(m)) {
                    start = src.line_start(open_line);
                    line = open_line;
                    continue;
                }
            }
        }
        break;
    }
    start
}

/// Whether a line opening with an annotation or attribute goes on to declare the item
/// itself (`@Test fun f() = check(1)`, `#[test] fn f() { … }`): after its leading
/// `@Name(…)`, `#[…]` and `[…]` groups it still holds a parameter list or body.
fn declares(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        match b.get(i) {
            Some(b'@') => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                if b.get(i) == Some(&b'(') {
                    i = group_end(b, i);
                }
            }
            Some(b'#') if b.get(i + 1) == Some(&b'[') => i = group_end(b, i + 1),
            Some(b'#') if b.get(i + 1) == Some(&b'!') => i = group_end(b, i + 2),
            Some(b'[') => i = group_end(b, i),
            _ => break,
        }
    }
    let rest = line.get(i..).unwrap_or("");
    let rest = rest.split("//").next().unwrap_or("");
    rest.contains(['(', '{', '='])
}

/// The index just past the bracket group opening at `open`, strings skipped (the
/// line's end when it does not close there).
fn group_end(b: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    let mut quote = None;
    let mut i = open;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    b.len()
}

/// A unit of one case, with no skips or checks yet.
fn new_unit(name: String, leaf: String, role: Role, line: usize, span: Range<usize>) -> Unit {
    Unit {
        name,
        leaf,
        role,
        line,
        span,
        cases: 1,
        included: 1,
        shadowed_by: None,
        scope: None,
        skips: Vec::new(),
        checks: Vec::new(),
    }
}

/// The identifier after `at` (spaces skipped).
fn ident_after(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Prefixes each test's name with the names of the suites around it.
pub(super) fn qualify(units: &mut [Unit], suites: &[(Range<usize>, String)]) {
    for unit in units.iter_mut().filter(|u| u.role == Role::Test) {
        let mut names: Vec<&(Range<usize>, String)> = suites
            .iter()
            .filter(|(r, _)| r.start < unit.span.start && r.contains(&unit.span.start))
            .collect();
        names.sort_by_key(|(r, _)| r.start);
        if !names.is_empty() {
            let mut qual: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
            qual.push(&unit.leaf);
            unit.name = qual.join(" > ");
        }
    }
}
