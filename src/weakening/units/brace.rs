//! The brace languages, Rust, Go, Java (and Kotlin) and C#: functions with their
//! attributes or annotations, test macros, runner hooks and parametrised cases.

use super::{head_start, ident_after, new_unit, qualify};
use crate::weakening::checks::trailing_word_start;
use crate::weakening::model::{Role, Unit};
use crate::weakening::rules::{Language, Rules};
use std::ops::Range;

use crate::weakening::source::{
    Source, at_line_start, elements, extent, go_table_rows, list_len, matching_close,
    matching_open, rows_in, words,
};

/// The units of a Rust, Go, Java or C# file.
pub(super) fn brace_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let b = src.b();
    let language = rules.language;
    // (Read once, when a test is found.)
    let junit4_rows: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    static JUNIT3: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    let junit3 = language == Language::Java
        && JUNIT3
            .get_or_init(|| regex::bytes::Regex::new(r"(?-u)extends\s+[\w.]*TestCase\b").ok())
            .as_ref()
            .is_some_and(|r| r.is_match(b));
    let mut units: Vec<Unit> = Vec::new();
    let mut macro_items = Vec::new();
    for m in rules.defs.find_iter(b) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        let mut example_shape = false;
        let (name, name_at) = match language {
            Language::Rust if trimmed.starts_with("fn") => {
                let name = ident_after(code, at + 2);
                (name.to_string(), at)
            }
            Language::Rust if trimmed.contains("mod") && trimmed.ends_with('{') => continue,
            Language::Rust => {
                // An item-level macro call whose first argument names a test.
                if !at_line_start(b, at) {
                    continue;
                }
                let bang = trimmed.find('!').unwrap_or(0);
                let mac = &trimmed[..bang];
                if matches!(
                    mac,
                    "macro_rules"
                        | "println"
                        | "print"
                        | "eprintln"
                        | "format"
                        | "vec"
                        | "write"
                        | "writeln"
                        | "panic"
                        | "assert"
                        | "assert_eq"
                        | "assert_ne"
                        | "debug_assert"
                        | "matches"
                        | "include"
                        | "concat"
                        | "lazy_static"
                        | "thread_local"
                        | "cfg_if"
                        | "todo"
                        | "unimplemented"
                        | "dbg"
                        | "bitflags"
                        | "impl_"
                ) || mac.starts_with("assert")
                {
                    continue;
                }
                let open = at + trimmed.find(['(', '{']).unwrap_or(0);
                let name = ident_after(code, open + 1).to_string();
                macro_items.push((name, line, at, src.close_of(open)));
                continue;
            }
            Language::Go => {
                let after = trimmed.trim_start_matches("func").trim_start();
                let after_at = at + (trimmed.len() - after.len());
                let method = after.starts_with('(');
                let name_at = if method {
                    let close = src.close_of(after_at);
                    close + (code[close..].len() - code[close..].trim_start().len())
                } else {
                    after_at
                };
                let name = ident_after(code, name_at);
                // `go test` runs as an example only a plain function without
                // parameters (`func ExampleX() {`).
                let params = code[name_at + name.len()..].trim_start();
                example_shape = !method
                    && params
                        .strip_prefix('(')
                        .is_some_and(|p| p.trim_start().starts_with(')'));
                (name.to_string(), at)
            }
            _ => {
                // Java, Kotlin, C#: the name is the last identifier before `(`.
                let paren = m.end() - 1;
                let upto = code[at..paren].trim_end();
                let name = if let Some(inner) = upto.strip_suffix('`') {
                    let s = inner.rfind('`').unwrap_or(0);
                    upto[s..].to_string()
                } else {
                    // `Foo<T>(` (C#): the type parameters are not the name.
                    let upto = match upto.strip_suffix('>') {
                        Some(_) => upto[..upto.rfind('<').unwrap_or(upto.len())].trim_end(),
                        None => upto,
                    };
                    upto[trailing_word_start(upto)..].to_string()
                };
                // A constructor's shape (`Foo(…)` with nothing but modifiers or
                // annotations before it) is one only with a body right after its
                // parameters: in Kotlin, `Ledger(listOf(1)).total() shouldBe 1` is a call.
                if language == Language::Java {
                    let before = upto[..upto.len() - name.len()].trim_end();
                    let last = &before[trailing_word_start(before)..];
                    let ctor = before.is_empty()
                        || before.ends_with(')')
                        || matches!(last, "public" | "protected" | "private" | "internal")
                        || before[..before.len() - last.len()].ends_with('@');
                    let after = code[src.close_of(paren)..].trim_start();
                    if ctor
                        && !name.starts_with('`')
                        && !after.starts_with('{')
                        && !after.starts_with("throws")
                        && !after.starts_with(':')
                    {
                        continue;
                    }
                }
                if matches!(
                    name.as_str(),
                    "if" | "for"
                        | "while"
                        | "switch"
                        | "catch"
                        | "return"
                        | "new"
                        | "else"
                        | "throw"
                        | "synchronized"
                        | "using"
                        | "foreach"
                        | "lock"
                        | "when"
                        | "nameof"
                        | "typeof"
                        | "sizeof"
                        | "await"
                        | "yield"
                        | "base"
                        | "this"
                        | "super"
                        | ""
                ) {
                    continue;
                }
                (name, at)
            }
        };
        if name.is_empty() {
            continue;
        }
        // The body: the first `{` at depth 0 after the parameters (`;` first: no body;
        // Kotlin's `= expr`: to the end of the line).
        let mut depth = 0i32;
        let mut body = None;
        let start = match language {
            Language::Java | Language::CSharp => m.end() - 1,
            _ => name_at,
        };
        for (i, &c) in b.iter().enumerate().skip(start) {
            match c {
                b'(' | b'[' | b'<' => depth += 1,
                b')' | b']' => depth -= 1,
                b'>' if i > 0 && b[i - 1] != b'-' && b[i - 1] != b'=' => depth -= 1,
                b'{' if depth <= 0 => {
                    body = Some(src.close_of(i));
                    break;
                }
                b';' if depth <= 0 => break,
                b'=' if depth <= 0
                    && language == Language::Java
                    && b.get(i + 1) != Some(&b'=')
                    && b.get(i + 1) != Some(&b'>') =>
                {
                    body = Some(extent(b, i, i + 1, Language::Java));
                    break;
                }
                // C#'s expression-bodied member (`public void X() => Y().ShouldBe(1);`):
                // to its `;`.
                b'=' if depth <= 0
                    && language == Language::CSharp
                    && b.get(i + 1) == Some(&b'>') =>
                {
                    body = statement_end(b, i + 2);
                    break;
                }
                // Java/C# annotations and `throws` clauses may wrap; a blank line ends it.
                b'\n'
                    if depth <= 0
                        && language != Language::Rust
                        && language != Language::Go
                        && code[i + 1..].starts_with('\n') =>
                {
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = body else { continue };
        let markers: &[&str] = match language {
            Language::Rust => &["#["],
            Language::CSharp => &["["],
            Language::Java => &["@"],
            _ => &[],
        };
        let head = head_start(src, line, markers).min(at);
        let head_text = &code[head..m.end().min(end)];
        let is_test = match language {
            Language::Go => {
                let named = |prefix: &str| {
                    name.strip_prefix(prefix)
                        .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_lowercase()))
                };
                // An example runs (and is checked) only with an output comment; without
                // one it is compiled, never run.
                (name != "TestMain" && (named("Test") || named("Fuzz")))
                    || (example_shape
                        && named("Example")
                        && example_body(src, end)
                            .is_some_and(|body| go_example_output(src, body).is_some()))
            }
            Language::Java => {
                let private = head_text.contains("private ")
                    || (head_text.contains("static ") && !junit3 && !head_text.contains("fun "));
                // JUnit 5 runs only `void` test methods (a `@TestFactory` returns its
                // tests): `Invoice emptyInvoice() {` under `@Test` is never run.
                let valued = !head_text.contains("fun ")
                    && !head_text.contains("@TestFactory")
                    && !head_text.contains("@TestTemplate")
                    && {
                        let upto = code[at..m.end() - 1].trim_end();
                        let before = upto[..upto.len() - name.len()].trim_end();
                        let ret = &before[trailing_word_start(before)..];
                        !ret.is_empty()
                            && !matches!(ret, "void" | "public" | "protected" | "static" | "final")
                            && !before.ends_with(')')
                            && !before.ends_with('@')
                    };
                !private
                    && !valued
                    && (rules.test_heads.is_match(head_text.as_bytes())
                        || (junit3
                            && name.starts_with("test")
                            && head_text.contains("public ")
                            && !head_text.contains("static ")))
            }
            _ => rules.test_heads.is_match(head_text.as_bytes()),
        };
        let runner = match language {
            Language::Go => name == "TestMain",
            Language::Java => head_text.contains("@Before") || (junit3 && name == "setUp"),
            Language::CSharp => {
                head_text.contains("[SetUp")
                    || head_text.contains("[OneTimeSetUp")
                    || head_text.contains("[TestInitialize")
                    || head_text.contains("[ClassInitialize")
            }
            _ => false,
        };
        let role = if is_test {
            Role::Test
        } else if runner {
            Role::Runner
        } else {
            Role::Helper
        };
        let mut unit = new_unit(name.clone(), name.clone(), role, line, head..end);
        if role == Role::Runner && language != Language::Go {
            // A Kotlin `companion object`'s `@BeforeAll` runs for the class around it.
            let open = src.enclosing_brace(head).map(|o| {
                let header = src.code[src.line_start(src.line_of(o))..o].trim();
                if header.starts_with("companion object") {
                    src.enclosing_brace(o).unwrap_or(o)
                } else {
                    o
                }
            });
            unit.scope = open.map(|o| o..src.close_of(o));
        }
        unit.cases = match language {
            Language::Rust => attribute_rows(src, head, head_text, &["#[case", "#[test_case"]),
            Language::CSharp => {
                let rows = attribute_rows(
                    src,
                    head,
                    head_text,
                    &["InlineData", "TestCase(", "DataRow"],
                ) + ["[MemberData(", "TestCaseSource(", "DynamicData("]
                    .iter()
                    .flat_map(|a| head_text.match_indices(a))
                    .map(|(at, m)| member_data_rows(src, head + at + m.len()))
                    .sum::<usize>();
                rows.max(1) * values_rows(src, m.end() - 1)
            }
            Language::Java => {
                ["@ValueSource", "@CsvSource"]
                    .iter()
                    .filter_map(|a| head_text.find(a))
                    .map(|i| {
                        text_block_rows(src, head + i)
                            .unwrap_or_else(|| annotation_rows(src, head_text.as_bytes(), i))
                    })
                    .sum::<usize>()
                    // JUnitParams' `@Parameters({"a, 1", "b, 2"})` (not JUnit 4's
                    // `@Parameters(name = …)` on a data method).
                    + head_text
                        .find("@Parameters(")
                        .filter(|&at| {
                            head_text[at + "@Parameters(".len()..]
                                .trim_start()
                                .starts_with('{')
                        })
                        .map_or(0, |at| annotation_rows(src, head_text.as_bytes(), at))
                    + head_text
                        .find("@MethodSource")
                        .map_or(0, |at| method_source_rows(src, head + at, &name))
                    // (`@NullSource`, `@EmptySource`: one argument each, both in
                    // `@NullAndEmptySource`.)
                    + ["@NullSource", "@EmptySource", "@NullAndEmptySource"]
                        .iter()
                        .filter(|a| {
                            head_text.match_indices(**a).any(|(at, m)| {
                                !head_text[at + m.len()..].starts_with(|c: char| c.is_alphanumeric())
                            })
                        })
                        .map(|a| if *a == "@NullAndEmptySource" { 2 } else { 1 })
                        .sum::<usize>()
                    + head_text
                        .find("dataProvider")
                        .map_or(0, |at| data_provider_rows(src, head + at))
                    + if role == Role::Test {
                        *junit4_rows.get_or_init(|| parameterized_rows(src))
                    } else {
                        0
                    }
            }
            // A table-driven test: the rows of the literal table a loop with checks
            // or subtests ranges over; else, with subtests (`t.Run(name, func(t
            // *testing.T) {…})`; a `.Run(` alone is any call of that name), the
            // largest list in the function.
            Language::Go => go_table_rows(
                src,
                &b[head..end],
                &|body| rules.checks.is_match(body) || subtests(&code[head..end]),
                !subtests(&code[head..end]),
            )
            .unwrap_or_else(|| {
                if subtests(&code[head..end]) {
                    rows_in(&b[head..end]).max(named_subtests(&b[head..end]))
                } else {
                    1
                }
            })
            .max(fuzz_seeds(src, &name, m.end(), end)),
            _ => 1,
        }
        .max(1);
        units.push(unit);
    }
    if language == Language::Go {
        let suites = ginkgo_units(src, &mut units);
        qualify(&mut units, &suites);
    }
    // Item-level macro calls that name a test (`sherlock!(name, …)`): only outside
    // functions.
    for (name, line, at, end) in macro_items {
        if units.iter().any(|u| u.span.contains(&at)) {
            continue;
        }
        units.push(new_unit(name.clone(), name, Role::Test, line, at..end));
    }
    // Tests of nested classes (fixture classes run by the outer tests, JUnit 5
    // `@Nested`) are named with their class, so that two `example()` in two nested
    // classes are two tests. The top-level class names nothing: it is the file's.
    if matches!(language, Language::Java | Language::CSharp) {
        let types = type_decls(src);
        uncollected_to_helpers(src, language, &types, &mut units);
        let mut suites = nested_classes(&types);
        if language == Language::Java {
            suites.extend(kotlin_spec_units(src, &mut units));
        }
        qualify(&mut units, &suites);
    }
    units
}

/// Kotlin spec styles (kotest's FunSpec, DescribeSpec, BehaviorSpec, ShouldSpec,
/// StringSpec, FreeSpec; Spek): `test("…") { … }`, `it("…") { … }`, `"…" { … }` are
/// tests, `context("…") { … }`, `describe`, `given`, `"…" - { … }` the suites around
/// them. Adds the tests to `units` (not inside another unit) and returns the suites.
fn kotlin_spec_units(src: &Source, units: &mut Vec<Unit>) -> Vec<(Range<usize>, String)> {
    static BLOCK: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    let Some(block) = BLOCK
        .get_or_init(|| {
            regex::bytes::Regex::new(
                r#"(?m)^[ \t]*(?:[xf]?((?i:test|it|should|scenario|then|expect|context|describe|feature|given|when|and))[ \t]*\([ \t]*)?""#,
            )
            .ok()
        })
        .as_ref()
    else {
        return Vec::new();
    };
    let (code, b) = (src.code.as_str(), src.b());
    let mut suites = Vec::new();
    let mut found = Vec::new();
    for c in block.captures_iter(b) {
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let quote = whole.end - 1;
        let Some(literal) = src.string_at(quote) else {
            continue;
        };
        let at = whole.start + (code[whole.clone()].len() - code[whole.clone()].trim_start().len());
        // After the call's `)` (or the bare name), any `.config(…)`, then `{` or `- {`.
        let mut rest = match c.get(1) {
            Some(_) => {
                let Some(open) = matching_open_before(b, at, quote) else {
                    continue;
                };
                src.close_of(open)
            }
            None => literal.end,
        };
        loop {
            let after = code[rest..].trim_start_matches([' ', '\t']);
            let pos = rest + (code[rest..].len() - after.len());
            if let Some(config) = after.strip_prefix(".config") {
                let open = pos + ".config".len() + (config.len() - config.trim_start().len());
                if b.get(open) != Some(&b'(') {
                    break;
                }
                rest = src.close_of(open);
                continue;
            }
            rest = pos;
            break;
        }
        let after = &code[rest..];
        let (suite, open) = match c.get(1) {
            None if after.starts_with('-') => {
                let dash = after[1..].trim_start_matches([' ', '\t']);
                (true, rest + (after.len() - dash.len()))
            }
            _ => (false, rest),
        };
        if b.get(open) != Some(&b'{') {
            continue;
        }
        let word = c.get(1).map_or(String::new(), |w| {
            String::from_utf8_lossy(w.as_bytes()).to_ascii_lowercase()
        });
        let suite = suite
            || matches!(
                word.as_str(),
                "context" | "describe" | "feature" | "given" | "when" | "and"
            );
        let end = src.close_of(open);
        let label = String::from_utf8_lossy(&src.raw[literal]).into_owned();
        if suite {
            suites.push((at..end, label));
        } else {
            found.push((at..end, label, 1));
        }
    }
    found.extend(kotest_data_tests(src));
    add_spec_tests(src, units, found);
    suites
}

/// kotest data tests: `withData(a, b, c) { (x, want) -> … }` runs the block once per
/// row, each a test of its own; the rows are the arguments (bar named ones such as
/// `nameFn = …`), or the rows of the one list or map passed (`withData(listOf(…))`,
/// `withData(CASES)`).
fn kotest_data_tests(src: &Source) -> Vec<(Range<usize>, String, usize)> {
    let (code, b) = (src.code.as_str(), src.b());
    let mut out = Vec::new();
    for (at, _) in code.match_indices("withData") {
        // (Past type arguments: `withData<Pair<String, Int>>(…)`.)
        let name_end = at + "withData".len();
        let open = match b.get(name_end) {
            Some(b'<') => code[name_end..]
                .find('(')
                .map_or(code.len(), |i| name_end + i),
            _ => name_end + (code[name_end..].len() - code[name_end..].trim_start().len()),
        };
        if (at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'.'))
            || !at_line_start(b, at)
            || b.get(open) != Some(&b'(')
        {
            continue;
        }
        let close = src.close_of(open);
        let args = crate::weakening::checks::split_top(&code[open + 1..close.saturating_sub(1)]);
        let rows: Vec<&str> = args
            .iter()
            .map(|a| a.trim())
            .filter(|a| {
                // (Not a named argument: `nameFn = { … }`.)
                !a.is_empty()
                    && !a.split_once('=').is_some_and(|(name, v)| {
                        !v.starts_with(['=', '>'])
                            && name
                                .trim()
                                .bytes()
                                .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                    })
            })
            .collect();
        let cases = match rows[..] {
            [one] => crate::weakening::tables::table_rows(src, one, 0..0).unwrap_or(1),
            _ => rows.len(),
        };
        let rest = &code[close..];
        let brace = close + (rest.len() - rest.trim_start().len());
        if b.get(brace) != Some(&b'{') {
            continue;
        }
        out.push((
            at..src.close_of(brace),
            "withData".to_string(),
            cases.max(1),
        ));
    }
    out
}

/// Ginkgo specs: `It("…", func() { … })` (and `Specify`, `PIt`, `XIt`, `FIt`) and
/// `DescribeTable` (a case per `Entry`) are tests, `Describe`/`Context`/`When` the
/// suites around them. Adds the tests to `units` (not inside another unit) and returns
/// the suites.
fn ginkgo_units(src: &Source, units: &mut Vec<Unit>) -> Vec<(Range<usize>, String)> {
    static CALL: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    let Some(call) = CALL
        .get_or_init(|| {
            regex::bytes::Regex::new(
                r#"(?m)^[ \t]*(?:var[ \t]+_[ \t]*=[ \t]*)?[PFX]?(It|Specify|DescribeTable|Describe|Context|When)[ \t]*\([ \t]*""#,
            )
            .ok()
        })
        .as_ref()
    else {
        return Vec::new();
    };
    let (code, b) = (src.code.as_str(), src.b());
    let mut suites = Vec::new();
    let mut found = Vec::new();
    for c in call.captures_iter(b) {
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let quote = whole.end - 1;
        let (Some(literal), Some(open)) = (
            src.string_at(quote),
            matching_open_before(b, whole.start, quote),
        ) else {
            continue;
        };
        let end = src.close_of(open);
        if !code[open..end].contains("func(") {
            continue;
        }
        let at = whole.start + (code[whole.clone()].len() - code[whole.clone()].trim_start().len());
        let label = String::from_utf8_lossy(&src.raw[literal]).into_owned();
        match c.get(1).map(|w| w.as_bytes()) {
            Some(b"It" | b"Specify") => found.push((at..end, label, 1)),
            // A table: a test with a case per `Entry(…)`.
            Some(b"DescribeTable") => {
                let rows = code[open..end].matches("Entry(").count();
                found.push((at..end, label, rows.max(1)))
            }
            _ => suites.push((at..end, label)),
        }
    }
    add_spec_tests(src, units, found);
    suites
}

/// Adds the tests a spec reader found (span, name, cases) that lie inside no unit
/// already found (a call in a function is not a spec).
fn add_spec_tests(src: &Source, units: &mut Vec<Unit>, found: Vec<(Range<usize>, String, usize)>) {
    for (span, label, cases) in found {
        if units.iter().any(|u| u.span.contains(&span.start)) {
            continue;
        }
        let line = src.line_of(span.start);
        let mut unit = new_unit(label.clone(), label, Role::Test, line, span);
        unit.cases = cases;
        units.push(unit);
    }
}

/// The `(` before the literal at `quote`, on the call that starts at `from`.
fn matching_open_before(b: &[u8], from: usize, quote: usize) -> Option<usize> {
    b[from..quote]
        .iter()
        .rposition(|&c| c == b'(')
        .map(|i| from + i)
}

/// Just past the `;` that ends the statement going on at `from` (brackets balanced).
fn statement_end(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate().skip(from) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b';' if depth == 0 => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The subtests Go code runs by a literal name (`t.Run("full", func(t *testing.T)
/// {…})`, one per call): tests folded into one as its subtests, none of them a row.
pub(in crate::weakening) fn named_subtests(function: &[u8]) -> usize {
    memchr::memmem::find_iter(function, b".Run(")
        .filter(|&at| {
            function[at + 5..]
                .trim_ascii_start()
                .first()
                .is_some_and(|b| matches!(b, b'"' | b'`'))
        })
        .count()
}

/// Whether a Go function's text runs subtests: a `.Run(` and a function literal taking
/// a `*testing.T` inside its body (the signature takes the first one).
fn subtests(function: &str) -> bool {
    let body = function.find('{').map_or("", |open| &function[open..]);
    body.contains(".Run(") && body.contains("*testing.T")
}

/// Test methods their runner never collects because of the class they are in become
/// helpers: in a JUnit 5 (Java) file, one in an inner class that is not `@Nested` or
/// is `static`; an MSTest `[TestMethod]` in a class without `[TestClass]`; an xUnit
/// `[Fact]`/`[Theory]` in a class that is not `public` (abstract classes aside: their
/// tests run through the classes that extend them).
fn uncollected_to_helpers(
    src: &Source,
    language: Language,
    types: &[TypeDecl],
    units: &mut [Unit],
) {
    let code = src.code.as_str();
    if language == Language::Java
        && !code.lines().any(|l| {
            let l = l.trim();
            l.starts_with("import org.junit.jupiter") && l.ends_with(';')
        })
    {
        return;
    }
    let markers: &[&str] = if language == Language::Java {
        &["@"]
    } else {
        &["["]
    };
    // Each class's body with the text of its head (annotations or attributes,
    // modifiers, name).
    let classes: Vec<(&Range<usize>, &str)> = types
        .iter()
        .filter(|t| t.keyword == "class")
        .map(|t| {
            let head = head_start(src, src.line_of(t.at), markers).min(t.at);
            (&t.body, &code[head..t.body.start])
        })
        .collect();
    let has = |text: &str, w: &str| words(text).any(|x| x == w);
    for unit in units.iter_mut().filter(|u| u.role == Role::Test) {
        // Outermost first.
        let mut around: Vec<(&Range<usize>, &str)> = classes
            .iter()
            .copied()
            .filter(|(body, _)| body.contains(&unit.span.start))
            .collect();
        around.sort_by_key(|(body, _)| body.start);
        let Some(&(_, innermost)) = around.last() else {
            continue;
        };
        let head = &code[unit.span.start..unit.span.end.min(unit.span.start + 400)];
        let uncollected = match language {
            Language::Java => around[1..]
                .iter()
                .any(|(_, h)| !h.contains("@Nested") || has(h, "static")),
            _ if around.iter().any(|(_, h)| has(h, "abstract")) => false,
            _ if has(head, "TestMethod") || has(head, "DataTestMethod") => {
                !has(innermost, "TestClass")
            }
            _ if has(head, "Fact") || has(head, "Theory") => {
                around.iter().any(|(_, h)| !has(h, "public"))
            }
            _ => false,
        };
        if uncollected {
            unit.role = Role::Helper;
        }
    }
}

/// A type declared in a Java, Kotlin or C# file: its keyword, where the keyword
/// stands, its name and its body.
struct TypeDecl {
    keyword: &'static str,
    at: usize,
    name: String,
    body: Range<usize>,
}

/// The classes, interfaces, enums and records of a file that have a body.
fn type_decls(src: &Source) -> Vec<TypeDecl> {
    let code = src.code.as_str();
    let mut types = Vec::new();
    for keyword in ["class", "interface", "enum", "record"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(keyword).map(|i| i + from) {
            from = at + keyword.len();
            let word_before = at > 0 && {
                let b = code.as_bytes()[at - 1];
                b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
            };
            if word_before || !code[from..].starts_with(' ') {
                continue;
            }
            let name = ident_after(code, from);
            if name.is_empty() {
                continue;
            }
            let Some(open) = code[from..].find(['{', ';']).map(|i| i + from) else {
                continue;
            };
            if code.as_bytes()[open] == b'{' {
                types.push(TypeDecl {
                    keyword,
                    at,
                    name: name.to_string(),
                    body: open..src.close_of(open),
                });
            }
        }
    }
    types
}

/// The bodies of types declared inside another type, with their names.
fn nested_classes(types: &[TypeDecl]) -> Vec<(Range<usize>, String)> {
    types
        .iter()
        .filter(|t| {
            types
                .iter()
                .any(|outer| outer.body.start < t.body.start && outer.body.contains(&t.body.start))
        })
        .map(|t| (t.body.clone(), t.name.clone()))
        .collect()
}

/// The inside of the braces of a function whose body ends at `end` (after its `}`).
pub(in crate::weakening) fn example_body(src: &Source, end: usize) -> Option<Range<usize>> {
    let close = end.checked_sub(1)?;
    (src.b().get(close) == Some(&b'}'))
        .then(|| matching_open(src.b(), close))
        .flatten()
        .map(|open| open + 1..close)
}

/// A Go example's output comment, as `go test` reads it.
pub(in crate::weakening) struct ExampleOutput {
    /// The comment group.
    pub span: Range<usize>,
    /// `// Unordered output:`: the lines may be printed in any order.
    pub unordered: bool,
    /// The output expected, trimmed as `go test` compares it (its lines sorted when
    /// unordered).
    pub text: String,
}

/// The output comment of a Go example whose body (inside its braces) is `body`: the
/// last comment group of the body, when its text starts with `Output:` or
/// `Unordered output:` (any case), as `go/doc` reads it. `go test` runs the example and
/// compares what it prints with the text; without such a comment it never runs it.
pub(in crate::weakening) fn go_example_output(
    src: &Source,
    body: Range<usize>,
) -> Option<ExampleOutput> {
    let comments = src.comments_in(body);
    let code = src.b();
    // The groups as Go's parser forms them: comments on adjacent lines with nothing
    // between; one after code on its line starts a group of that line alone.
    let mut first = 0;
    let mut after_code = false;
    for (i, c) in comments.iter().enumerate() {
        let line = src.line_of(c.start);
        let joins = i > 0 && {
            let prev = &comments[i - 1];
            let prev_line = src.line_of(prev.end.saturating_sub(1));
            code[prev.end..c.start].trim_ascii().is_empty()
                && if after_code {
                    line == prev_line
                } else {
                    line <= prev_line + 1
                }
        };
        if !joins {
            first = i;
            after_code = !code[src.line_start(line)..c.start].trim_ascii().is_empty();
        }
    }
    let group = comments.get(first..).filter(|g| !g.is_empty())?;
    // The group's text as `CommentGroup.Text` gives it: markers and the first space of
    // a line comment dropped, directives (`//go:build`) left out, trailing space
    // trimmed, blank lines around dropped and runs of them made one.
    let mut text = String::new();
    let mut blank = false;
    for c in group {
        let comment = String::from_utf8_lossy(&src.raw[c.clone()]);
        let inner = match comment.strip_prefix("//") {
            Some(rest) => match rest.strip_prefix(' ') {
                Some(rest) => rest,
                None if go_directive(rest) => continue,
                None => rest,
            },
            None => {
                let rest = comment.strip_prefix("/*").unwrap_or(&comment);
                rest.strip_suffix("*/").unwrap_or(rest)
            }
        };
        for line in inner.split('\n').map(str::trim_end) {
            if line.is_empty() {
                blank = !text.is_empty();
                continue;
            }
            if !text.is_empty() {
                text.push('\n');
                if blank {
                    text.push('\n');
                }
            }
            text.push_str(line);
            blank = false;
        }
    }
    let starts = |t: &str, prefix: &str| {
        t.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    let t = text.trim_start();
    let (unordered, rest) = if starts(t, "unordered output:") {
        (true, &t["unordered output:".len()..])
    } else if starts(t, "output:") {
        (false, &t["output:".len()..])
    } else {
        return None;
    };
    let mut expected = rest.trim().to_string();
    if unordered {
        let mut lines: Vec<&str> = expected.split('\n').collect();
        lines.sort_unstable();
        expected = lines.join("\n");
    }
    Some(ExampleOutput {
        span: group[0].start..group[group.len() - 1].end,
        unordered,
        text: expected,
    })
}

/// Whether a line comment (after its `//`) is a directive (`//go:generate`,
/// `//line f.go:1`, `//export f`), which Go leaves out of a comment's text.
fn go_directive(rest: &str) -> bool {
    if ["line ", "extern ", "export "]
        .iter()
        .any(|p| rest.starts_with(p))
    {
        return true;
    }
    let b = rest.as_bytes();
    let Some(colon) = rest.find(':').filter(|&c| c > 0 && c + 1 < b.len()) else {
        return false;
    };
    (0..=colon + 1)
        .filter(|&i| i != colon)
        .all(|i| b[i].is_ascii_lowercase() || b[i].is_ascii_digit())
}

/// Rows of a JUnit 4 `Parameterized` class's `@Parameters` table (`return
/// Arrays.asList(new Object[][] { {"a", 1}, {"b", 2} })`): every test of the class runs
/// once per row. 0 when the file has none that can be read.
fn parameterized_rows(src: &Source) -> usize {
    let code = &src.code;
    if !code.contains("Parameterized") {
        return 0;
    }
    let Some(at) = code.find("@Parameters") else {
        return 0;
    };
    let Some(table) = code[at..].find("new Object[][]").map(|i| at + i) else {
        return 0;
    };
    let b = src.b();
    let Some(open) = code[table..].find('{').map(|i| table + i) else {
        return 0;
    };
    matching_close(b, open).map_or(0, |close| elements(src, &b[open..=close]))
}

/// Cases of a JUnit 5 `@MethodSource` at `at` (the annotation), for a test named
/// Where the provider `name` of a parameterised test is declared (the offset of what
/// follows its name): the name whole, after a type (`static Stream<String> fixtures`,
/// `public static TheoryData<…> Cases`), not after `return`, `new`, `nameof` or a `.`,
/// and followed by what `declares` accepts (`()`, `=>`, …).
fn provider_declared(code: &str, name: &str, declares: impl Fn(&str) -> bool) -> Option<usize> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(name).find_map(|(i, _)| {
        let before = code[..i].trim_end();
        let after = code[i + name.len()..].trim_start();
        let whole = !code[..i].ends_with(|c: char| word(c) || c == '.') && !after.starts_with(word);
        let typed = before.ends_with(|c: char| word(c) || c == '>' || c == ']')
            && !["return", "new", "nameof"]
                .iter()
                .any(|w| before.ends_with(w));
        (whole && typed && declares(after)).then(|| code.len() - after.len())
    })
}

/// Different rows given as attributes (`#[case(…)]`, `[InlineData(…)]`), compared as
/// written: a row written twice runs the same case twice.
fn attribute_rows(src: &Source, head: usize, head_text: &str, markers: &[&str]) -> usize {
    let b = src.b();
    let rows = markers.iter().flat_map(|m| {
        head_text.match_indices(m).map(move |(at, m)| {
            let start = head + at;
            let after = start + m.len();
            // (Through the row's arguments: the bracket after the marker, or the one it
            // ends with.)
            let open = if m.starts_with("#[") {
                Some(start + 1)
            } else if m.ends_with('(') {
                Some(after - 1)
            } else {
                b[after..]
                    .iter()
                    .position(|c| !c.is_ascii_whitespace())
                    .map(|i| after + i)
                    .filter(|&i| b[i] == b'(')
            };
            let end = open
                .and_then(|o| matching_close(b, o))
                .map_or(after, |c| c + 1);
            src.row_key(&b[start..end])
        })
    });
    super::super::source::distinct_rows(rows)
}

/// NUnit's `[Values(…)]` parameters (`open`: the parameter list's `(`): the test runs
/// every combination, so the product of their distinct values.
fn values_rows(src: &Source, open: usize) -> usize {
    let b = src.b();
    let Some(close) = matching_close(b, open) else {
        return 1;
    };
    src.code[open..close]
        .match_indices("[Values(")
        .filter_map(|(at, m)| {
            let group = open + at + m.len() - 1;
            matching_close(b, group).map(|end| elements(src, &b[group..=end]))
        })
        .filter(|&n| n > 0)
        .product()
}

/// A Go fuzz test's seed corpus (`f.Add(…)` in `func FuzzX(f *testing.F)`, `open`: the
/// parameter list's `(`): each seed is a case the test always runs.
fn fuzz_seeds(src: &Source, name: &str, open: usize, end: usize) -> usize {
    if !name.starts_with("Fuzz") {
        return 1;
    }
    let b = src.b();
    if b.get(open) != Some(&b'(') {
        return 1;
    }
    let Some(close) = matching_close(b, open) else {
        return 1;
    };
    let params = &src.code[open + 1..close];
    let Some(param) = params
        .split_once("*testing.F")
        .map(|(p, _)| p.trim().trim_end_matches(|c: char| !c.is_alphanumeric()))
        .and_then(|p| p.rsplit([' ', ',', '\t']).next())
        .filter(|p| !p.is_empty())
    else {
        return 1;
    };
    // (Seeds added in a loop are the rows of the table it ranges over.)
    let body = &src.code[close..end];
    let fuzz = body.find(&format!("{param}.Fuzz(")).unwrap_or(body.len());
    if let Some(at) = body[..fuzz].find("for ") {
        // (The block's `{` follows a space; a composite literal's, its type.)
        let header = &body[at..body[at..].find(" {").map_or(fuzz, |i| at + i)];
        return crate::weakening::tables::iterable(header)
            .and_then(|expr| {
                let expr_at = close + at + (expr.as_ptr() as usize - header.as_ptr() as usize);
                crate::weakening::tables::table_rows(src, expr, close..expr_at)
            })
            .unwrap_or(1);
    }
    let call = format!("{param}.Add(");
    let seeds = src.code[close..end]
        .match_indices(&call)
        .filter_map(|(at, _)| {
            let group = close + at + call.len() - 1;
            matching_close(b, group).map(|e| src.row_key(&b[close + at..=e]))
        });
    super::super::source::distinct_rows(seeds).max(1)
}

/// xUnit's `[MemberData(nameof(Cases))]`, NUnit's `[TestCaseSource(…)]`, MSTest's
/// `[DynamicData(…)]` (`at`: after its `(`): the rows `Cases`
/// holds, a property or field initialised with a collection (`new() { { 1m, "a" }, …
/// }`, `new TheoryData<…> { … }`, `[ [0, "a"], … ]`) or a method that yields them
/// (`yield return`); 1 when they cannot be read (or live in another class, `MemberType
/// = typeof(…)`).
fn member_data_rows(src: &Source, at: usize) -> usize {
    let code = src.code.as_str();
    let Some(close) = matching_close(code.as_bytes(), at - 1) else {
        return 1;
    };
    if code[at..close].contains("MemberType") {
        return 1; // rows held by another class, not read
    }
    let arg = code[at..close].split(',').next().unwrap_or("").trim();
    let arg = arg
        .strip_prefix("nameof(")
        .and_then(|a| a.strip_suffix(')'))
        .unwrap_or(arg);
    let name = arg
        .trim_matches(['"', ' '])
        .rsplit('.')
        .next()
        .unwrap_or("");
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return 1;
    }
    // The declaration: `Cases =>`, `Cases =`, `Cases {` or `Cases()`.
    let Some(decl) = provider_declared(code, name, |after| {
        after.starts_with("=>")
            || after.starts_with('{')
            || (after.starts_with('=') && !after.starts_with("=="))
            || after.starts_with("()")
    }) else {
        return 1;
    };
    // A collection expression (`Cases => [ [0, "a"], … ];`, C# 12).
    let value = code[decl..].trim_start_matches(['=', '>', ' ', '\t', '\n', '\r']);
    if value.starts_with('[') {
        let open = code.len() - value.len();
        return matching_close(code.as_bytes(), open)
            .map_or(1, |c| elements(src, &code.as_bytes()[open..=c]).max(1));
    }
    let Some(open) = code[decl..].find('{').map(|o| decl + o) else {
        return 1;
    };
    let Some(end) = matching_close(code.as_bytes(), open) else {
        return 1;
    };
    let body = &code[open..=end];
    let yields = body.matches("yield return").count();
    if yields > 0 {
        return yields;
    }
    // A getter or method body returning the collection: its initializer.
    let init = if code[decl..open].contains("=>") || code[decl..open].contains('=') {
        Some((open, end))
    } else {
        body.find("new")
            .and_then(|n| body[n..].find('{').map(|b| open + n + b))
            .and_then(|o| matching_close(code.as_bytes(), o).map(|c| (o, c)))
    };
    init.map_or(1, |(o, c)| elements(src, &code.as_bytes()[o..=c]).max(1))
}

/// `test`: the elements of the literal its provider returns (`return new String[] {
/// a, b, c };`, `Stream.of(a, b, c)`, `List.of(…)`, `Arrays.asList(…)`); 1 when the
/// provider cannot be read that way.
fn method_source_rows(src: &Source, at: usize, test: &str) -> usize {
    let code = src.code.as_str();
    let rest = &code[at + "@MethodSource".len()..];
    // The provider's name: the annotation's string, else the test's own name.
    let named = rest.trim_start().strip_prefix('(').and_then(|_| {
        let open = at + "@MethodSource".len() + rest.find('(')?;
        let close = matching_close(code.as_bytes(), open)?;
        let text = src.text(open + 1..close);
        let inner = text
            .trim()
            .trim_start_matches("value")
            .trim_start_matches([' ', '=']);
        let name = inner.trim_matches(['"', ' ', '{', '}']);
        (!name.is_empty()).then(|| name.rsplit('#').next().unwrap_or(name).to_string())
    });
    let provider = named.unwrap_or_else(|| test.rsplit(" > ").next().unwrap_or(test).to_string());
    // A declaration without parameters (`static Stream<String> fixtures() {`), not a
    // call, not the test of the same name.
    let Some(def) = provider_declared(code, &provider, |after| {
        after
            .strip_prefix('(')
            .is_some_and(|rest| rest.trim_start().starts_with(')'))
    }) else {
        return 1;
    };
    returned_rows(src, def)
}

/// TestNG's `@Test(dataProvider = "tiers")` at `at`: the rows its provider returns
/// (`@DataProvider(name = "tiers")`, else the method of that name), 1 when unread.
fn data_provider_rows(src: &Source, at: usize) -> usize {
    let raw = String::from_utf8_lossy(src.raw);
    let name = raw[at..]
        .strip_prefix("dataProvider")
        .map(|r| r.trim_start())
        .and_then(|r| r.strip_prefix('='))
        .and_then(|r| r.trim_start().strip_prefix('"'))
        .and_then(|r| r.split('"').next())
        .filter(|n| !n.is_empty());
    let Some(name) = name else {
        return 1;
    };
    let code = src.code.as_str();
    let def = raw
        .match_indices("@DataProvider")
        .find_map(|(i, _)| {
            let open = i + raw[i..].find('(')?;
            let close = matching_close(code.as_bytes(), open)?;
            raw[open..close]
                .contains(&format!("\"{name}\""))
                .then_some(close)
        })
        .or_else(|| provider_declared(code, name, |after| after.starts_with('(')));
    def.map_or(1, |def| returned_rows(src, def))
}

/// Calls that make a provider's rows from their arguments.
const JAVA_FACTORIES: &[&str] = &["Stream.of(", "List.of(", "Arrays.asList(", "Set.of("];
const KOTLIN_FACTORIES: &[&str] = &[
    "listOf(",
    "arrayOf(",
    "setOf(",
    "sequenceOf(",
    "mutableListOf(",
];

/// The elements of the literal a provider declared at `def` returns (`return new
/// String[] { a, b, c };`, `new Object[][] { {…}, {…} }`, `Stream.of(a, b, c)`,
/// `List.of(…)`, `Arrays.asList(…)`); 1 when it cannot be read that way.
fn returned_rows(src: &Source, def: usize) -> usize {
    let code = src.code.as_str();
    // Kotlin's expression body (`fun cases() = listOf(…)`, `fun cases():
    // Stream<Arguments> = Stream.of(…)`): the literal right after the `=`.
    let head_end = code[def..].find(['{', '=']).map(|o| def + o);
    if let Some(eq) =
        head_end.filter(|&e| code[e..].starts_with('=') && !code[e..].starts_with("=="))
    {
        let expr = code[eq + 1..].trim_start();
        let at = code.len() - expr.len();
        return KOTLIN_FACTORIES
            .iter()
            .chain(JAVA_FACTORIES)
            .find(|f| expr.starts_with(**f))
            .and_then(|f| {
                let open = at + f.len() - 1;
                matching_close(code.as_bytes(), open).map(|close| (open, close))
            })
            .map_or(1, |(open, close)| {
                elements(src, &code.as_bytes()[open..=close]).max(1)
            });
    }
    let Some(open) = code[def..].find('{').map(|o| def + o) else {
        return 1;
    };
    let Some(close) = matching_close(code.as_bytes(), open) else {
        return 1;
    };
    let body = &code[open..close];
    JAVA_FACTORIES
        .iter()
        .chain(KOTLIN_FACTORIES)
        .filter_map(|f| body.find(f).map(|i| i + f.len() - 1))
        .chain(body.find("new ").and_then(|i| {
            let arr = body[i..].find("[]")? + i;
            let brace = body[arr..].find('{')? + arr;
            body[arr + 2..brace]
                .chars()
                .all(|c| c.is_whitespace() || c == '[' || c == ']')
                .then_some(brace)
        }))
        .min()
        .and_then(|open| matching_close(body.as_bytes(), open).map(|close| (open, close)))
        .map_or(1, |(open, close)| {
            elements(src, &body.as_bytes()[open..=close]).max(1)
        })
}

/// The rows of a JUnit `@CsvSource(textBlock = """…""")` at `at`: its lines that are
/// neither blank nor `#` comments, less a header line the annotation declares
/// (`useHeadersInDisplayName = true`). `None` without a text block.
fn text_block_rows(src: &Source, at: usize) -> Option<usize> {
    let code = src.code.as_bytes();
    let open = at + code[at..].iter().position(|&c| c == b'(')?;
    let close = matching_close(code, open)?;
    let args = &src.code[open + 1..close];
    if !args.contains("textBlock") {
        return None;
    }
    let raw = std::str::from_utf8(&src.raw[open..close]).ok()?;
    let start = raw.find("\"\"\"")? + 3;
    let end = start + raw[start..].find("\"\"\"")?;
    let lines = raw[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    let header = declares_header(args);
    Some(lines.saturating_sub(usize::from(header)).max(1))
}

/// Whether a `@CsvSource`'s arguments declare its first line a header.
fn declares_header(args: &str) -> bool {
    args.split(',').any(|a| {
        let a: String = a.split_whitespace().collect();
        a == "useHeadersInDisplayName=true"
    })
}

/// The rows of a JUnit source annotation at `at`: its array (`{"a", "b"}`, Kotlin's
/// `[1, 2]`), else its arguments (Kotlin's vararg `@CsvSource("1, 2", "3, 4")`; the
/// strings are blanked, so only the commas between them are left).
fn annotation_rows(src: &Source, code: &[u8], at: usize) -> usize {
    let Some(open) = code[at..].iter().position(|&c| c == b'(').map(|i| at + i) else {
        return 1;
    };
    let mut depth = 0i32;
    let mut commas = 0;
    for &c in &code[open..] {
        match c {
            b'[' | b'{' if depth == 1 => return list_len(src, code, open),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => commas += 1,
            _ => {}
        }
    }
    commas + 1
}
