//! Rows filtered out of what the tests run over: a table wrapped in a filter, a limit or
//! a slice where the tests loop over it or are generated from it (`CASES.each` →
//! `CASES.first(2).each`, `for c in CASES` → `for c in [c for c in CASES if c[2]]`,
//! `describe.each(rows)` → `describe.each(rows.filter(…))`, a `@MethodSource` stream
//! given `.limit(2)`, a `MemberData` property given `.Where(…)`, `@EnumSource` told to
//! exclude names, rstest's `#[values(…)]` cut). The tests read the same; the rows they
//! run are fewer. A test class made `abstract` (nothing runs it) is read here too.

use similar::{DiffTag, TextDiff};

use super::model::{Model, Role};
use super::rules::Language;
use super::{File, finding};
use crate::finding::{Finding, FindingKind};

/// Words that keep a part of a collection.
const FILTERS: &[&str] = &[
    ".filter(",
    ".first(",
    ".take(",
    ".limit(",
    ".Where(",
    ".Take(",
    ".Skip(",
    ".slice(",
    ".select",
    ".reject",
    ".take_while(",
    ".TakeWhile(",
    "islice(",
    "[:",
    "[0:",
    " if ",
];

/// Where rows reach tests: a loop header, a generated suite or case list, or any line
/// of a file with a provider (`provided`: Java's `@MethodSource`, C#'s `MemberData`).
fn feeds_tests(line: &str, provided: bool) -> bool {
    let t = line.trim_start();
    t.starts_with("for ")
        || t.contains(".each")
        || t.contains(".forEach(")
        || t.contains("each(")
        || t.contains("parametrize(")
        // (The end of a table written inline, `it.each([` … `])('adds $a', …)`.)
        || (t.starts_with(']') && t.contains(")("))
        || provided
}

/// Whether a file's tests take rows from a provider that a line may narrow.
fn has_provider(language: Language, file: &str) -> bool {
    match language {
        Language::Java => file.contains("@MethodSource") || file.contains("@DataProvider"),
        Language::CSharp => ["MemberData", "TestCaseSource", "ClassData", "DynamicData"]
            .iter()
            .any(|w| file.contains(w)),
        _ => false,
    }
}

/// Whether `new` is `old` with a collection narrowed: the text around it the same, the
/// part that differs (`CASES` → `CASES.first(2)`, `` → `.limit(2)`) now holding a
/// filter it did not hold.
fn narrowed(old: &str, new: &str) -> bool {
    let (o, n) = (old.trim(), new.trim());
    let prefix = o.bytes().zip(n.bytes()).take_while(|(a, b)| a == b).count();
    let suffix = o[prefix..]
        .bytes()
        .rev()
        .zip(n[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    // (Back to the start of the word the change is in, and the filter's dot.)
    let start = o[..prefix]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(0);
    let (removed, added) = (&o[start..o.len() - suffix], &n[start..n.len() - suffix]);
    FILTERS
        .iter()
        .any(|f| added.contains(f) && !removed.contains(f))
        // (Only added to what was there: the old part is still in the new one.)
        && added.contains(removed.trim_start_matches(['.', '(', '[', ' ']))
}

/// The name of an RSpec `let!(:name)` made `let(:name)`, the rest of the line the same.
fn lazy_let<'a>(was: &str, now: &'a str) -> Option<&'a str> {
    let rest = now.strip_prefix("let(:")?;
    (was.strip_prefix("let!(:")? == rest).then(|| {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    })
}

/// Elements of rstest's `#[values(…)]`, a `@ValueSource` list or a pytest fixture's
/// `params=[…]` (each runs every test that takes the fixture): its top-level commas.
fn values_count(line: &str) -> Option<usize> {
    let fixture = line
        .contains("fixture(")
        .then(|| line.find("params=[").map(|i| i + "params=[".len()))
        .flatten();
    let at = fixture.or_else(|| {
        ["#[values(", "@ValueSource("]
            .iter()
            .find_map(|w| line.find(w).map(|i| i + w.len()))
    })?;
    let body = &line[at..];
    // (`@ValueSource(ints = {1, 2})`: the array's elements.)
    let body = match body.find('{') {
        Some(open) if !line.contains("#[values(") => &body[open + 1..],
        _ => body,
    };
    let mut depth = 0i32;
    let mut count = 1;
    for c in body.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => count += 1,
            _ => {}
        }
    }
    Some(count)
}

/// Findings for rows filtered out of a file's tests, and for a test class made
/// abstract.
pub(super) fn rows_filtered(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let (a, b) = (&old.src.code, &new.src.code);
    let language = file.rules.language;
    let olds: Vec<&str> = a.lines().collect();
    let news: Vec<&str> = b.lines().collect();
    // (Read once: a test file may have many lines edited.)
    let provided = has_provider(language, a) || has_provider(language, b);
    // (Read once, and only for a line that may narrow a shared generator.)
    let property = std::cell::OnceCell::new();
    // The test a line of the new file sits in.
    let test_at = |line: usize| {
        let at = new
            .src
            .line_start(line.min(new.src.line_count().saturating_sub(1)));
        new.unit_at(at)
            .map(|u| &new.units[u])
            .filter(|u| u.role == Role::Test)
            .map(|u| u.name.clone())
    };
    let mut out = Vec::new();
    for op in TextDiff::from_lines(a.as_str(), b.as_str()).ops() {
        // A filter given a line of its own in a provider's chain (`.filter(r ->
        // !r.currency().equals("JPY"))` inserted before `.toArray(Object[][]::new)`).
        if op.tag() == DiffTag::Insert && provided && op.new_range().len() == 1 {
            let line = op.new_range().start;
            let text = news.get(line).map_or("", |l| l.trim());
            if text.starts_with('.') && FILTERS.iter().any(|f| text.starts_with(f)) {
                let test = test_at(line);
                out.push(finding(
                    file.path,
                    FindingKind::TestRemoved,
                    Some(line),
                    format!(
                        "`{}`: the rows its tests run over are filtered",
                        new.src.shown(line)
                    ),
                    test.as_deref(),
                ));
            }
            continue;
        }
        if op.tag() != DiffTag::Replace {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        // (One line edited, or wrapped onto a second that goes on with a call: `…))` →
        // `…))\n.limit(2);`. A block rewritten is not read.)
        let continued = n.len() == 2
            && news
                .get(n.start + 1)
                .is_some_and(|l| l.trim_start().starts_with('.'));
        if o.len() != 1 || (n.len() != 1 && !continued) {
            continue;
        }
        let join = |lines: &[&str], r: std::ops::Range<usize>| -> String {
            r.filter_map(|i| lines.get(i).map(|l| l.trim()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (was, now) = (join(&olds, o.clone()), join(&news, n.clone()));
        let line = n.start;
        let test = test_at(line);
        let shown = || new.src.shown(line);
        let mut push = |kind, detail: String| {
            out.push(finding(
                file.path,
                kind,
                Some(line),
                detail,
                test.as_deref(),
            ));
        };
        if let Some(name) = lazy_let(&was, &now)
            && let Some(unnamed) = new.units.iter().find(|u| {
                u.role == Role::Test
                    && u.span.start > new.src.line_start(line)
                    && !super::checks::mentions(&b[u.span.clone()], name)
            })
        {
            push(
                FindingKind::AssertionLoosened,
                format!(
                    "`{}`: `let!` made lazy: tests that do not name `{name}` (`{}`) no longer \
                     get what it makes, so checks that need it there pass without it",
                    shown(),
                    unnamed.name
                ),
            );
        } else if test.is_none()
            && let Some((sa, sb)) = super::generators::shared_narrowed(&was, &now)
            && *property.get_or_init(|| super::generators::generates_inputs(b))
        {
            push(
                FindingKind::TestRemoved,
                format!(
                    "`{}`: a generator the file's property tests share is narrowed (`{}` → \
                     `{}`)",
                    shown(),
                    &was[sa],
                    &now[sb]
                ),
            );
        } else if (feeds_tests(&was, provided) || feeds_tests(&now, provided))
            && narrowed(&was, &now)
        {
            push(
                FindingKind::TestRemoved,
                format!("`{}`: the rows its tests run over are filtered", shown()),
            );
        } else if let (Some(had), Some(has)) = (values_count(&was), values_count(&now))
            && has < had
        {
            push(
                FindingKind::TestRemoved,
                format!("`{}`: {had} values before, {has} after", shown()),
            );
        } else if was.starts_with("@EnumSource(")
            && now.starts_with("@EnumSource(")
            && !was.contains("names")
            && now.contains("names")
        {
            push(
                FindingKind::TestRemoved,
                format!("`{}`: the enum's values are filtered", shown()),
            );
        } else if matches!(language, Language::Java | Language::CSharp)
            && !was.contains("abstract ")
            && now.contains("abstract class ")
            && was.contains("class ")
            && was.replace(' ', "") == now.replacen("abstract ", "", 1).replace(' ', "")
        {
            // (Unless a class in the file extends it.)
            let name = now
                .split("class ")
                .nth(1)
                .map(|r| {
                    r.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or("")
                })
                .unwrap_or("");
            let extended = !name.is_empty()
                && [
                    format!("extends {name}"),
                    format!(": {name}"),
                    format!(":{name}"),
                ]
                .iter()
                .any(|e| b.contains(e.as_str()));
            if !extended {
                push(
                    FindingKind::SkipAdded,
                    format!("`{}`: an abstract class is not run", shown()),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_is_read_where_rows_are_added_to_not_replaced() {
        assert!(narrowed(
            "CASES.each do |input, expected|",
            "CASES.first(2).each do |input, expected|"
        ));
        assert!(narrowed(
            "for text, expected, _ in CASES:",
            "for text, expected, _ in [c for c in CASES if c[2]]:"
        ));
        assert!(narrowed(
            "describe.each(rows)('tax', ({ income }) => {",
            "describe.each(rows.filter((r) => !r.edge))('tax', ({ income }) => {"
        ));
        assert!(!narrowed("for c in CASES:", "for c in OTHER_CASES:"));
        assert!(!narrowed("for c in cases.filter(ok):", "for c in cases:"));
    }

    #[test]
    fn values_are_counted_at_the_top_level() {
        assert_eq!(values_count("#[values(1, 15, (2, 3))] day: u32,"), Some(3));
        assert_eq!(values_count("@ValueSource(ints = {1, 2})"), Some(2));
        assert_eq!(values_count("let x = 1;"), None);
    }
}
