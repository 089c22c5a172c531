//! Which old test became which new test: by name within a file, then (for tests
//! missing from one file) by name, by checks, or by the names that went with them, in
//! another file of the change.

use std::collections::{HashMap, HashSet};

use super::bags::own_keys;
use super::checks::Strength;
use super::model::{Model, Role, Unit};
use super::rules::{Language, Rules};
use super::{At, File, checks};

/// Tests the runner collects (a test redefined later in its scope does not run).
pub(super) fn live_tests<'m>(model: &'m Model) -> impl Iterator<Item = usize> + 'm {
    model
        .tests()
        .filter(|(_, u)| u.shadowed_by.is_none())
        .map(|(i, _)| i)
}

/// Matches tests by qualified name, then what is left by the name alone.
pub(super) fn match_by_name(
    old: Option<&Model>,
    old_tests: &[usize],
    new: Option<&Model>,
    new_tests: &[usize],
) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let (Some(old), Some(new)) = (old, new) else {
        return (Vec::new(), old_tests.to_vec(), new_tests.to_vec());
    };
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for &n in new_tests {
        by_name
            .entry(new.units[n].name.as_str())
            .or_default()
            .push(n);
    }
    let mut pairs = Vec::new();
    let mut left_old = Vec::new();
    for &o in old_tests {
        match by_name.get_mut(old.units[o].name.as_str()) {
            Some(list) if !list.is_empty() => pairs.push((o, list.remove(0))),
            _ => left_old.push(o),
        }
    }
    let mut left_new: Vec<usize> = by_name.into_values().flatten().collect();
    left_new.sort_unstable();
    // A test renamed and its old name given to a new test (`TestPlugin` →
    // `TestPluginWithSubCommands`, a new `TestPlugin` above it): the old test is the
    // new one that still runs all of its body, in order, when the test of its name
    // does not.
    // (Each new test's body is read once, and only when a changed pair needs it.)
    let mut bodies: HashMap<usize, Vec<String>> = HashMap::new();
    let mut runs = |m: usize, mine: &[String]| -> bool {
        in_order(
            mine,
            bodies
                .entry(m)
                .or_insert_with(|| body_lines(new, &new.units[m])),
        )
    };
    for (o, n) in pairs.iter_mut() {
        if left_new.is_empty() {
            break;
        }
        let (ou, nu) = (&old.units[*o], &new.units[*n]);
        if old.src.code[ou.span.clone()] == new.src.code[nu.span.clone()] {
            continue;
        }
        let mine = body_lines(old, ou);
        if mine.is_empty() || runs(*n, &mine) {
            continue;
        }
        if let Some(at) = left_new.iter().position(|&m| runs(m, &mine)) {
            std::mem::swap(n, &mut left_new[at]);
        }
    }
    left_new.sort_unstable();
    // A renamed class or suite: the same leaf name, once on each side.
    let mut still_old = Vec::new();
    for o in left_old {
        let leaf = old.units[o].leaf.as_str();
        let same: Vec<usize> = left_new
            .iter()
            .copied()
            .filter(|&n| new.units[n].leaf == leaf)
            .collect();
        let unique_old = old_tests
            .iter()
            .filter(|&&x| old.units[x].leaf == leaf)
            .count()
            == 1;
        if same.len() == 1 && unique_old {
            pairs.push((o, same[0]));
            left_new.retain(|&n| n != same[0]);
        } else {
            still_old.push(o);
        }
    }
    // A name spelled another way: the same letters and digits, case aside
    // (`Test_helpCommand_HelpName` → `TestHelpCommand_HelpName`, `test_fooBar` →
    // `test_foo_bar`), once on each side.
    let spelled = spelling;
    let count = |m: &Model, tests: &[usize], key: &str| {
        tests
            .iter()
            .filter(|&&x| spelled(&m.units[x].name) == key)
            .count()
    };
    let mut left_old = Vec::new();
    for o in still_old {
        let key = spelled(&old.units[o].name);
        let same: Vec<usize> = left_new
            .iter()
            .copied()
            .filter(|&n| spelled(&new.units[n].name) == key)
            .collect();
        if same.len() == 1 && !key.is_empty() && count(old, old_tests, &key) == 1 {
            pairs.push((o, same[0]));
            left_new.retain(|&n| n != same[0]);
        } else {
            left_old.push(o);
        }
    }
    (pairs, left_old, left_new)
}

/// A name's letters and digits, case aside: how `Test_helpCommand_HelpName` and
/// `TestHelpCommand_HelpName` are one name spelled two ways.
/// kotest's focus prefix (`test("f:…")`) is no part of the name.
fn spelling(name: &str) -> String {
    let (head, leaf) = name.rsplit_once(" > ").unwrap_or(("", name));
    let bare = leaf.trim_start_matches(['"', '`']);
    match bare.strip_prefix("f:") {
        Some(rest) => letters(head).chain(letters(rest)).collect(),
        None => letters(name).collect(),
    }
}

/// Whether two names are one [`spelling`] (and it is not empty), without building it.
fn same_spelling(a: &str, b: &str) -> bool {
    letters(a).next().is_some() && letters(a).eq(letters(b))
}

/// A name's [`spelling`], letter by letter.
fn letters(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
}

/// Whether one qualified test name is the other under one more enclosing suite.
fn nested(a: &str, b: &str) -> bool {
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    short.contains(" > ")
        && long
            .strip_suffix(short)
            .is_some_and(|head| head.ends_with(" > "))
}

/// Pairs tests missing from one file with tests new in another file of the change
/// (moved there), taking each pair out of `removed` and `added` into `pairs`.
pub(super) fn match_across_files(
    read: &[File],
    pairs: &mut Vec<(At, At)>,
    removed: &mut Vec<At>,
    added: &mut Vec<At>,
) {
    let mut taken: HashSet<At> = HashSet::new();
    // By the same qualified name; then as a test class nested into another one, or
    // taken out of it (`Samples > Throwing > fails` ↔ `Throwing > fails`); then by the
    // test's own name; then by its name spelled another way (`TestSystemClockNewTicker`
    // → `TestSystemClock_NewTicker`); then without the name of the module it moved
    // into (`test_new_v5` in lib.rs → `test_new` in v5.rs). Each rule is tried on every
    // test before the next, so a looser rule never takes a test a stricter one pairs.
    // (`n` is the new test, in the file at `path`; `o` the old one.)
    type Same = fn(&Unit, &Unit, &[u8]) -> bool;
    let rules: [Same; 5] = [
        |n, o, _| n.name == o.name,
        |n, o, _| nested(&n.name, &o.name),
        |n, o, _| n.leaf == o.leaf,
        |n, o, _| same_spelling(&n.leaf, &o.leaf),
        |n, o, path| named_for_module(&o.leaf, &n.leaf, path),
    ];
    let mut still: Vec<At> = removed.clone();
    for same in rules {
        still.retain(|&r| {
            let Some(ru) = read[r.0].old.as_ref().map(|m| &m.units[r.1]) else {
                return false;
            };
            let candidate = added
                .iter()
                .filter(|a| a.0 != r.0 && !taken.contains(a))
                .find(|a| same(new_unit(read, **a), ru, read[a.0].path))
                .copied();
            match candidate {
                Some(a) => {
                    taken.insert(a);
                    pairs.push((r, a));
                    false
                }
                None => true,
            }
        });
    }
    let keys_of = |at: At, old_side: bool| -> HashSet<String> {
        let file = &read[at.0];
        let model = if old_side {
            file.old.as_ref()
        } else {
            file.new.as_ref()
        };
        model.map_or_else(HashSet::new, |m| {
            own_keys(Some(m), &m.units[at.1], file.rules)
        })
    };
    let shapes = |keys: &HashSet<String>| -> HashSet<String> {
        keys.iter().map(|k| checks::shape(k)).collect()
    };
    let mut by_checks: Vec<(At, HashSet<String>)> =
        still.drain(..).map(|r| (r, keys_of(r, true))).collect();
    by_checks.sort_by_key(|(r, keys)| (std::cmp::Reverse(keys.len()), *r));
    // Arrivals with their checks and shapes, indexed by each (only those holding
    // a missing test's first check can hold all of it).
    let arrivals: Vec<(At, HashSet<String>, HashSet<String>)> = added
        .iter()
        .map(|&a| {
            let keys = keys_of(a, false);
            let sh = shapes(&keys);
            (a, keys, sh)
        })
        .collect();
    let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_shape: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (_, keys, sh)) in arrivals.iter().enumerate() {
        for k in keys {
            by_key.entry(k).or_default().push(i);
        }
        for k in sh {
            by_shape.entry(k).or_default().push(i);
        }
    }
    for (r, keys) in by_checks {
        let mine = shapes(&keys);
        // The arrival holding all of `want` (in its `pick`ed set) with the fewest
        // others.
        let best = |want: &HashSet<String>, index: &HashMap<&str, Vec<usize>>, by_shape| {
            let pick = |i: usize| {
                if by_shape {
                    &arrivals[i].2
                } else {
                    &arrivals[i].1
                }
            };
            let first = want.iter().next()?;
            index
                .get(first.as_str())?
                .iter()
                .filter(|&&i| !taken.contains(&arrivals[i].0))
                .filter(|&&i| want.iter().all(|k| pick(i).contains(k)))
                .map(|&i| (pick(i).len() - want.len(), arrivals[i].0))
                .min()
                .map(|(_, a)| a)
        };
        let candidate = best(&keys, &by_key, false).or_else(|| best(&mine, &by_shape, true));
        match candidate {
            Some(a) => {
                taken.insert(a);
                pairs.push((r, a));
            }
            None => still.push(r),
        }
    }
    still.sort();
    *removed = still;
    added.retain(|a| !taken.contains(a));
}

/// The unit at `at` on the new side.
/// Whether `was` is `now` with the name of the module `path` defines in it
/// (`test_new_v5`, `test_v5_new` → `test_new` in `src/v5.rs`; `TestParseV5` →
/// `TestParse` in `v5_test.go`).
fn named_for_module(was: &str, now: &str, path: &[u8]) -> bool {
    let file = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    let stem = String::from_utf8_lossy(file.split(|&b| b == b'.').next().unwrap_or(file));
    let module = stem
        .trim_start_matches("test_")
        .trim_end_matches("_test")
        .trim_end_matches("_spec")
        .trim_end_matches("Test")
        .trim_end_matches("Tests");
    if module.len() < 2 || was.len() <= now.len() {
        return false;
    }
    let mut chars = module.chars();
    let capital: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    [format!("_{module}"), capital].iter().any(|part| {
        was.match_indices(part.as_str())
            .any(|(at, _)| format!("{}{}", &was[..at], &was[at + part.len()..]) == now)
    })
}

fn new_unit<'m>(read: &'m [File], at: At) -> &'m Unit {
    &read[at.0].new.as_ref().map(|m| &m.units[..]).unwrap_or(&[])[at.1]
}

/// Pairs tests still missing after `match_across_files` with tests new in another file
/// that call what left the old file with them: a name the old file imported or
/// defined as a helper, called in the missing test, gone from its file, and new in the
/// arrival's file (a test moved and rewritten there: renamed, its checks edited). The
/// pair is compared as any other. The arrival sharing the most such names is taken,
/// none on a tie; several missing tests of one file may go to one arrival (merged
/// there: compared together).
pub(super) fn match_by_names_left(
    read: &[File],
    removed: &mut Vec<At>,
    added: &mut Vec<At>,
) -> Vec<(Vec<At>, At)> {
    // Assertion functions (`expect`, `assertThat`) travel with any test.
    let mut heads: HashSet<&str> = HashSet::new();
    for file in read {
        for m in [file.old.as_ref(), file.new.as_ref()].into_iter().flatten() {
            heads.extend((0..m.checks.len()).filter_map(|c| m.check_callee(c)));
        }
    }
    // Each arrival: the names it calls (itself or through its file's helpers) that
    // its file did not have before.
    let mut before: HashMap<usize, HashSet<&str>> = HashMap::new();
    let arrivals: Vec<(At, HashSet<&str>)> = added
        .iter()
        .filter_map(|&a| {
            let new = read[a.0].new.as_ref()?;
            let had = before
                .entry(a.0)
                .or_insert_with(|| all_words(read[a.0].old.as_ref()));
            let unit = &new.units[a.1];
            let mut calls = body_calls(new, unit);
            for name in new.calls(unit) {
                for h in new
                    .units
                    .iter()
                    .filter(|u| u.role != Role::Test && u.leaf == name)
                {
                    calls.extend(body_calls(new, h));
                }
            }
            calls.retain(|w| !had.contains(w) && !heads.contains(w));
            (!calls.is_empty()).then_some((a, calls))
        })
        .collect();
    let mut groups: HashMap<At, Vec<At>> = HashMap::new();
    let mut still = Vec::new();
    let mut left_file: HashMap<usize, (HashSet<String>, HashSet<&str>)> = HashMap::new();
    for &r in removed.iter() {
        let file = &read[r.0];
        let Some(old) = file.old.as_ref() else {
            still.push(r);
            continue;
        };
        let (declared, kept) = left_file.entry(r.0).or_insert_with(|| {
            (
                declared(old, file.rules.language),
                all_words(file.new.as_ref()),
            )
        });
        let mine: HashSet<&str> = body_calls(old, &old.units[r.1])
            .into_iter()
            .filter(|w| declared.contains(*w) && !kept.contains(w) && !heads.contains(w))
            .collect();
        let mut best: Vec<(usize, At)> = arrivals
            .iter()
            .filter(|(a, _)| a.0 != r.0 && groups.get(a).is_none_or(|g| g[0].0 == r.0))
            .map(|(a, theirs)| (mine.intersection(theirs).count(), *a))
            .filter(|&(n, _)| n > 0)
            .collect();
        best.sort_by_key(|&(n, a)| (std::cmp::Reverse(n), a));
        match best.as_slice() {
            [(n, a), rest @ ..] if rest.first().is_none_or(|(m, _)| m < n) => {
                groups.entry(*a).or_default().push(r);
            }
            _ => still.push(r),
        }
    }
    *removed = still;
    added.retain(|a| !groups.contains_key(a));
    let mut out: Vec<(Vec<At>, At)> = groups.into_iter().map(|(a, g)| (g, a)).collect();
    out.sort();
    out
}

/// Every identifier in a file's code (none for a missing side).
fn all_words<'m>(m: Option<&'m Model>) -> HashSet<&'m str> {
    m.map_or_else(HashSet::new, |m| words(&m.src.code).collect())
}

/// The names a unit's body calls (not its head: `@Test`, `test(` are any test's).
fn body_calls<'m>(m: &'m Model, u: &Unit) -> HashSet<&'m str> {
    let from = m.src.line_end(u.line).clamp(u.span.start, u.span.end);
    called(&m.src.code[from..u.span.end], m.language).collect()
}

/// Names a file imports or defines as helpers and hooks.
fn declared(m: &Model, language: Language) -> HashSet<String> {
    let mut out: HashSet<String> = m
        .units
        .iter()
        .filter(|u| u.role != Role::Test)
        .map(|u| u.leaf.clone())
        .collect();
    let mut open = false;
    for line in m.src.code.lines() {
        let t = line.trim();
        if open || super::import_line(language, t) {
            out.extend(words(t).map(String::from));
            // An import list over several lines (`import {` … `} from`).
            open = (open || t.ends_with('{') || t.ends_with('(')) && !t.contains(['}', ')']);
        }
    }
    out
}

/// The names called in code (`name(`; in Ruby, any name).
fn called(code: &str, language: Language) -> impl Iterator<Item = &str> {
    let b = code.as_bytes();
    words(code).filter(move |w| {
        let end = w.as_ptr() as usize - code.as_ptr() as usize + w.len();
        language == Language::Ruby || b[end..].iter().find(|&&c| c != b' ') == Some(&b'(')
    })
}

/// The identifiers in code.
fn words(code: &str) -> impl Iterator<Item = &str> {
    super::source::words(code)
        .filter(|w| w.len() > 1 && !w.starts_with(|c: char| c.is_ascii_digit()))
}

/// A unit's source without the line that names it, spacing squeezed: its attributes
/// or decorators (`#[should_panic]`, `@pytest.mark.parametrize(…)`) and its body.
pub(super) fn body_lines(model: &Model, unit: &Unit) -> Vec<String> {
    let src = &model.src;
    let first = src.line_of(unit.span.start);
    let named = if (first..=src.line_of(unit.span.end.saturating_sub(1))).contains(&unit.line) {
        unit.line
    } else {
        first
    };
    let piece = |r: std::ops::Range<usize>| {
        let r = r.start.clamp(unit.span.start, unit.span.end)
            ..r.end.clamp(unit.span.start, unit.span.end);
        src.text(r)
    };
    let head = piece(unit.span.start..src.line_start(named));
    let body = piece(src.line_end(named)..unit.span.end);
    head.lines()
        .chain(body.lines())
        .map(checks::squeeze)
        .filter(|l| !l.is_empty() && !matches!(l.as_str(), "}" | "})" | "});" | ")" | "end"))
        .collect()
}

/// The tests of `gone` still in the new file as functions that nothing runs: the same
/// name or the same body, now without what made them tests (`@Test` lost in a rename,
/// `#[test]` in a doc pass, a class no longer `@Nested`) and called nowhere. No arrival
/// takes their place: they are there, and do not run.
pub(super) fn no_longer_tests(old: &Model, new: &Model, gone: &[usize]) -> Vec<usize> {
    let body = |m: &Model, u: &Unit| -> Vec<String> {
        let src = &m.src;
        let from = src.line_end(u.line).clamp(u.span.start, u.span.end);
        src.text(from..u.span.end)
            .lines()
            .map(checks::squeeze)
            .filter(|l| !l.is_empty())
            .collect()
    };
    let plain: Vec<(&Unit, Vec<String>)> = new
        .units
        .iter()
        .filter(|u| u.role == Role::Helper && !u.leaf.is_empty())
        .filter(|u| new.src.code.matches(u.leaf.as_str()).count() == 1)
        .map(|u| (u, body(new, u)))
        .collect();
    if plain.is_empty() {
        return Vec::new();
    }
    gone.iter()
        .copied()
        .filter(|&g| {
            let was = &old.units[g];
            let mine = body(old, was);
            plain
                .iter()
                .any(|(u, theirs)| u.leaf == was.leaf || (mine.len() > 1 && *theirs == mine))
        })
        .collect()
}

/// Whether a test has nothing in its body (`func TestName(t *testing.T) {}` on two
/// lines, `def test_x(): pass`), or nothing but checks of constants (the generated
/// `assert_eq!(2 + 2, 4)`): it runs no code of the project, so deleting it loses
/// nothing. A test written on one line is not read as empty (its body is on that line).
pub(super) fn empty_body(model: &Model, unit: &Unit, rules: &Rules) -> bool {
    // The declaration's line, after a plain `#[test]` (other attributes can configure
    // or skip the test: not read as empty).
    let mut first_line = model.src.line_of(unit.span.start);
    while first_line < unit.line && model.src.line_text(first_line).trim() == "#[test]" {
        first_line += 1;
    }
    let head = checks::squeeze(
        &model.src.code[model.src.line_start(first_line)..model.src.line_end(first_line)],
    );
    // (Parameters other than the runner's own can be fixtures that check: `def
    // test_db(db): pass` runs `db`'s setup.)
    let params = head
        .rfind(')')
        .and_then(|close| head[..close].rfind('(').map(|open| &head[open + 1..close]))
        .unwrap_or("");
    // Each line of a constant check (nothing but literals compared) runs nothing.
    let constant_lines: Vec<std::ops::RangeInclusive<usize>> = unit
        .checks
        .iter()
        .filter(|&&c| model.check_key(c, rules).1 == Strength::Void)
        .filter(|&&c| {
            // (And holding: `assert_eq!(0, 1)` left failing on purpose is a check.)
            let key = model.check_key(c, rules).0;
            let values: Option<Vec<f64>> = checks::subjects(&key)
                .iter()
                .map(|s| constant_value(s))
                .collect();
            values.is_some_and(|v| v.windows(2).all(|w| w[0] == w[1]))
                && !["_ne!", "!=", "not", "<", ">"]
                    .iter()
                    .any(|w| key.contains(w))
        })
        .map(|&c| {
            let span = &model.checks[c].span;
            model.src.line_of(span.start)..=model.src.line_of(span.end.saturating_sub(1))
        })
        .collect();
    let first_body_line = first_line + 1;
    let last_line = model.src.line_of(unit.span.end.saturating_sub(1));
    let body_runs_nothing = (first_body_line..=last_line).all(|l| {
        let t = checks::squeeze(model.src.line_text(l));
        matches!(
            t.as_str(),
            "" | "pass" | "..." | "end" | "}" | "})" | "});" | ")"
        ) || constant_lines.iter().any(|r| r.contains(&l))
    });
    constant_lines.len() == unit.checks.len()
        && matches!(params, "" | "self" | "cls" | "t *testing.T" | "t*testing.T")
        && (head.ends_with('{') || head.ends_with(':') || head.ends_with(" do"))
        && body_runs_nothing
}

/// The value of a number expression (`2 + 2`, `-(3*4)/2`), if that is all it is.
fn constant_value(text: &str) -> Option<f64> {
    fn sum(b: &[u8], at: &mut usize) -> Option<f64> {
        let mut v = product(b, at)?;
        while let Some(&op) = b.get(*at).filter(|&&c| c == b'+' || c == b'-') {
            *at += 1;
            let r = product(b, at)?;
            v = if op == b'+' { v + r } else { v - r };
        }
        Some(v)
    }
    fn product(b: &[u8], at: &mut usize) -> Option<f64> {
        let mut v = unary(b, at)?;
        while let Some(&op) = b.get(*at).filter(|&&c| c == b'*' || c == b'/') {
            *at += 1;
            let r = unary(b, at)?;
            v = if op == b'*' { v * r } else { v / r };
        }
        Some(v)
    }
    fn unary(b: &[u8], at: &mut usize) -> Option<f64> {
        match b.get(*at)? {
            b'-' => {
                *at += 1;
                unary(b, at).map(|v| -v)
            }
            b'(' => {
                *at += 1;
                let v = sum(b, at)?;
                (b.get(*at) == Some(&b')')).then(|| *at += 1)?;
                Some(v)
            }
            _ => {
                let start = *at;
                while b.get(*at).is_some_and(|c| c.is_ascii_digit() || *c == b'.') {
                    *at += 1;
                }
                std::str::from_utf8(&b[start..*at]).ok()?.parse().ok()
            }
        }
    }
    let squeezed: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut at = 0;
    let value = sum(&squeezed, &mut at)?;
    (at == squeezed.len()).then_some(value)
}

/// Whether every line of `part` appears in `whole`, in the same order.
pub(super) fn in_order(part: &[String], whole: &[String]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|line| rest.any(|w| w == line))
}

/// The missing tests of a file that none of its new tests takes the place of: each
/// calls names its file imports, and still does after the change, and none of them is
/// used anywhere in the new file but in its import lines and in tests it had before
/// (`redact` tests deleted while tests of `redactUrl`, which the file never called
/// before, arrive). Not in a new test, a
/// helper, a hook, a constant (setup moved into `beforeEach`, values into fields). A
/// name gone from the file may have been renamed; a test calling nothing the file
/// imports says nothing: neither is taken.
pub(super) fn replaced_by_none(
    old: &Model,
    new: &Model,
    language: Language,
    gone: &[usize],
    arrived: &[usize],
) -> Vec<usize> {
    let heads: HashSet<&str> = (0..old.checks.len())
        .filter_map(|c| old.check_callee(c))
        .chain((0..new.checks.len()).filter_map(|c| new.check_callee(c)))
        .collect();
    // (Imported names: a helper of the file may be a check written once.)
    let imported = |m: &Model| -> HashSet<String> {
        let mut names = declared(m, language);
        for u in m.units.iter().filter(|u| u.role != Role::Test) {
            names.remove(&u.leaf);
        }
        names
    };
    let (had, has) = (imported(old), imported(new));
    let mine: Vec<(usize, HashSet<&str>)> = gone
        .iter()
        .map(|&u| {
            let subjects: HashSet<&str> = body_calls(old, &old.units[u])
                .into_iter()
                .filter(|w| had.contains(*w) && has.contains(*w) && !heads.contains(w))
                .collect();
            (u, subjects)
        })
        .filter(|(_, s)| !s.is_empty())
        .collect();
    // The arrivals exercise a name the file never called before (else they may be
    // the missing tests under an alias: `require('../browser')(…)` for `pino(…)`).
    let before: HashSet<&str> = called(&old.src.code, language).collect();
    let theirs: HashSet<&str> = arrived
        .iter()
        .flat_map(|&a| body_calls(new, &new.units[a]))
        .filter(|w| has.contains(*w) && !heads.contains(w) && !before.contains(w))
        .collect();
    if mine.is_empty() || theirs.is_empty() {
        return Vec::new();
    }
    // The new file's words outside its import lines and the tests it kept.
    let kept: Vec<std::ops::Range<usize>> = new
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.role == Role::Test && !arrived.contains(i))
        .map(|(_, u)| u.span.clone())
        .collect();
    let mut elsewhere: HashSet<&str> = HashSet::new();
    let mut open = false;
    for line in 0..new.src.line_count() {
        let start = new.src.line_start(line);
        if kept.iter().any(|k| k.contains(&start)) {
            continue;
        }
        let text = new.src.line_text(line);
        let t = text.trim();
        if open || super::import_line(language, t) {
            open = (open || t.ends_with('{') || t.ends_with('(')) && !t.contains(['}', ')']);
            continue;
        }
        elsewhere.extend(words(text));
    }
    mine.into_iter()
        .filter(|(_, s)| s.iter().all(|w| !elsewhere.contains(w)))
        .map(|(u, _)| u)
        .collect()
}
