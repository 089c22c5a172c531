//! Python: `def` and `class` by indentation; pytest and unittest names, runner hooks,
//! `parametrize` cases, and a test redefined later in its scope.

use super::{head_start, new_unit};
use crate::weakening::checks::split_top;
use crate::weakening::model::{Role, Unit};
use crate::weakening::rules::Rules;
use crate::weakening::source::{Source, at_line_start, list_len};
use crate::weakening::tables::table_rows;

const PY_RUNNERS: &[&str] = &[
    "setUp",
    "setUpClass",
    "setup_method",
    "setup_class",
    "setup",
    "asyncSetUp",
];
const PY_FILE_RUNNERS: &[&str] = &[
    "setUpModule",
    "setup_module",
    "pytest_collection_modifyitems",
];

/// Whether a definition's decorators make it a pytest fixture (`@pytest.fixture`,
/// `@pytest.fixture(autouse=True)`, `@fixture`, `@pytest_asyncio.fixture`).
fn fixture(head: &str) -> bool {
    head.lines().any(|line| {
        let d = line.trim_start();
        d.starts_with('@')
            && d[1..]
                .split('(')
                .next()
                .is_some_and(|name| name.trim() == "fixture" || name.trim().ends_with(".fixture"))
    })
}

/// Whether a class of this name and bases is collected as a test class: pytest's
/// `Test…`, or a `unittest.TestCase`.
fn collected_class(name: &str, bases: &str) -> bool {
    name.starts_with("Test") || bases.contains("TestCase") || bases.contains("Test)")
}

/// Whether a class defines `__init__` or `__new__` among its own methods: pytest does
/// not collect such a class (it warns "cannot collect test class … because it has a
/// `__init__` constructor"), so its tests no longer run. (A `unittest.TestCase` runs.)
fn has_constructor(src: &Source, line: usize, block: &std::ops::Range<usize>) -> bool {
    let indent = src.indent(line).unwrap_or(0);
    let mut method_indent = None;
    for l in line + 1..src.line_count() {
        if src.line_start(l) >= block.end {
            break;
        }
        let text = src.line_text(l);
        let Some(i) = src.indent(l) else { continue };
        if text.trim().is_empty() || i <= indent {
            continue;
        }
        let own = *method_indent.get_or_insert(i);
        if i == own {
            let t = text.trim_start();
            if t.starts_with("def __init__(") || t.starts_with("def __new__(") {
                return true;
            }
        }
    }
    false
}

/// The names of the file's top-level classes that a test class there inherits from
/// (`class ParserCases:` with `class ParserTests(ParserCases, unittest.TestCase)`): their
/// test methods run as the test class's.
/// (Not from a test class that is decorated or mentions a skip in its body: its
/// inherited tests may not run.)
fn inherited_by_tests(code: &str) -> std::collections::HashSet<&str> {
    let mut out = std::collections::HashSet::new();
    let lines: Vec<&str> = code.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("class ") else {
            continue;
        };
        let decorated = lines[..n]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with('@'));
        let skipped = lines[n + 1..]
            .iter()
            .take_while(|l| l.trim().is_empty() || l.starts_with([' ', '\t']))
            .any(|l| l.contains("skip") || l.contains("__test__"));
        if decorated || skipped {
            continue;
        }
        let Some((name, bases)) = rest.split_once('(') else {
            continue;
        };
        let Some((bases, _)) = bases.split_once(')') else {
            continue;
        };
        if collected_class(name.trim(), &format!("({bases})")) {
            out.extend(
                bases.split(',').map(str::trim).filter(|b| {
                    !b.is_empty() && b.chars().all(|c| c.is_alphanumeric() || c == '_')
                }),
            );
        }
    }
    out
}

/// The units of a Python file.
pub(super) fn python_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    struct Open {
        indent: usize,
        end: usize,
        class: bool,
        name: String,
        collected: bool,
    }
    let code = &src.code;
    let inherited = inherited_by_tests(code);
    let mut stack: Vec<Open> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    for m in rules.defs.find_iter(code.as_bytes()) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let def_at = m.start() + (text.len() - trimmed.len());
        if !at_line_start(src.b(), def_at) {
            continue;
        }
        let line = src.line_of(def_at);
        let indent = src.indent(line).unwrap_or(0);
        while stack
            .last()
            .is_some_and(|o| o.end <= def_at || o.indent >= indent)
        {
            stack.pop();
        }
        let class = trimmed.starts_with("class");
        let name = trimmed.rsplit([' ', '\t']).next().unwrap_or("").to_string();
        let block = src.indent_block(line);
        let parent = stack.last();
        if class {
            let header = src.line_text(line);
            let bases = header.find('(').map_or("", |i| &header[i..]);
            let in_function = parent.is_some_and(|p| !p.class);
            let collected = !in_function
                && parent.is_none_or(|p| p.collected)
                && (collected_class(&name, bases)
                    || (parent.is_none() && inherited.contains(name.as_str())))
                && (bases.contains("TestCase") || !has_constructor(src, line, &block));
            stack.push(Open {
                indent,
                end: block.end,
                class: true,
                name: match parent {
                    Some(p) if p.class => format!("{}.{name}", p.name),
                    _ => name.clone(),
                },
                collected,
            });
            continue;
        }
        let in_function = parent.is_some_and(|p| !p.class);
        let owner = parent.filter(|p| p.class);
        let qual = match owner {
            Some(p) => format!("{}.{name}", p.name),
            None => name.clone(),
        };
        let head = head_start(src, line, &["@"]);
        let head_text = &code[head..def_at];
        let extra_test = rules
            .extra_tests
            .as_ref()
            .is_some_and(|r| r.is_match(head_text.as_bytes()));
        let role = if in_function {
            Role::Helper
        } else if (name.starts_with("test") && owner.is_none_or(|p| p.collected)) || extra_test {
            Role::Test
        } else if (PY_RUNNERS.contains(&name.as_str()) && owner.is_some())
            || (PY_FILE_RUNNERS.contains(&name.as_str()) && owner.is_none())
        {
            Role::Runner
        } else if fixture(head_text) {
            // A pytest fixture runs before the tests that take it: a skip in it skips
            // them all.
            Role::Runner
        } else {
            Role::Helper
        };
        let mut unit = new_unit(qual, name.clone(), role, line, head..block.end);
        if role == Role::Runner {
            unit.scope = stack
                .iter()
                .rev()
                .find(|o| o.class)
                .map(|o| src.line_start(src.line_of(o.end.saturating_sub(1)).min(line))..o.end)
                .map(|r| {
                    // the class block: from its header (found by indentation) to its end
                    let header = (0..line)
                        .rev()
                        .find(|&l| src.indent(l).is_some_and(|i| i < indent))
                        .unwrap_or(0);
                    src.line_start(header)..r.end
                });
        }
        let mut cases = 1;
        let mut from = 0;
        while let Some(at) = head_text[from..].find("parametrize(") {
            let at = from + at + "parametrize(".len();
            // The argument values: the list after the names.
            let args = &head_text.as_bytes()[at..];
            let comma = {
                let mut depth = 0i32;
                let mut found = None;
                for (i, &c) in args.iter().enumerate() {
                    match c {
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth -= 1,
                        b',' if depth == 0 => {
                            found = Some(i + 1);
                            break;
                        }
                        _ => {}
                    }
                    if depth < 0 {
                        break;
                    }
                }
                found
            };
            if let Some(c) = comma {
                // A table passed by name (`parametrize("a, b", CASES)`): its rows where
                // it is assigned.
                let rest = &head_text[at + c..];
                let mut depth = 0i32;
                let end = rest
                    .bytes()
                    .position(|b| {
                        match b {
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' | b'}' => depth -= 1,
                            _ => {}
                        }
                        depth < 0
                    })
                    .unwrap_or(rest.len());
                let value = split_top(&rest[..end]).first().map(|v| v.trim());
                cases *= value
                    .filter(|v| !v.starts_with(['[', '(']))
                    .and_then(|v| table_rows(src, v, 0..0))
                    .unwrap_or_else(|| list_len(src, args, c));
            }
            from = at;
        }
        // Hypothesis runs each explicit `@example(…)` of a `@given` test as a case of
        // its own, whatever it generates.
        if head_text.contains("@given(") {
            cases += head_text
                .lines()
                .map(str::trim_start)
                .filter(|l| l.starts_with("@example(") || l.starts_with("@hypothesis.example("))
                .count();
        }
        unit.cases = cases;
        units.push(unit);
        stack.push(Open {
            indent,
            end: block.end,
            class: false,
            name,
            collected: false,
        });
    }
    // A later definition with the same qualified name replaces an earlier one.
    let mut last_by_name: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut shadowed = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if u.role != Role::Test {
            continue;
        }
        if let Some(prev) = last_by_name.insert(u.name.as_str(), i) {
            shadowed.push((prev, u.line));
        }
    }
    for (i, by) in shadowed {
        units[i].shadowed_by = Some(by);
    }
    units
}
