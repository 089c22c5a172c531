//! Ruby: RSpec `describe`/`it` blocks and minitest `def test_…` methods, with their
//! `before` and `setup` hooks.

use std::ops::Range;

use super::{ident_after, new_unit, qualify};
use crate::weakening::checks;
use crate::weakening::model::{Role, Unit};
use crate::weakening::rules::Rules;
use crate::weakening::source::{Source, enclosing_indent_block};
use crate::weakening::tables::{receiver_start, table_rows};

const RUBY_TESTS: &[&str] = &[
    "it",
    "specify",
    "example",
    "scenario",
    "its",
    "xit",
    "xspecify",
    "xexample",
    "xscenario",
    "fit",
    "test",
    // (A shared example group included: its examples run here.)
    "it_behaves_like",
    "it_should_behave_like",
    "include_examples",
];
const RUBY_SUITES: &[&str] = &[
    "describe",
    "context",
    "feature",
    "xdescribe",
    "xcontext",
    "fdescribe",
    "fcontext",
    "RSpec.describe",
];

/// The units of a Ruby file.
pub(super) fn ruby_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let mut units = Vec::new();
    let mut suites: Vec<(Range<usize>, String)> = Vec::new();
    // minitest's `def test_…` methods, with the class they are defined in.
    let mut methods = Vec::new();
    // (Read once, when a test is found.)
    let loops: std::sync::OnceLock<Vec<(Range<usize>, usize)>> = std::sync::OnceLock::new();
    let shared: std::sync::OnceLock<Vec<(Range<usize>, usize)>> = std::sync::OnceLock::new();
    for m in rules.defs.find_iter(code.as_bytes()) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        let block = ruby_block(src, line);
        let block_end = block.end;
        let word_end = trimmed
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(trimmed.len());
        let word = &trimmed[..word_end];
        let label = || -> String {
            let after = at + word_end;
            let rest = &code[after..src.line_end(line)];
            let skip = rest.len() - rest.trim_start_matches([' ', '(']).len();
            match src.string_at(after + skip) {
                Some(r) => String::from_utf8_lossy(&src.raw[r]).into_owned(),
                None => {
                    // `describe Foo::Bar do`, `it { is_expected… }`: the head line.
                    let head = src.text(after..src.line_end(line).min(block_end));
                    let head = head
                        .trim()
                        .trim_end_matches(" do")
                        .trim_end_matches('{')
                        .trim();
                    let head = if head.is_empty() {
                        checks::squeeze(&src.text(after..block_end))
                    } else {
                        head.to_string()
                    };
                    head.chars().take(80).collect()
                }
            }
        };
        if word == "def" {
            let name = ident_after(code, at + 3).trim_start_matches("self.");
            let name = if name == "self" {
                ident_after(code, at + 3 + code[at + 3..].find('.').map_or(0, |i| i + 1))
            } else {
                name
            };
            let role = if name.starts_with("test_") {
                Role::Test
            } else if name == "setup" || name == "before_setup" {
                Role::Runner
            } else {
                Role::Helper
            };
            let mut unit = new_unit(name.to_string(), name.to_string(), role, line, block);
            if role == Role::Runner {
                unit.scope = enclosing_indent_block(src, line);
            }
            if role == Role::Test {
                // (With its `?` or `!`: `test_select!` is another method.)
                let rest = &code[at + 3..];
                let rest = rest.trim_start();
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(rest.len(), |e| {
                        e + usize::from(rest[e..].starts_with(['?', '!']))
                    });
                methods.push((
                    units.len(),
                    rest[..end].to_string(),
                    enclosing_indent_block(src, line),
                ));
            }
            units.push(unit);
        } else if word == "define_method" {
            // minitest tests defined from a table (`CASES.each do |name, want|
            // define_method("test_#{name}") do … end end`): one test per row.
            let leaf = label();
            if !leaf
                .trim_start_matches([':', '"', '\''])
                .starts_with("test_")
            {
                continue;
            }
            let mut unit = new_unit(leaf.clone(), leaf, Role::Test, line, block);
            unit.cases = loops
                .get_or_init(|| loop_tables(src))
                .iter()
                .filter(|(block, _)| block.contains(&at))
                .map(|(_, n)| n)
                .product();
            units.push(unit);
        } else if RUBY_SUITES.contains(&word) {
            // A suite on one line with its example in braces (`describe('slim') {
            // it_behaves_like "a template", :slim }`): the example is a test.
            if let Some(inner) = one_line_example(src, block.clone()) {
                let leaf = match src.string_at(inner.1) {
                    Some(r) => String::from_utf8_lossy(&src.raw[r]).into_owned(),
                    None => checks::squeeze(&src.text(inner.0.clone())),
                };
                units.push(new_unit(leaf.clone(), leaf, Role::Test, line, inner.0));
            }
            suites.push((block, label()));
        } else if RUBY_TESTS.contains(&word) {
            let leaf = label();
            let mut unit = new_unit(leaf.clone(), leaf, Role::Test, line, block);
            // (Blocks around the example, each running it `n` times.)
            let around = |blocks: &[(Range<usize>, usize)]| -> usize {
                blocks
                    .iter()
                    .filter(|(block, _)| block.contains(&at))
                    .map(|(_, n)| n)
                    .product()
            };
            unit.cases = around(loops.get_or_init(|| loop_tables(src)));
            unit.included = around(shared.get_or_init(|| shared_groups(src)));
            units.push(unit);
        } else if word == "before" || word == "around" {
            let mut unit = new_unit(word.into(), word.into(), Role::Runner, line, block);
            unit.scope = enclosing_indent_block(src, line);
            units.push(unit);
        }
    }
    // A method defined again in its class replaces the earlier one, which no longer
    // runs.
    for (k, (i, name, class)) in methods.iter().enumerate() {
        if let Some((j, _, _)) = methods[k + 1..]
            .iter()
            .find(|(_, n, c)| c == class && n == name)
        {
            units[*i].shadowed_by = Some(units[*j].line);
        }
    }
    qualify(&mut units, &suites);
    units
}

/// The blocks of RSpec shared example groups (`shared_examples "a sluggable model" do`)
/// included in the file, with how many times they are (`it_behaves_like "a sluggable
/// model"` in two suites): each of their examples runs once per inclusion, so two
/// copies of a suite folded into one shared group included twice lose nothing.
fn shared_groups(src: &Source) -> Vec<(Range<usize>, usize)> {
    // (Most spec files define no shared group: one scan says so.)
    if memchr::memmem::find(src.raw, b"shared_examples").is_none() {
        return Vec::new();
    }
    let raw = String::from_utf8_lossy(src.raw);
    let named = |line: &str, words: &[&str]| -> Option<String> {
        let t = line.trim_start().trim_start_matches("RSpec.");
        let rest = words
            .iter()
            .find_map(|w| t.strip_prefix(w).filter(|r| r.starts_with([' ', '('])))?;
        let rest = rest.trim_start_matches([' ', '(']);
        let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let name = &rest[1..];
        Some(name[..name.find(quote)?].to_string())
    };
    let includes = [
        "it_behaves_like",
        "it_should_behave_like",
        "include_examples",
    ];
    let mut out = Vec::new();
    for (line, text) in raw.lines().enumerate() {
        let Some(name) = named(text, &["shared_examples_for", "shared_examples"]) else {
            continue;
        };
        // (Once per suite: included twice in one suite, it runs the same twice.)
        let mut suites: Vec<Option<Range<usize>>> = raw
            .lines()
            .enumerate()
            .filter(|(_, l)| named(l, &includes).as_deref() == Some(name.as_str()))
            .map(|(l, _)| enclosing_indent_block(src, l))
            .collect();
        suites.sort_by_key(|r| r.as_ref().map(|r| (r.start, r.end)));
        suites.dedup();
        let n = suites.len();
        if n > 1 {
            out.push((ruby_block(src, line), n));
        }
    }
    out
}

/// The blocks of loops over a table that can be read (`%w[a b].each do |x|`,
/// `CASES.each do |input, want|`, `{ "a" => 1 }.each_pair { |k, v| … }`), with the
/// table's distinct rows: an example defined in one runs once per row, so a row removed
/// is a case removed, and examples folded into such a loop are no loss.
fn loop_tables(src: &Source) -> Vec<(Range<usize>, usize)> {
    let code = src.code.as_str();
    let mut out = Vec::new();
    for (at, _) in code.match_indices(".each") {
        let rest = &code[at + ".each".len()..];
        let tail = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if !matches!(
            &rest[..rest.len() - tail.len()],
            "" | "_pair" | "_with_index"
        ) {
            continue;
        }
        let tail = tail.trim_start();
        let block = if tail.starts_with("do")
            && !tail[2..].starts_with(|c: char| c == '_' || c.is_ascii_alphanumeric())
        {
            src.indent_block(src.line_of(at))
        } else if tail.starts_with('{') {
            let open = code.len() - tail.len();
            open..src.close_of(open)
        } else {
            continue;
        };
        // The table: a bracketed literal ending just before, or a name.
        let Some(start) = receiver_start(code, at, &[']', '}', ')'], |c| {
            c.is_ascii_alphanumeric() || c == '_' || c == ':'
        }) else {
            continue;
        };
        let before = code[..at].trim_end();
        let rows = table_rows(src, &code[start..before.len()], 0..0);
        if let Some(rows) = rows {
            out.push((block, rows.max(1)));
        }
    }
    out
}

/// The example a one-line suite block holds (`{ it_behaves_like "x", :y }`, `{ it {
/// … } }`): its span, and where its label would start.
fn one_line_example(src: &Source, block: Range<usize>) -> Option<(Range<usize>, usize)> {
    let code = &src.code[block.clone()];
    if code.contains('\n') || !code.ends_with('}') {
        return None;
    }
    let open = code.find('{')?;
    let inner = &code[open + 1..code.len() - 1];
    let body = inner.trim_start();
    let at = block.start + open + 1 + (inner.len() - body.len());
    let word_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    if !RUBY_TESTS.contains(&&body[..word_end]) {
        return None;
    }
    let rest = &body[word_end..];
    let label = at + word_end + (rest.len() - rest.trim_start_matches([' ', '(']).len());
    Some((at..block.end - 1, label))
}

fn ruby_block(src: &Source, line: usize) -> Range<usize> {
    let start = src.line_start(line);
    // A head continued over lines (`it 'a long name ' \` ⏎ `'continued' do`): its
    // last line says what block follows; the block still ends at the head's indent.
    let mut last = line;
    while src.line_text(last).trim_end().ends_with('\\') && last + 1 < src.line_count() {
        last += 1;
    }
    if last > line {
        let tail = src.line_text(last);
        if tail.trim_end().ends_with(" do") || tail.contains(" do |") {
            return src.indent_block(line);
        }
    }
    let text = src.line_text(line);
    // `{ … }` blocks (`it { … }`); a `def` with a `{}` default argument is not one.
    if let Some(open) = text.find('{')
        && !text.trim_end().ends_with(" do")
        && !text.contains(" do |")
        && !text.trim_start().starts_with("def ")
    {
        let close = src.close_of(start + open);
        if close <= src.line_end(src.line_of(close.saturating_sub(1))) {
            return start..close;
        }
    }
    let one_line_def = {
        let t = text.trim();
        t.starts_with("def ") && (t.ends_with(";end") || t.ends_with("; end") || endless_def(t))
    };
    if text.trim_end().ends_with(" do")
        || text.contains(" do |")
        || (text.trim_start().starts_with("def ") && !one_line_def)
    {
        return src.indent_block(line);
    }
    start..src.line_end(line)
}

/// `def name(args) = expr`: Ruby 3's endless method, one line.
fn endless_def(line: &str) -> bool {
    let rest = &line["def ".len()..];
    let head = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '?' | '!')))
        .unwrap_or(rest.len());
    let mut after = rest[head..].trim_start();
    if after.starts_with('(') {
        let mut depth = 0;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        after = after[i + 1..].trim_start();
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    after.starts_with("= ") || after.starts_with("=(")
}
