//! One old test (or helper, or hook) against what it became: skips added, parametrised
//! cases dropped, checks removed or loosened.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use similar::{DiffOp, TextDiff};

use super::bags::{Appeared, Item, bag, bag_of};
use super::checks::{self, Strength, repeat_of, unrepeated};
use super::gates::EnvCondition;
use super::matching::body_lines;
use super::model::{GUARDED, Model, Role, Skip, SkipKind, Unit};
use super::opaque;
use super::rules::Language;
use super::skips::UNMARKED_ASYNC;
use super::{At, File, Finding, FindingKind, finding};

/// Whether the lines a test lost (its table rows) all appear in another test of the
/// change that runs and checks (rows moved into a new test, `TestCompare` → `TestCompare17` in a file built
/// only by newer compilers): the cases still run. Lines of no content (`},`) do not
/// count, and a test that lost no line with content moved nothing.
fn rows_moved(read: &[File], n: At, old: &Model, ou: &Unit, new: &Model, nu: &Unit) -> bool {
    let kept: HashSet<String> = body_lines(new, nu).into_iter().collect();
    // (A loop's header is no row: `for n, s in CASES:` cut to `CASES[:3]` beside another
    // test looping over all of `CASES` moved nothing there.)
    let header = |l: &str| {
        l.starts_with("for ")
            || l.starts_with("for(")
            || l.contains(".each")
            || l.contains(".forEach(")
    };
    let gone: Vec<String> = body_lines(old, ou)
        .into_iter()
        .filter(|l| {
            !kept.contains(l)
                && !header(l)
                && l.bytes().filter(u8::is_ascii_alphanumeric).count() > 2
        })
        .collect();
    if gone.is_empty() {
        return false;
    }
    let elsewhere: HashSet<String> = read
        .iter()
        .enumerate()
        .filter_map(|(fi, f)| f.new.as_ref().map(|m| (fi, m)))
        .flat_map(|(fi, m)| {
            m.tests()
                .filter(move |(u, unit)| {
                    (fi, *u) != n && !unit.checks.is_empty() && !m.never_runs(unit)
                })
                .flat_map(move |(_, u)| body_lines(m, u))
        })
        .collect();
    if gone.iter().all(|l| elsewhere.contains(l)) {
        return true;
    }
    // (Or into the file's own data, outside every unit, for the test to loop over
    // there: Go's `cases := []struct{…}{…}` made a package `var romanCases` that a
    // benchmark shares.)
    let Some(file) = read.get(n.0).and_then(|f| f.new.as_ref()) else {
        return false;
    };
    let loops_over_a_name = body_lines(new, nu).iter().any(|l| {
        header(l)
            && l.trim_end_matches(['{', ':', ' '])
                .rsplit([' ', '('])
                .next()
                .is_some_and(|x| x.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    });
    if !loops_over_a_name {
        return false;
    }
    let inside = |at: usize| file.units.iter().any(|u| u.span.contains(&at));
    let mut at = 0;
    let outside: HashSet<String> = file
        .src
        .code
        .split_inclusive('\n')
        .filter_map(|l| {
            let start = at;
            at += l.len();
            (!inside(start)).then(|| checks::squeeze(&file.src.text(start..at)))
        })
        .collect();
    // (All but the line that named it in the test: `cases := []struct {`.)
    let missing: Vec<&String> = gone.iter().filter(|l| !outside.contains(*l)).collect();
    missing.len() <= 1 && missing.iter().all(|l| l.contains('='))
}

/// Whether each row a parametrised test lost is written out as a check of another test
/// of its file that runs (`[InlineData("CA", 0.01, 0.01)]` → a `[Fact]` checking
/// `Total(0.01m, "CA").Should().Be(0.01m)`): the test's own check, its parameters
/// given the row's values.
fn rows_written_out(old: &Model, ou: &Unit, new: &Model, (nu_at, nu): (usize, &Unit)) -> bool {
    let kept: HashSet<String> = body_lines(new, nu).into_iter().collect();
    let gone: Vec<String> = body_lines(old, ou)
        .into_iter()
        .filter(|l| !kept.contains(l) && !checks::literal_values(l).is_empty())
        .collect();
    if gone.is_empty() {
        return false;
    }
    // (`0.01m` is `0.01`: a row's attribute and the check spell a number apart.)
    let plain = |v: &str| -> String {
        if v.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            v.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .to_string()
        } else {
            v.to_string()
        }
    };
    let sorted = |values: Vec<&str>| {
        let mut values: Vec<String> = values.into_iter().map(plain).collect();
        values.sort_unstable();
        values
    };
    // (Each check with its subject, as written: `_calc.Total(net, state).Should()…`.)
    let written = |c: usize| {
        let check = &new.checks[c];
        checks::squeeze(&String::from_utf8_lossy(
            &new.src.raw[check.receiver.min(check.span.start)..check.span.end],
        ))
    };
    let own: Vec<String> = nu.checks.iter().map(|&c| written(c)).collect();
    let others: Vec<String> = new
        .tests()
        .filter(|(u, unit)| *u != nu_at && !new.never_runs(unit))
        .flat_map(|(_, unit)| unit.checks.iter().map(|&c| written(c)))
        .collect();
    gone.iter().all(|row| {
        let values = sorted(checks::literal_values(row));
        others.iter().any(|other| {
            own.iter().any(|general| {
                checks::template_values(general, other).is_some_and(|v| sorted(v) == values)
            })
        })
    })
}

/// Whether a check at `old_line` and one at `new_line` sit in blocks opened by the
/// same header (`} else {`, `if tt.wantErr {`), read in brace languages only.
/// Whether a gained check is about what a lost one was about, read as written or
/// through the names each test assigned (`let s = m.to_string()`).
fn stands_for(lost: &Item, gained: &Item) -> bool {
    checks::related(&lost.key, &gained.key) || checks::related_subjects(&lost.parts, &gained.parts)
}

/// The lines to show for a check replaced by another: their first lines, or, for
/// checks written over several lines that start alike (`bin()` … `.assert()` …), the
/// first line of each that the other lacks; for a Go failure whose condition changed
/// (`if !ok || v != 3 {` → `if ok && v != 3 {`), the lines of the conditions.
fn replaced_lines(old: &Model, was: usize, new: &Model, now: usize) -> (String, String) {
    let (a, b) = (old.src.shown(was), new.src.shown(now));
    if a != b {
        return (a, b);
    }
    let lines = |m: &Model, line: usize| -> Vec<String> {
        let end = m
            .checks
            .iter()
            .find(|c| c.line == line)
            .map_or(line, |c| m.src.line_of(c.span.end.saturating_sub(1)));
        (line..=end).map(|l| m.src.shown(l)).collect()
    };
    let (la, lb) = (lines(old, was), lines(new, now));
    let bare = |l: &String| l.trim_end_matches([';', ',']).to_string();
    let lacking = |these: &[String], those: &[String]| {
        these
            .iter()
            .find(|l| !those.iter().any(|o| bare(o) == bare(l)))
            .cloned()
    };
    match (lacking(&la, &lb), lacking(&lb, &la)) {
        (Some(x), Some(y)) => (x, y),
        (Some(x), None) => (x, lb.last().cloned().unwrap_or(b)),
        (None, Some(y)) => (la.last().cloned().unwrap_or(a), y),
        (None, None) if was > 0 && now > 0 => {
            let (x, y) = (old.src.shown(was - 1), new.src.shown(now - 1));
            if x != y && x.starts_with("if ") && y.starts_with("if ") {
                (x, y)
            } else {
                (a, b)
            }
        }
        (None, None) => (a, b),
    }
}

fn same_branch(old: &Model, old_line: usize, new: &Model, new_line: usize) -> bool {
    let header = |m: &Model, line: usize| -> Option<String> {
        let text = m.src.line_text(line);
        let pos = m.src.line_start(line) + (text.len() - text.trim_start().len());
        let open = m.src.enclosing_brace(pos)?;
        let l = m.src.line_of(open);
        Some(checks::squeeze(&m.src.code[m.src.line_start(l)..=open]))
    };
    match (header(old, old_line), header(new, new_line)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Compares one old test with the test it became.
pub(super) fn compare_pair(
    read: &[File],
    o: At,
    n: At,
    helpers_changed: bool,
    elsewhere: &Appeared,
) -> Vec<Finding> {
    let (of, nf) = (&read[o.0], &read[n.0]);
    let (Some(old), Some(new)) = (of.old.as_ref(), nf.new.as_ref()) else {
        return Vec::new();
    };
    let (ou, nu) = (&old.units[o.1], &new.units[n.1]);
    let mut out = Vec::new();
    out.extend(compare_skips(nf, old, ou, new, nu));
    out.extend(assertion_count_dropped(nf, old, ou, new, nu));
    // Fewer parametrised cases is a removed test, unless the rows became checks
    // (`[Theory]` rows written out in a `[Fact]`).
    // (Counted as written: the same check after each of several inputs counts each time.
    // A test with no check read, one that passes when it runs without a panic or calls
    // helpers such as `expect_offense`, counts as one: its rows are its cases too. Not in
    // Go, whose cases are subtests: unwrapped into a plain loop, they all still run, and
    // with no check read there is no telling that the loop holds them.)
    let floor = usize::from(new.language != Language::Go);
    let own = |_: &Model, u: &Unit| u.checks.len().max(floor);
    // (Go: subtests unwrapped into a plain loop over as many rows still run every
    // row's checks.)
    // (One loop only: `rows` reads the first loop with checks, which must be the
    // one the subtests' checks went to.)
    let rows_kept = || {
        new.language == Language::Go
            && new.src.code[nu.span.clone()].matches("range ").count() == 1
            && new.rows(nu) >= ou.cases
            && nu.checks.iter().any(|&c| new.in_loop(nu, c))
    };
    if nu.cases < ou.cases
        && nu.cases * own(new, nu) < ou.cases * own(old, ou)
        && !rows_kept()
        && !rows_moved(read, n, old, ou, new, nu)
        && !rows_written_out(old, ou, new, (n.1, nu))
    {
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!(
                "`{}`: {} cases before, {} after",
                nu.name, ou.cases, nu.cases
            ),
            Some(&nu.name),
        ));
    }
    // A row dropped while others arrive: as many cases, but one input no longer tested.
    if let Some(row) =
        super::tables::row_swapped(old, ou, new, nu, |l| nf.rules.checks.is_match(l.as_bytes()))
    {
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!(
                "`{}`: its case `{row}` went while other cases arrived, so that input is \
                 tested no more",
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    // Rows cut from the table the test loops over (`for s in ["1h", "90m", "45s"]` →
    // `["1h"]`, `self.CASES` → `self.CASES[:2]`): fewer inputs reach the same checks.
    if nu.cases == ou.cases
        && let (Some(was), Some(now)) = (old.looped_rows(ou), new.looped_rows(nu))
        && now < was
        && !rows_moved(read, n, old, ou, new, nu)
    {
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!(
                "`{}`: the table it loops over has {was} rows before, {now} after",
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    // kotest runs no test whose name starts with `!` (`test("!slow path")`).
    // (A kotest test's name with a marker before it: `!` disables, `f:` focuses.)
    let marked = |m: &Model, u: &Unit, marker: &str| {
        m.language == Language::Java
            && u.name
                .rsplit(" > ")
                .next()
                .is_some_and(|leaf| leaf.trim_start_matches(['"', '`']).starts_with(marker))
            && memchr::memmem::find(m.src.b(), b"io.kotest").is_some()
    };
    if marked(new, nu, "!") && !marked(old, ou, "!") {
        out.push(finding(
            nf.path,
            FindingKind::SkipAdded,
            Some(nu.line),
            format!(
                "`{}`: a `!` before its name, so kotest no longer runs it",
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    // kotest runs only the focused tests of a spec when one is focused: `test("f:…")`
    // stops the spec's other tests from running.
    if marked(new, nu, "f:") && !marked(old, ou, "f:") {
        let others = new
            .units
            .iter()
            .filter(|u| u.role == Role::Test && u.span != nu.span)
            .count();
        if others > 0 {
            out.push(finding(
                nf.path,
                FindingKind::SkipAdded,
                Some(nu.line),
                format!(
                    "`{}`: an `f:` before its name focuses kotest on it, so the spec's \
                     {others} other test{} no longer run",
                    nu.name,
                    if others == 1 { "" } else { "s" }
                ),
                Some(&nu.name),
            ));
        }
    }
    let (old_code, new_code) = (
        &old.src.code[ou.span.clone()],
        &new.src.code[nu.span.clone()],
    );
    // A property test's generators narrowed: fewer inputs reach the same checks.
    if let Some((was, now)) = super::generators::narrowed(old_code, new_code) {
        let at = |m: &Model, u: &Unit, r: std::ops::Range<usize>| {
            checks::squeeze(&m.src.text(u.span.start + r.start..u.span.start + r.end))
        };
        let (was, now) = (at(old, ou, was), at(new, nu, now));
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!(
                "`{}`: the inputs it generates are narrowed (`{was}` → `{now}`)",
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    if old_code != new_code {
        out.extend(rewritten_checks(
            nf.path, old, ou, new, nu, old_code, new_code,
        ));
    }
    // A fake clock moved, or a tolerance the test sets up raised, before the same
    // checks: they look at another moment, or let more through.
    let moved = [
        (
            super::clocks::moved(old_code, new_code),
            "before the same checks",
        ),
        (
            super::clocks::tolerance_raised(old_code, new_code),
            "the tolerance its checks use lets more through",
        ),
    ];
    for (lines, why) in moved {
        let Some((was, now)) = lines else { continue };
        let (was, now) = (
            old.src.line_of(ou.span.start) + was,
            new.src.line_of(nu.span.start) + now,
        );
        out.push(finding(
            nf.path,
            FindingKind::AssertionLoosened,
            Some(now),
            format!(
                "`{}`: `{}` was `{}`: {why}",
                nu.name,
                new.src.shown(now),
                old.src.shown(was)
            ),
            Some(&nu.name),
        ));
    }
    // The same code, the same helpers: nothing more to compare.
    let same_code = old_code == new_code
        && old.comment_keys(ou.span.clone(), of.rules)
            == new.comment_keys(nu.span.clone(), nf.rules);
    if same_code && o.0 == n.0 && !helpers_changed {
        return out;
    }
    let mut before = bag(old, ou, of.rules);
    let after = bag(new, nu, nf.rules);
    // A check the old test's own handler swallowed could never fail: it is not lost
    // when it goes with the handler (JUnit testing itself: `try { assertEquals(…);
    // fail(); } catch (AssertionFailedError e) {}`).
    if !nu.checks.iter().any(|&c| new.swallowed(nu, c)) {
        let swallowed: HashSet<usize> = ou
            .checks
            .iter()
            .filter(|&&c| old.swallowed(ou, c))
            .map(|&c| old.checks[c].line)
            .collect();
        before.retain(|i| !(i.own && swallowed.contains(&i.line)));
    }
    let line = if o.0 == n.0 { None } else { Some(nu.line) };
    // An old line of the test, placed in the new test by a diff of the two tests
    // alone (small: no diff of the whole file).
    let within = |old_line: usize| -> usize {
        let (o0, n0) = (
            old.src.line_of(ou.span.start),
            new.src.line_of(nu.span.start),
        );
        let last = new.src.line_of(nu.span.end.saturating_sub(1)).max(n0);
        let a = &old.src.code[ou.span.clone()];
        let b = &new.src.code[nu.span.clone()];
        let target = old_line.saturating_sub(o0);
        let mut mapped = None;
        for op in TextDiff::from_lines(a, b).ops() {
            let (o, n) = (op.old_range(), op.new_range());
            if o.contains(&target) {
                mapped = Some(match op {
                    DiffOp::Delete { .. } | DiffOp::Insert { .. } => n.start,
                    _ => n.start + (target - o.start).min(n.len().saturating_sub(1)),
                });
                break;
            }
        }
        (n0 + mapped.unwrap_or(target)).clamp(n0, last)
    };
    let at = |items: &[Item]| -> usize {
        line.unwrap_or_else(|| items.first().map_or(nu.line, |i| within(i.line)))
    };
    let lost_line = {
        let keys: HashSet<&str> = after.iter().map(|i| i.key.as_str()).collect();
        let lost: Vec<Item> = before
            .iter()
            .filter(|i| !keys.contains(i.key.as_str()) && i.own)
            .cloned()
            .collect();
        if lost.is_empty() { nu.line } else { at(&lost) }
    };
    out.extend(compare_bags(
        nf,
        &before,
        &after,
        lost_line,
        &nu.name,
        old,
        new,
        elsewhere,
        Some(nu.span.clone()),
        Scope::Test,
    ));
    out
}

/// Several old tests of one file that became one test of another (moved and merged):
/// skips compared test by test, checks together.
pub(super) fn compare_merged(
    read: &[File],
    olds: &[At],
    n: At,
    elsewhere: &Appeared,
) -> Vec<Finding> {
    let nf = &read[n.0];
    let Some(new) = nf.new.as_ref() else {
        return Vec::new();
    };
    let nu = &new.units[n.1];
    let Some(&(f, _)) = olds.first() else {
        return Vec::new();
    };
    let of = &read[f];
    let Some(old) = of.old.as_ref() else {
        return Vec::new();
    };
    let units: Vec<usize> = olds.iter().filter(|o| o.0 == f).map(|o| o.1).collect();
    let mut out: Vec<Finding> = units
        .iter()
        .flat_map(|&u| compare_skips(nf, old, &old.units[u], new, nu))
        .collect();
    // Parametrised rows dropped, as in `compare_pair` (plain tests merged into one are
    // compared by their checks alone).
    let rows = units.iter().any(|&u| old.units[u].cases > 1);
    let cases: usize = units.iter().map(|&u| old.units[u].cases).sum();
    let written: usize = units
        .iter()
        .map(|&u| old.units[u].cases * old.units[u].checks.len())
        .sum();
    if rows && nu.cases < cases && nu.cases * nu.checks.len() < written {
        out.push(finding(
            nf.path,
            FindingKind::TestRemoved,
            Some(nu.line),
            format!("`{}`: {cases} cases before, {} after", nu.name, nu.cases),
            Some(&nu.name),
        ));
    }
    let before = bag_of(old, &units, of.rules);
    let after = bag(new, nu, nf.rules);
    out.extend(compare_bags(
        nf,
        &before,
        &after,
        nu.line,
        &nu.name,
        old,
        new,
        elsewhere,
        Some(nu.span.clone()),
        Scope::Merged,
    ));
    out
}

/// Whether any helper with checks differs between the two versions.
pub(super) fn helpers_changed(old: &Model, new: &Model) -> bool {
    let code = |m: &Model| -> HashMap<String, String> {
        m.units
            .iter()
            .filter(|u| u.role == Role::Helper && !u.checks.is_empty())
            .map(|u| (u.leaf.clone(), m.src.code[u.span.clone()].to_string()))
            .collect()
    };
    code(old) != code(new)
}

/// What [`compare_bags`] compares.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    /// A test and its new version.
    Test,
    /// Tests merged into one, or split.
    Merged,
    /// The tests of a file that went and the tests that arrived in their place.
    Arrivals,
    /// Tests folded into the named subtests of one that arrived in their place
    /// (`t.Run("full", …)`): each is a subtest now, and a check rewritten there
    /// counts once, as in one test.
    Folded,
}

/// Findings between two sets of checks. `line` is where a removal is reported; `span`
/// is the new test's code in `new` when one test (or tests merged into one) is compared.
#[allow(clippy::too_many_arguments)]
pub(super) fn compare_bags(
    file: &File,
    before: &[Item],
    after: &[Item],
    line: usize,
    test: &str,
    old: &Model,
    new: &Model,
    elsewhere: &Appeared,
    span: Option<std::ops::Range<usize>>,
    scope: Scope,
) -> Vec<Finding> {
    let one_test = matches!(scope, Scope::Test | Scope::Folded);
    // The new test's code (`span` in `new`), when one test is compared.
    let code = span.clone().map(|r| &new.src.code[r]);
    // (By key, or by the text with the whole receiver: `x.y.Should().Be(1)`, keyed
    // `y.Should()…`, is `Assert.Equal(1, x.y)`.)
    // (Or as a helper's check reads with a call's values: `assert_equal(1510,
    // @invoice.net_total)` moved into `assert_totals(invoice, net:)`, see `binding`.)
    fn texts(items: &[Item]) -> HashSet<&str> {
        items
            .iter()
            .flat_map(|i| {
                std::iter::once(i.key.as_str())
                    .chain(i.full.as_deref())
                    .chain(i.bound.iter().map(String::as_str))
            })
            .collect()
    }
    let (old_keys, new_keys) = (texts(before), texts(after));
    let known = |keys: &HashSet<&str>, i: &Item| {
        keys.contains(i.key.as_str()) || i.full.as_deref().is_some_and(|f| keys.contains(f))
    };
    // A check rewritten into one the test already had (`301` → `StatusMovedPermanently`
    // beside an existing check of it) still runs: more of an existing check counts as
    // gained. (Fewer of one is not lost: an exact duplicate removed checks nothing less.)
    fn count(items: &[Item]) -> HashMap<&str, usize> {
        let mut n: HashMap<&str, usize> = HashMap::new();
        for i in items {
            *n.entry(i.key.as_str()).or_default() += i.mult;
        }
        n
    }
    let (n_before, n_after) = (count(before), count(after));
    let mut seen = HashSet::new();
    let more: Vec<Item> = after
        .iter()
        .filter(|i| seen.insert(i.key.as_str()))
        .filter_map(|i| {
            let was = *n_before.get(i.key.as_str())?;
            let now = n_after[i.key.as_str()];
            (now > was).then(|| Item {
                mult: now - was,
                ..i.clone()
            })
        })
        .collect();
    // A new repeat of a check the test already made (`K #1` after `v.Touch()`, see
    // `bags::Repeats`) is more of that check: like `more`, it counts below only as the
    // rewrite of a lost check of the same value.
    let repeat = |i: &Item| {
        let (base, n) = repeat_of(&i.key);
        n > 0 && before.iter().any(|b| unrepeated(&b.key) == base)
    };
    let mut seen = HashSet::new();
    let (repeats, mut gained): (Vec<&Item>, Vec<&Item>) = after
        .iter()
        .filter(|i| !known(&old_keys, i) && seen.insert(i.key.as_str()))
        .partition(|i| repeat(i));
    // A helper's checks run once per call: fewer calls of it are fewer checks (fewer
    // copies of a check written in the test are an exact duplicate removed). A check
    // of the test's own setup (`setup`) is none of them.
    let calls = |items: &[Item], key: &str| -> usize {
        items
            .iter()
            .filter(|i| i.key == key && !i.setup)
            .map(|i| i.calls)
            .sum()
    };
    let mut seen = HashSet::new();
    let fewer: Vec<Item> = before
        .iter()
        .filter(|i| i.calls > 1 && new_keys.contains(i.key.as_str()) && seen.insert(i.key.as_str()))
        .filter_map(|i| {
            let (was, now) = (calls(before, &i.key), calls(after, &i.key));
            (now < was).then(|| Item {
                mult: was - now,
                ..i.clone()
            })
        })
        .collect();
    // The n-th repeat of a check on a new value (`K #n`, see `bags::Repeats`) moved
    // into a helper the test now calls for each value, or into a loop over the values,
    // still runs once per value.
    // (Not into a loop the test already had: the loop's check is the same as before.)
    let looped = |items: &[Item], base: &str| {
        items
            .iter()
            .filter(|a| a.looped && unrepeated(&a.key) == base)
            .count()
    };
    let per_call = |i: &Item| {
        let (base, n) = repeat_of(&i.key);
        n > 0
            && after.iter().any(|a| {
                a.key == base
                    && ((!a.own && a.calls > n)
                        || (a.looped && looped(after, base) > looped(before, base)))
            })
    };
    // `if err := f(); err != nil {` written as `err = f()` then `NoError(t, err)`.
    let squeezed = OnceLock::new();
    let after_keys: Vec<&str> = after.iter().map(|a| a.key.as_str()).collect();
    let split = |i: &Item| {
        span.clone().is_some_and(|r| {
            checks::error_check_split(
                &i.key,
                squeezed.get_or_init(|| checks::squeeze(&new.src.text(r))),
                &after_keys,
            )
        })
    };
    // (Tests folded into subtests: every check of the test counts as new to the
    // change, so none of them is another test's check moved there and edited.)
    let arrived: Vec<&Item> = match scope {
        Scope::Folded => after.iter().collect(),
        Scope::Test | Scope::Merged | Scope::Arrivals => Vec::new(),
    };
    let mut seen = HashSet::new();
    let lost: Vec<&Item> = before
        .iter()
        .filter(|i| {
            // (A check of the test's own setup is not lost with the setup: `setup`.)
            !i.setup
                && !known(&new_keys, i)
                && !elsewhere.holds(
                    i,
                    if scope == Scope::Folded {
                        &arrived
                    } else {
                        &gained
                    },
                )
                && !per_call(i)
                && !split(i)
        })
        .filter(|i| seen.insert(i.key.as_str()))
        .chain(fewer.iter())
        .collect();
    // (Checks of a shape another test also gained are taken for moved there; one this
    // very test rewrote with a wider bound is still its own, loosened.)
    let held_elsewhere: Vec<&Item> = before
        .iter()
        .filter(|i| !i.setup && !known(&new_keys, i) && !lost.iter().any(|l| l.key == i.key))
        .collect();
    // The check of the name is the split check's second statement, not a check gained.
    if before.iter().any(|i| !known(&new_keys, i) && split(i)) {
        gained.retain(|g| {
            checks::checked_error(&g.key).is_none_or(|name| {
                !before.iter().any(|i| {
                    checks::inline_error_check(&i.key).map(|(n, _)| n) == Some(name) && split(i)
                })
            })
        });
    }
    // Only as the rewrite of a lost check of the same value and strength: a check
    // replaced by a copy of another one (`assert y == 2` → `assert x == 1`) is lost.
    // (Or the lost check with its values now the rows': tests folded into a table the
    // test already had.)
    // (Or an exact check repeated on what the lost check's call now gives: `if _, err
    // := f("30"); err == nil` → `d, err = f("30")` and `d != 720h` checked again, a
    // behaviour changed from an error to a value.)
    let reads_lost_call = |m: &Item, l: &Item| {
        m.strength == Strength::Equality
            && repeat_of(&m.key).1 > 0
            && span.clone().is_some_and(|r| {
                let text = squeezed.get_or_init(|| checks::squeeze(&new.src.text(r)));
                checks::actions(&l.key).into_iter().any(|a| {
                    a.contains('(')
                        && assigned_from(text, a)
                            .iter()
                            .any(|n| checks::mentions(unrepeated(&m.key), n))
                })
            })
    };
    let rewrite_of_lost = |m: &&Item| {
        lost.iter().any(|l| {
            (l.strength == m.strength
                && (unrepeated(&l.key) == unrepeated(&m.key)
                    || checks::related(&l.key, &m.key)
                    || checks::templates(unrepeated(&m.key), unrepeated(&l.key))))
                || reads_lost_call(m, l)
        })
    };
    // (A repeat that is no rewrite is not counted among the checks after either.)
    let idle: HashSet<&str> = repeats
        .iter()
        .filter(|r| !rewrite_of_lost(r))
        .map(|r| r.key.as_str())
        .collect();
    gained.extend(more.iter().chain(repeats).filter(rewrite_of_lost));
    // One exact check of a whole value covers lost checks of its parts, and looser
    // checks of the value itself. Covering a lost exact check of the same value in
    // one test (a test and its new version, or tests folded into its subtests), it is
    // that check's expectation rewritten and does not count as a check gained as well
    // (else `f("a") == 1; f("b") == 2` → `f("a") == 3` would net away the deleted
    // check). Across tests merged or split (tests turned into examples whose output
    // fixes what they checked) checks are counted together as before.
    let wholes: Vec<(usize, &str)> = gained
        .iter()
        .enumerate()
        .filter(|(_, i)| i.strength == Strength::Equality)
        .flat_map(|(g, i)| checks::subjects(&i.key).into_iter().map(move |w| (g, w)))
        .collect();
    // So it does read through the test's local names and plain conversions
    // (`params = parse(env); params["a"].must_equal 1` is a part of
    // `parse(env).to_h.must_equal(…)`), when compared with a value of other code; it
    // also covers looser checks of the value itself, but a lost exact check of the same
    // value is an expectation rewritten, counted one for one.
    let resolved: Vec<(usize, &str)> = gained
        .iter()
        .enumerate()
        .flat_map(|(g, i)| i.wholes.iter().map(move |w| (g, w.as_str())))
        .collect();
    // An empty expectation (`assert not report`, `assert report is None`) fixes the
    // value, not what its parts were checked to be: an empty value has no parts.
    let empty = |g: usize| {
        let key = unrepeated(&gained[g].key);
        key.starts_with("assert not ") || (key.starts_with("assert ") && key.ends_with(" is None"))
    };
    // (Read once per gained check, only when something may be covered.)
    let sized: Vec<bool> = if wholes.is_empty() {
        Vec::new()
    } else {
        gained
            .iter()
            .map(|g| checks::size_subject(&g.key).is_some())
            .collect()
    };
    let mut rewrites: HashSet<usize> = HashSet::new();
    let lost: Vec<&Item> = if wholes.is_empty() && resolved.is_empty() {
        lost
    } else {
        lost.into_iter()
            .filter(|i| {
                let mut covered = false;
                for part in checks::subjects(&i.key) {
                    // (A size check covers the checks of elements gone with the
                    // size, not an exact check of the value: `len(x) == 3` for
                    // `x == ["a", "b", "c"]` is `size_for_content`.)
                    // (Nor does a check that widens the lost one cover it:
                    // `assertRaises(ConfigError, f, x)` → `assertRaises(Exception, f,
                    // x)` reads `f` in both, `sorted(x) == […]` reads `x`.)
                    let covering = wholes.iter().filter(|(g, w)| {
                        checks::covers(w, part)
                            && (part == *w || !empty(*g))
                            && !(part == *w && sized[*g])
                            && !(checks::widens(&i.key, &gained[*g].key)
                                || breaks_bound(i, gained[*g]))
                    });
                    for &(g, w) in covering {
                        covered = true;
                        if one_test && part == w && i.strength == Strength::Equality {
                            rewrites.insert(g);
                        }
                    }
                }
                !covered
            })
            .filter(|i| {
                !i.parts.iter().any(|part| {
                    resolved.iter().any(|&(g, w)| {
                        !checks::widens(&i.key, &gained[g].key)
                            && !breaks_bound(i, gained[g])
                            && checks::covers(w, part)
                            && (part != w || i.strength != Strength::Equality)
                            && (part == w || !empty(g))
                    })
                })
            })
            .collect()
    };
    // A check that only says a value exists goes with a check of the test that reads
    // through the value (`assert x is not None` beside `assert x.name == "a"`,
    // `if err == nil { t.Fatal() }` before `assert.ErrorContains(t, err, "…")`): that
    // check fails when the value is missing. Not one in a branch or a loop, which may
    // not run, unless the check it stands for sat in the same one (a branch opened by
    // the same header: `} else { assert.Error(t, err); assert.Contains(t,
    // err.Error(), tt.err) }` in a table's loop → `} else { assert.ErrorContains(t,
    // err, tt.err) }` there).
    // The value must be the one value of its name in the test (`_, err = f("")` then
    // `err = f("1+")`: a check of the second `err` says nothing about the first).
    let assigned_once = |value: &str, line: usize| -> bool {
        let unit = new.unit_at(new.src.line_start(line)).map(|u| &new.units[u]);
        unit.is_none_or(|u| checks::assignments(&new.src.code[u.span.clone()], value) <= 1)
    };
    let lost: Vec<&Item> = lost
        .into_iter()
        .filter(|l| {
            !checks::exists_only(&l.key, file.rules).is_some_and(|value| {
                after.iter().any(|a| {
                    ((a.alt.is_none() && !a.looped) || same_branch(old, l.line, new, a.line))
                        && (checks::needs(&a.key, value, file.rules)
                            || a.full
                                .as_deref()
                                .is_some_and(|full| checks::needs(full, value, file.rules)))
                        && assigned_once(value, a.line)
                })
            }) && !checks::nonempty_only(&l.key, file.rules).is_some_and(|value| {
                // (Likewise a check that it is not empty beside an exact check of its
                // size above zero: `assert!(!map.is_empty())` with `assert_eq!(map.len(),
                // 3)`.)
                after.iter().any(|a| {
                    a.alt.is_none()
                        && !a.looped
                        && a.strength == Strength::Equality
                        && checks::pins_nonzero_size(&a.key, value)
                })
            })
        })
        .collect();
    // An exact check of a caught error's message whose text a gained exact check of the
    // expected error now pins (`assertEquals("m", e.getMessage())` beside
    // `assertThrows(…)` → `assertThatThrownBy(…).isInstanceOf(…).hasMessage("m")`,
    // `Assert.Equal("m", ex.Message)` → `.Should().Throw<E>().WithMessage("m")`, and so for
    // `ex.ParamName` and `WithParameterName("p")`): the message is checked there.
    // (When the lost checks pinned the error's type, the new check must pin it too.)
    let typed: Vec<&str> = lost
        .iter()
        .filter_map(|l| checks::expected_exception(&l.key).map(|(_, ty)| ty))
        .collect();
    let lost: Vec<&Item> = lost
        .into_iter()
        .filter(|l| {
            let message = [".Message", ".getMessage()", ".message", ".ParamName"]
                .iter()
                .any(|m| l.key.contains(m));
            // (Or a field's getter, which AssertJ's `.extracting("email").isEqualTo(…)`
            // after the expected error pins.)
            let field = getter_field(&l.key);
            !((message || field.is_some())
                && l.strength == Strength::Equality
                && checks::text_literals(&l.key).into_iter().any(|text| {
                    text.len() > 2
                        && gained.iter().any(|g| {
                            g.strength == Strength::Equality
                                && checks::expects_failure(&g.key)
                                && typed.iter().all(|ty| checks::mentions(&g.key, ty))
                                && match &field {
                                    Some(f) => pins_field(&g.key, f, text),
                                    None => pins_message(&g.key, text),
                                }
                        })
                }))
        })
        .collect();
    // Go's comma-ok type assertion and its check (`errs, ok := err.(Errors)` then
    // `Equal(t, ok, true)`) made a plain assertion (`errs := err.(Errors)`), which
    // panics on another type: the test fails as it did.
    let lost: Vec<&Item> = if file.rules.language == Language::Go {
        lost.into_iter()
            .filter(|l| !comma_ok_made_plain(&l.key, &old.src.code, &new.src.code))
            .collect()
    } else {
        lost
    };
    let all_gained = gained.clone();
    let gained: Vec<&Item> = gained
        .into_iter()
        .enumerate()
        .filter(|(g, _)| !rewrites.contains(g))
        .map(|(_, i)| i)
        .collect();
    // An opaque helper's expectation inverted (`expect_offense(…)` +
    // `expect_correction(…)` → `expect_no_offenses(…)`): the inverted call is that
    // check's expectation changed, counted one for one, and the check of the helper's
    // family written right after it in the old test (the correction of the offense)
    // followed from the old expectation and goes with it. Nothing else is excused.
    let now_inverted: Vec<&str> = gained
        .iter()
        .copied()
        .chain(more.iter())
        .filter_map(|g| opaque::callee(&g.key))
        .collect();
    let lost_keys: HashSet<&str> = lost.iter().map(|l| l.key.as_str()).collect();
    let mut excused: HashSet<&str> = HashSet::new();
    let mut inverted_lost: Vec<&Item> = lost
        .iter()
        .copied()
        .filter(|l| {
            opaque::callee(&l.key)
                .is_some_and(|was| now_inverted.iter().any(|now| opaque::inverted(was, now)))
        })
        .collect();
    inverted_lost.sort_by_key(|l| l.line);
    for (turns, l) in inverted_lost.into_iter().enumerate() {
        let was = opaque::callee(&l.key).unwrap_or_default();
        if turns
            >= now_inverted
                .iter()
                .filter(|now| opaque::inverted(was, now))
                .count()
        {
            break;
        }
        let next = before
            .iter()
            .filter(|i| i.own && i.line > l.line)
            .min_by_key(|i| i.line);
        if let Some(next) = next
            && lost_keys.contains(next.key.as_str())
            && opaque::callee(&next.key)
                .is_some_and(|c| opaque::family(c) == opaque::family(was) && c != was)
        {
            excused.insert(next.key.as_str());
        }
    }
    let lost: Vec<&Item> = if excused.is_empty() {
        lost
    } else {
        lost.into_iter()
            .filter(|l| !excused.contains(l.key.as_str()))
            .collect()
    };
    // Checks in the branches of one if/else chain are alternatives: the chain counts
    // as its largest branch (lost: a branch that lost more; a platform pair of checks
    // rewritten as one check is not two checks lost).
    let sum = |items: &[&Item], f: &dyn Fn(Strength) -> bool| -> usize {
        let mut plain = 0;
        let mut chains: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
        for i in items.iter().filter(|i| f(i.strength)) {
            match i.alt {
                None => plain += i.mult,
                Some((chain, branch)) => {
                    *chains.entry(chain).or_default().entry(branch).or_default() += i.mult
                }
            }
        }
        plain
            + chains
                .values()
                .map(|b| b.values().max().copied().unwrap_or(0))
                .sum::<usize>()
    };
    let eq_lost = sum(&lost, &|s| s == Strength::Equality);
    let eq_gained = sum(&gained, &|s| s == Strength::Equality);
    // A weaker check stands in for a lost exact one only when it is about the same
    // value: `assert x == 3` → `assert x > 0` loosens; a check of another value
    // replacing it is a rewrite.
    // (Not for the variants of one check in the branches of an if/else chain, each
    // expecting its own value (`if sys.platform == "win32": assert str(err) == "…
    // denied."` / `else: assert str(err) == "… permission denied"`), replaced by a
    // check of the kind of value (`isinstance(err, PermissionError)`, `errors.Is(err,
    // os.ErrPermission)`): no one value was expected everywhere, and the kind holds on
    // every branch. A pattern matched against them all (`assert_match /.* -- name/`)
    // is a part of each value and still loosens.)
    let variant = |l: &Item| {
        l.alt.is_some_and(|(chain, branch)| {
            lost.iter().any(|o| {
                o.alt.is_some_and(|(c, b)| c == chain && b != branch)
                    && !l.wholes.is_empty()
                    && o.wholes == l.wholes
            })
        })
    };
    let stand_ins: Vec<&Item> = gained
        .iter()
        .filter(|g| matches!(g.strength, Strength::Weak | Strength::Void))
        .filter(|g| {
            lost.iter().any(|l| {
                l.strength == Strength::Equality
                    && !(variant(l) && checks::kind_check(&g.key))
                    && stands_for(l, g)
                    && !checks::matcher_narrowed(&l.key, &g.key)
            })
        })
        .copied()
        .collect();
    let weak_gained = sum(&stand_ins, &|_| true);
    let real_lost = sum(&lost, &|s| s != Strength::Void);
    // A helper of weak checks called several ways runs once per call: each further call
    // stands for one lost weak check (nine `Assert.NotNull(find(name, value))` → nine
    // calls of `ParameterIs(name, value)`), however many checks it makes per call, and
    // never for a lost exact one.
    let weak_lost = sum(&lost, &|s| s == Strength::Weak);
    let weak_per_call = gained
        .iter()
        .filter(|g| g.strength == Strength::Weak && !g.setup)
        .map(|g| g.calls.saturating_sub(1))
        .max()
        .unwrap_or(0);
    let real_gained = sum(&gained, &|s| s != Strength::Void) + weak_per_call.min(weak_lost);
    // (A check that was under a condition on its value before, rewritten under it,
    // is no new loosening.)
    let guarded = |items: &[&Item]| -> usize {
        items
            .iter()
            .filter(|i| i.key.contains(GUARDED))
            .map(|i| i.mult)
            .sum()
    };
    let void_gained =
        sum(&gained, &|s| s == Strength::Void).saturating_sub(guarded(&gained).min(guarded(&lost)));
    let mut out = Vec::new();
    let loosened = (eq_lost > eq_gained && weak_gained > 0)
        || (void_gained > 0 && real_lost > real_gained.saturating_sub(0) && real_lost > 0);
    if loosened {
        let now = stand_ins
            .first()
            .or_else(|| gained.iter().find(|i| i.strength == Strength::Void))
            .or(gained.first())
            .copied();
        let was = now.and_then(|now| {
            lost.iter()
                .find(|l| l.strength == Strength::Equality && stands_for(l, now))
                .or(lost.first())
                .copied()
        });
        if let (Some(now), Some(was)) = (now, was) {
            // (Under a condition on its value, the line may read the same.)
            let why = now
                .key
                .split_once(GUARDED)
                .map_or(String::new(), |(_, cond)| {
                    format!(
                        ": it now runs only when `{}`",
                        cond.trim().strip_suffix(')').unwrap_or(cond)
                    )
                });
            let why = if why.is_empty() && now.key.starts_with(super::model::NOT_AWAITED) {
                ": nothing waits for it now, so it may run after the test has passed".to_string()
            } else if why.is_empty() && now.key.ends_with("(its failure swallowed)") {
                ": it sits in a helper whose handler swallows its failure".to_string()
            } else if why.is_empty() && now.key.ends_with("(its failure caught away)") {
                ": a `.catch` that does nothing now takes its failure".to_string()
            } else if why.is_empty()
                && now.strength == Strength::Void
                && now.key.contains("findBy")
                && !now.key.contains("await")
            {
                ": a query nobody awaits is a promise, and a promise is always truthy".to_string()
            } else if why.is_empty() && now.key.ends_with("(soft, never reported)") {
                ": a soft assertion with no `assertAll()`, so its failure is never reported"
                    .to_string()
            } else {
                why
            };
            out.push(finding(
                file.path,
                FindingKind::AssertionLoosened,
                Some(now.line),
                {
                    let (was, now) = replaced_lines(old, was.line, new, now.line);
                    format!("`{was}` replaced by `{now}`{why}")
                },
                Some(test),
            ));
        }
    }
    // The same check with a bound moved to let more through (`< 100` → `< 500`), or
    // expecting any exception instead of one (`raises(ValueError)` → `raises(Exception)`).
    let type_pinned = |l: &Item| {
        checks::expected_exception(&l.key).is_some_and(|(_, ty)| {
            all_gained
                .iter()
                .any(|g| g.strength == Strength::Equality && checks::mentions(&g.key, ty))
        })
    };
    let squeezed_code = || {
        span.clone().map(|r| {
            squeezed
                .get_or_init(|| checks::squeeze(&new.src.text(r)))
                .as_str()
        })
    };
    // (A bound or tolerance, not a value: `assert.Equal(t, 2, n)` → `1` is an edit.)
    let bounded = |key: &str| {
        [
            "plusOrMinus",
            "abs=",
            "rel=",
            "delta",
            "Delta",
            "within",
            "Within",
            "CloseTo",
            "Epsilon",
            "epsilon",
            "approx",
            "tolerance",
            "<",
            ">",
        ]
        .iter()
        .any(|w| key.contains(w))
    };
    let widened_here = held_elsewhere
        .iter()
        .filter(|l| bounded(&l.key))
        .find_map(|l| {
            all_gained
                .iter()
                .find(|g| checks::bound_widened(&l.key, &g.key))
                .map(|g| (*l, *g, "the bound lets more through"))
        });
    // An exact check this test rewrote as a weaker one of the same value
    // (`toHaveBeenCalledTimes(1)` → `toHaveBeenCalled()`, `toHaveText('Total €56.00')` →
    // `toContainText('Total')`) is loosened here, though another test gained a check of
    // its shape: that one checks its own value, not this.
    let widened_here = widened_here.or_else(|| {
        held_elsewhere
            .iter()
            .filter(|l| l.strength == Strength::Equality && l.own && !elsewhere.has_exactly(l))
            // (Not when the test also gained an exact check of its shape: the value
            // edited in place, `"Oupps"` → `"Oops"`.)
            .filter(|l| {
                let shape = checks::shape(unrepeated(&l.key));
                !gained.iter().any(|e| {
                    e.strength == Strength::Equality && checks::shape(unrepeated(&e.key)) == shape
                })
            })
            .find_map(|l| {
                gained
                    .iter()
                    .find(|g| {
                        g.strength == Strength::Weak
                            && g.own
                            && checks::related_subjects(&l.parts, &g.parts)
                            && !checks::matcher_narrowed(&l.key, &g.key)
                            // (Nor a weak check that is the rewrite of one it lost.)
                            && !before.iter().any(|w| {
                                w.strength == Strength::Weak
                                    && !known(&new_keys, w)
                                    && checks::shape(unrepeated(&w.key))
                                        == checks::shape(unrepeated(&g.key))
                            })
                    })
                    .map(|g| (*l, *g, "only a weaker check of the same value is left"))
            })
    });
    let widened = widened_here.or_else(|| lost.iter().find_map(|l| {
        all_gained.iter().find_map(|g| {
            if checks::bound_widened(&l.key, &g.key) {
                Some((*l, *g, "the bound lets more through"))
            } else if checks::exception_widened(&l.key, &g.key)
                && !(g.strength == Strength::Equality && type_pinned(l))
            {
                // (Bound, `var e = assertThrows(Exception.class, f)`, its type may be
                // checked after: `isEqualTo(LexerException.class)` pins it again.)
                Some((*l, *g, "any exception of the wider type now passes"))
            } else if l.strength == Strength::Equality
                && checks::integer_windowed(&l.key, &g.key)
                && l.parts.iter().any(|p| !checks::literal(p) && g.key.contains(p.as_str()))
            {
                Some((*l, *g, "a whole number compared exactly now passes within a window"))
            } else if l.strength == Strength::Equality && checks::size_for_content(&l.key, &g.key) {
                Some((*l, *g, "only its size is checked now"))
            } else if l.strength == Strength::Equality && checks::status_for_class(&l.key, &g.key) {
                Some((*l, *g, "any status of its class now passes"))
            } else if l.strength == Strength::Equality
                && g.strength == Strength::Equality
                && g.parts.iter().any(|p| l.parts.contains(p))
                && checks::copies_actual(&g.key, &g.parts, squeezed_code())
                && !checks::copies_actual(&l.key, &l.parts, None)
            {
                Some((
                    *l,
                    *g,
                    "the expected value is built from the actual, so what it copies is compared with itself",
                ))
            } else if l.strength != Strength::Void && checks::order_dropped(&l.key, &g.key) {
                Some((*l, *g, "the order is no longer checked"))
            } else if code.is_some_and(|c| checks::bound_widened_derived(&l.key, &g.key, c)) {
                Some((*l, *g, "the same quantity, and the bound lets more through"))
            } else if l.strength == Strength::Equality
                && checks::part_for_whole(&l.key, &g.key).is_some_and(|(value, fields)| {
                    // (Exact checks of different parts: one part checked again and again,
                    // or loosely, is not the whole.)
                    let mut parts: Vec<&str> = after
                        .iter()
                        .filter(|a| {
                            a.strength == Strength::Equality
                                && checks::checks_part_of(&a.key, value)
                        })
                        .map(|a| unrepeated(&a.key))
                        .collect();
                    parts.sort_unstable();
                    parts.dedup();
                    parts.len() < fields && !known(&new_keys, l)
                })
            {
                Some((*l, *g, "only a part of it is checked now"))
            } else if let Some(why) = checks::loosened_in_place(&l.key, &g.key)
                && l.strength != Strength::Void
                && !(why == checks::LOOSE_EQUALITY && node_assert_imports(new).0)
                && !(why == checks::PATTERN_CUT && renamed_away(&l.key, &g.key, old, new))
                && !(why == checks::ARGUMENTS_DROPPED && with_checked_apart(&l.key, elsewhere))
            {
                Some((*l, *g, why))
            } else {
                None
            }
        })
    }));
    if let (false, Some((was, now, why))) = (loosened, widened) {
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(now.line),
            {
                let (was, now) = replaced_lines(old, was.line, new, now.line);
                format!("`{was}` replaced by `{now}`: {why}")
            },
            Some(test),
        ));
    }
    // Fewer, stricter checks (three `contains` → one exact check of the whole output)
    // pass only when the exact checks gained look at the object the lost checks
    // looked at: an exact check of another value does not replace them, nor one of an
    // element or a slice of it (`names[0] == "a"`).
    let eq_gained_related: usize = gained
        .iter()
        .filter(|g| g.strength == Strength::Equality)
        .filter(|g| {
            lost.iter()
                .any(|l| l.strength != Strength::Void && checks::same_root(&l.parts, &g.parts))
                && !lost.iter().any(|l| checks::narrows(&g.key, &l.key))
        })
        .map(|g| g.mult)
        .sum();
    let stricter = eq_gained > eq_lost && eq_gained_related > eq_lost;
    let count = |items: &[Item], of: &dyn Fn(&Item) -> bool| -> usize {
        let mut seen = HashSet::new();
        items
            .iter()
            .filter(|i| i.strength != Strength::Void && of(i) && seen.insert(i.key.as_str()))
            .map(|i| i.mult)
            .sum()
    };
    let what = if test.is_empty() {
        String::new()
    } else {
        format!("`{test}`: ")
    };
    // Checks of a kind that checks of another kind do not stand for: an expected
    // error pinned by its message or type (`toThrow("…")`, `raises(ValueError)`) and
    // a compile-time check (`// @ts-expect-error`). Lost and not rewritten into checks
    // of their kind, the error paths or type errors they pinned go unchecked, however
    // many checks of values arrive (a block of error cases replaced by tests of a new
    // feature, a type error turned into a runtime one).
    // An expected error whose call is now checked for a value is a behaviour changed
    // (`assert.Panics(t, func() { w.CloseNotify() })` → `assert.Nil(t,
    // w.CloseNotify())`); a runtime check does not stand for a compile-time one.
    // (A context manager's call is in its block: `with pytest.raises(E): f(x)` →
    // `assert f(x) == ""`.)
    let rewritten = |i: &Item| {
        let block = i.own.then(|| with_block(old, i.line)).flatten();
        checks::actions(&i.key)
            .into_iter()
            .chain(block.iter().flat_map(|b| b.iter().map(String::as_str)))
            .any(|a| {
                all_gained.iter().any(|g| g.key.contains(a))
                    || span.clone().is_some_and(|r| {
                        let text = squeezed.get_or_init(|| checks::squeeze(&new.src.text(r)));
                        assigned_from(text, a)
                            .iter()
                            .any(|n| all_gained.iter().any(|g| checks::mentions(&g.key, n)))
                    })
            })
    };
    // The message of the error a Python context manager caught, checked after it
    // (`with pytest.raises(E) as info:` … `assert "unknown" in str(info.value)`) is
    // the `match=` of the expected error written apart: a check of its family.
    // (Read after the `with` block: inside it, after the call that raises, it never
    // runs.)
    let caught: Vec<(String, usize, usize)> = match (file.rules.language, span.clone()) {
        (Language::Python, Some(r)) => caught_names(new, r),
        _ => Vec::new(),
    };
    // (A check that the message lacks something is not the `match=` it stands for.)
    let reads_caught = |i: &Item| {
        i.own
            && i.alt.is_none()
            && !i.looped
            && i.strength != Strength::Void
            && !["not in", "!=", "assert not "]
                .iter()
                .any(|n| i.key.contains(n))
            && checks::has_text_literal(&i.key)
            && caught.iter().any(|(name, line, indent)| {
                i.line > *line
                    && new.src.indent(i.line).is_some_and(|at| at <= *indent)
                    && [".value", ".exception"]
                        .iter()
                        .any(|f| checks::mentions(&i.key, &format!("{name}{f}")))
            })
    };
    type Test<'t> = &'t dyn Fn(&Item) -> bool;
    let families: [(Test, Test, &str); 2] = [
        (
            &|i: &Item| checks::expects_failure(&i.key),
            &rewritten,
            "checks of an expected error",
        ),
        (
            &|i: &Item| checks::compile_time(&i.key),
            &|_: &Item| false,
            "compile-time checks",
        ),
    ];
    let family_lost = families.iter().find(|(of, moved, _)| {
        let lost_here: usize = lost
            .iter()
            .filter(|i| of(i) && i.strength != Strength::Weak && !moved(i))
            .map(|i| i.mult)
            .sum();
        let gained_here: usize = gained
            .iter()
            .filter(|i| of(i) || reads_caught(i))
            .map(|i| i.mult)
            .sum();
        lost_here > gained_here
    });
    if real_lost > real_gained && !stricter && !(loosened && real_lost <= real_gained + void_gained)
    {
        out.push(finding(
            file.path,
            FindingKind::AssertionsRemoved,
            Some(line),
            format!(
                "{what}{} checks before, {} after",
                count(before, &|_| true),
                count(after, &|i| !idle.contains(i.key.as_str()))
            ),
            Some(test),
        ));
    } else if let Some((of, _, name)) = family_lost {
        out.push(finding(
            file.path,
            FindingKind::AssertionsRemoved,
            Some(line),
            format!(
                "{what}{} {name} before, {} after",
                count(before, of),
                count(after, of)
            ),
            Some(test),
        ));
    }
    out
}

/// The names Python test code in `span` binds an expected error to (`with
/// pytest.raises(E) as info:`, `with self.assertRaises(E) as cm:`), each with the
/// line of its `with` and that line's indent.
fn caught_names(model: &Model, span: std::ops::Range<usize>) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let first = model.src.line_of(span.start);
    let last = model.src.line_of(span.end.saturating_sub(1));
    for line in first..=last {
        let text = model.src.line_text(line).trim();
        let Some(head) = text.strip_prefix("with ").and_then(|t| t.strip_suffix(':')) else {
            continue;
        };
        let Some((call, name)) = head.rsplit_once(" as ") else {
            continue;
        };
        let name = name.trim();
        if (call.contains("raises(") || call.contains("Raises("))
            && !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && let Some(indent) = model.src.indent(line)
        {
            out.push((name.to_string(), line, indent));
        }
    }
    out
}

/// The names `squeezed` test code assigns the result of `action` to (`_,kind,_,ok=
/// v.f(x)` gives `kind` and `ok`): the call's outcome, checked as a value.
fn assigned_from<'s>(squeezed: &'s str, action: &str) -> Vec<&'s str> {
    let mut out = Vec::new();
    for (at, _) in squeezed.match_indices(action) {
        let head = &squeezed[..at];
        let Some(head) = head.strip_suffix(":=").or_else(|| head.strip_suffix('=')) else {
            continue;
        };
        if head.ends_with(['=', '!', '<', '>']) {
            continue; // a comparison, not an assignment
        }
        let start = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | ',' | ' ' | '$')))
            .map_or(0, |i| i + 1);
        out.extend(
            head[start..]
                .split(',')
                .filter_map(|n| n.split(' ').next_back())
                .filter(|n| !n.is_empty() && *n != "_"),
        );
    }
    out
}

/// Whether `key` checks the `ok` of a comma-ok type assertion in `old` (`v, ok :=
/// x.(T)`; `True(t, ok)`, `if !ok { t.Fatal(…) }`) that `new` makes without it (`v :=
/// x.(T)`, same `x.(T)`).
fn comma_ok_made_plain(key: &str, old: &str, new: &str) -> bool {
    let name = key
        .strip_prefix("assert.True(t,")
        .or_else(|| key.strip_prefix("t.Error(!"))
        .and_then(|rest| rest.strip_suffix(')'))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    let Some(name) = name else {
        return false;
    };
    static ASSERTION: OnceLock<Option<regex::Regex>> = OnceLock::new();
    let Some(assertion) = ASSERTION.get_or_init(|| {
        regex::Regex::new(r"(\w+)[ \t]*(?:,[ \t]*(\w+)[ \t]*)?:?=[ \t]*([\w.]+\.\([\w.*\[\] ]+\))")
            .ok()
    }) else {
        return false;
    };
    let checked: Vec<&str> = assertion
        .captures_iter(old)
        .filter(|c| c.get(2).is_some_and(|ok| ok.as_str() == name))
        .filter_map(|c| c.get(3).map(|e| e.as_str()))
        .collect();
    !checked.is_empty()
        && assertion
            .captures_iter(new)
            .filter(|c| c.get(2).is_none())
            .any(|c| c.get(3).is_some_and(|e| checked.contains(&e.as_str())))
}

/// What the block of a `with` check at `line` runs (Python's `with
/// pytest.raises(E):`, and what JUnit's expected-error idioms run): each statement's
/// calls on the code under test, and a statement that is a bare expression (`r.form`)
/// as a whole, squeezed.
fn with_block(model: &Model, line: usize) -> Option<Vec<String>> {
    let body = if model.src.line_text(line).trim_start().starts_with("with ") {
        let block = model.src.indent_block(line);
        model.src.line_end(line).min(block.end)..block.end
    } else {
        // (JUnit's `@Test(expected = E.class)` and `try { f(); fail(); } catch (E e)`.)
        model.expected_error_body(line)?
    };
    let mut out = Vec::new();
    for statement in model.src.text(body).lines().map(checks::squeeze) {
        if statement.is_empty() {
            continue;
        }
        out.extend(checks::actions(&statement).into_iter().map(String::from));
        let plain = statement.bytes().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'[' | b']' | b'"' | b'\'')
        });
        if plain && statement.contains('.') {
            out.push(statement);
        }
    }
    Some(out)
}

/// Skips added to (or above) a test that existed before.
fn compare_skips(file: &File, old: &Model, ou: &Unit, new: &Model, nu: &Unit) -> Vec<Finding> {
    let new_subtest_guard = |s: usize| new.is_new_subtest_guard(nu, s, old, ou, file.rules);
    let kinds = |m: &Model, u: &Unit| -> (usize, usize, usize) {
        let mut k = (0, 0, 0);
        for &s in &u.skips {
            if std::ptr::eq(m, new) && new_subtest_guard(s) {
                continue;
            }
            match m.skips[s].kind {
                SkipKind::Conditional => k.0 += 1,
                SkipKind::Unconditional => k.1 += 1,
                SkipKind::Inverting => k.2 += 1,
            }
        }
        k
    };
    let (oc, ou_, oi) = kinds(old, ou);
    // (A `cfg` the code under test has too is how the test compiles, not a skip.)
    let gated = nu
        .skips
        .iter()
        .filter(|&&s| {
            new.gated_like_its_code(nu, s)
                && !ou
                    .skips
                    .iter()
                    .any(|&o| old.skips[o].text == new.skips[s].text)
        })
        .count();
    // Conditions on the environment that gate checks are compared by themselves
    // (`gates`), over the whole test: a check moved under a gate is one whose text left
    // the test's unconditioned checks for a gated one, or (edited on the way) checks
    // that left the unconditioned ones while the gated ones grew. (A check added under a
    // condition, a condition rewritten or reformatted, a gated value edited, a
    // branch's check deleted: none of these; the last is judged by the checks.)
    fn gates<'m>(m: &'m Model, u: &Unit) -> Vec<&'m EnvCondition> {
        m.env_conditions
            .iter()
            .filter(|c| std::ptr::eq(&m.units[c.unit], u))
            .collect()
    }
    let (old_gates, new_gates) = (gates(old, ou), gates(new, nu));
    let skips_of = |g: &[&EnvCondition]| g.iter().filter(|c| c.skip.is_some()).count();
    let oc = oc - skips_of(&old_gates).min(oc);
    let gated_count = |g: &[&EnvCondition]| -> usize {
        g.iter()
            .filter(|c| c.skip.is_some())
            .map(|c| c.gated_checks.len())
            .sum()
    };
    let (gated_before, gated_after) = (gated_count(&old_gates), gated_count(&new_gates));
    let moved_under =
        super::gates::moved_under(file.rules, (old, ou, &old_gates), (new, nu, &new_gates));
    let grown = moved_under
        .then(|| {
            // The gate to show: one the test did not have, else the largest.
            new_gates
                .iter()
                .filter(|c| c.skip.is_some())
                .max_by_key(|c| {
                    let had = old_gates.iter().any(|o| o.text == c.text);
                    (!had, c.checks.len())
                })
        })
        .flatten()
        .map(|c| (c, gated_after, gated_before));
    let (nc, nu_, ni) = kinds(new, nu);
    let nc = nc - (gated + skips_of(&new_gates)).min(nc);
    let old_texts: Vec<&str> = ou
        .skips
        .iter()
        .map(|&s| old.skips[s].text.as_str())
        .collect();
    let fresh = |inverting: bool| {
        nu.skips
            .iter()
            .filter(|&&s| !new_subtest_guard(s))
            .map(|&s| &new.skips[s])
            .filter(|s| (s.kind == SkipKind::Inverting) == inverting)
            .find(|s| !old_texts.contains(&s.text.as_str()))
            .or_else(|| {
                nu.skips
                    .iter()
                    .map(|&s| &new.skips[s])
                    .rfind(|s| (s.kind == SkipKind::Inverting) == inverting)
            })
    };
    let mut out = Vec::new();
    if let Some((c, after, before)) = grown
        && let Some(s) = c.skip.map(|s| &new.skips[s])
    {
        let detail = if before == 0 {
            format!("`{}` added", new.src.shown(s.line))
        } else {
            format!(
                "`{}`: {after} of `{}`'s checks now run only in some environments (before {before})",
                new.src.shown(s.line),
                nu.name
            )
        };
        out.push(finding(
            file.path,
            FindingKind::SkipAdded,
            Some(s.line),
            detail,
            Some(&nu.name),
        ));
    }
    // (A panic the old test caught and checked for, `assert!(catch_unwind(|| f())
    // .is_err())`, now expected by the attribute: the same check, moved. Only with
    // no check left in the test, which after the panic would never run.)
    let panic_was_expected = |s: &Skip| {
        let (was, now) = (old.src.text(ou.span.clone()), new.src.text(nu.span.clone()));
        s.text.starts_with("#[should_panic")
            && was.contains("catch_unwind(")
            && was.contains(".is_err()")
            && !now.contains("catch_unwind(")
            && nu.checks.is_empty()
    };
    if ni > oi
        && let Some(s) = fresh(true)
        && !panic_was_expected(s)
    {
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(s.line),
            format!(
                "`{}` added: `{}` now passes when it fails",
                new.src.shown(s.line),
                nu.name
            ),
            Some(&nu.name),
        ));
    }
    // A `return` in a `#[should_panic]` test makes it fail, not pass.
    let expects_panic = || {
        nu.skips
            .iter()
            .any(|&s| new.skips[s].text.starts_with("#[should_panic"))
    };
    if (nu_ > ou_ || nc + nu_ > oc + ou_)
        && let Some(s) = fresh(false)
        && !(s.text == "return" && expects_panic())
    {
        let detail = if s.text == "return" {
            format!("`return` before the checks of `{}`", nu.name)
        } else if s.text == UNMARKED_ASYNC {
            format!(
                "`@pytest.mark.asyncio` gone from `{}`: pytest-asyncio's strict mode no longer runs it",
                nu.name
            )
        } else {
            format!("`{}` added", new.src.shown(s.line))
        };
        out.push(finding(
            file.path,
            FindingKind::SkipAdded,
            Some(s.line),
            detail,
            Some(&nu.name),
        ));
    }
    out
}

/// Helpers and hooks with the same name on both sides (the k-th of a name with the
/// k-th: overloads and trait impls share names): loosened or removed checks in a
/// helper a test calls, skips added to it or to a hook. (A test calling it is compared
/// through it too; the findings are the same lines and are reported once.)
pub(super) fn compare_helpers(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let called = |m: &Model| -> HashSet<String> {
        m.tests()
            .flat_map(|(_, u)| m.calls(u).into_iter().map(String::from))
            .collect()
    };
    let called_both = std::cell::OnceCell::new();
    let mut out = Vec::new();
    // Same-named units (overloads, the `read` of many anonymous adapters): those
    // whose code is unchanged somewhere among them are set aside, the rest paired
    // in order.
    let group = |m: &Model, u: &Unit| -> Vec<usize> {
        (0..m.units.len())
            .filter(|&i| m.units[i].role == u.role && m.units[i].name == u.name)
            .collect()
    };
    let mut paired: HashMap<(&str, Role), Vec<(usize, usize)>> = HashMap::new();
    for ou in old.units.iter().filter(|u| u.role != Role::Test) {
        paired
            .entry((ou.name.as_str(), ou.role))
            .or_insert_with(|| {
                let code_old = |i: usize| &old.src.code[old.units[i].span.clone()];
                let code_new = |i: usize| &new.src.code[new.units[i].span.clone()];
                let mut olds = group(old, ou);
                let mut news = group(new, ou);
                olds.retain(
                    |&o| match news.iter().position(|&n| code_new(n) == code_old(o)) {
                        Some(at) => {
                            news.remove(at);
                            false
                        }
                        None => true,
                    },
                );
                olds.into_iter().zip(news).collect()
            });
    }
    let mut pairs: Vec<(usize, usize)> = paired.into_values().flatten().collect();
    pairs.sort_unstable();
    for (o, n) in pairs {
        let (ou, nu) = (&old.units[o], &new.units[n]);
        let (called_old, called_new) = called_both.get_or_init(|| (called(old), called(new)));
        if ou.role == Role::Helper
            && !(called_old.contains(&ou.leaf) || called_new.contains(&nu.leaf))
        {
            continue; // not test code: production functions with asserts
        }
        if ou.role == Role::Helper && !ou.checks.is_empty() {
            let before = bag(old, ou, file.rules);
            let after = bag(new, nu, file.rules);
            let keys: HashSet<&str> = after.iter().map(|i| i.key.as_str()).collect();
            let line = before
                .iter()
                .find(|i| !keys.contains(i.key.as_str()))
                .map_or(nu.line, |i| file.map_line(i.line));
            out.extend(compare_bags(
                file,
                &before,
                &after,
                line,
                &nu.name,
                old,
                new,
                &Appeared::default(),
                Some(nu.span.clone()),
                Scope::Test,
            ));
        }
        // A Rust `#[cfg(…)]` on a function without checks, or on a statement of one,
        // leaves the code under test (kept beside its tests in one file) out of a
        // build, not a check: Rust has no skip a function could call.
        if ou.role == Role::Helper
            && file.rules.language == Language::Rust
            && ou.checks.is_empty()
            && nu.checks.is_empty()
        {
            continue;
        }
        out.extend(compare_skips(file, old, ou, new, nu));
    }
    out
}

/// A test redefined later in the same scope no longer runs (Python).
/// A skip added to a file with no tests of its own (RSpec's `spec_helper.rb` gaining
/// `config.filter_run_excluding type: :request`, a `conftest.py` gaining
/// `collect_ignore = [...]`): it deselects tests the runner collects from other files.
pub(super) fn runner_file_skips(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    if new.tests().next().is_some() || new.file_skips.is_empty() {
        return Vec::new();
    }
    let mut had: HashMap<&str, usize> = HashMap::new();
    for &s in &old.file_skips {
        *had.entry(old.skips[s].text.as_str()).or_default() += 1;
    }
    let mut out = Vec::new();
    // (Runner settings only: a build constraint on a helper file deselects no test.)
    let deselects = |text: &str| {
        [
            "collect_ignore",
            // (`pytest_collection_modifyitems` dropping collected tests.)
            "config.hook.pytest_deselected",
            "items[:]",
            "filter_run",
            "config.filter_run",
            "RSpec.configure",
        ]
        .iter()
        .any(|w| text.starts_with(w))
    };
    for &s in &new.file_skips {
        let skip = &new.skips[s];
        // (Under a condition, `if not PY_3_14_PLUS: collect_ignore.extend([…])`, it is
        // a version gate, like a platform skip on a test.)
        // (Nor an empty list, `collect_ignore = []`, which ignores nothing yet.)
        let empty = String::from_utf8_lossy(
            new.src
                .raw
                .split(|&b| b == b'\n')
                .nth(skip.line)
                .unwrap_or_default(),
        )
        .trim_end()
        .ends_with("[]");
        if !deselects(&skip.text) || skip.kind != SkipKind::Unconditional || empty {
            continue;
        }
        match had.get_mut(skip.text.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.push(finding(
                file.path,
                FindingKind::SkipAdded,
                Some(skip.line),
                format!(
                    "`{}` added: it deselects tests of other files",
                    new.src.shown(skip.line)
                ),
                None,
            )),
        }
    }
    out
}

/// A focus on a test that arrives (`it.only`, `fit`, `FIt`, `focus: true`, kotest's
/// `f:`) when nothing was focused before: the file's other tests, which ran, stop
/// running. (On a kept test the focus is a skip counted by [`compare_pair`].)
pub(super) fn focus_on_arrivals(
    file: &File,
    old: &Model,
    new: &Model,
    arrivals: &[usize],
) -> Vec<Finding> {
    let kotest = |m: &Model| memchr::memmem::find(m.src.b(), b"io.kotest").is_some();
    let focused = |m: &Model, u: &Unit| {
        u.skips.iter().any(|&s| focuses(&m.skips[s].text))
            || (m.language == Language::Java
                && u.leaf.trim_start_matches(['"', '`']).starts_with("f:")
                && kotest(m))
    };
    let Some(&first) = arrivals.iter().find(|&&n| focused(new, &new.units[n])) else {
        return Vec::new();
    };
    if old.tests().any(|(_, u)| focused(old, u)) {
        return Vec::new();
    }
    let old_names: HashSet<&str> = old.tests().map(|(_, u)| u.name.as_str()).collect();
    let stopped = new
        .tests()
        .filter(|(_, u)| {
            u.shadowed_by.is_none() && !focused(new, u) && old_names.contains(u.name.as_str())
        })
        .count();
    if stopped == 0 {
        return Vec::new();
    }
    let u = &new.units[first];
    vec![finding(
        file.path,
        FindingKind::SkipAdded,
        Some(u.line),
        format!(
            "`{}` arrives focused, so the file's {stopped} other {} no longer run{}",
            u.name,
            if stopped == 1 { "test" } else { "tests" },
            if stopped == 1 { "s" } else { "" }
        ),
        Some(&u.name),
    )]
}

/// Whether a skip marker's text focuses (runs its test alone): `.only`, `fit(`,
/// ginkgo's `FIt(`/`Focus`, RSpec's `focus`.
fn focuses(text: &str) -> bool {
    let head = text.split(['(', ' ']).next().unwrap_or(text);
    head.ends_with(".only")
        || head.contains(".only.")
        || matches!(
            head,
            "fit" | "fdescribe" | "fcontext" | "fspecify" | "fexample" | "focus"
        )
        || (head.starts_with('F')
            && matches!(
                &head[1..],
                "It" | "Describe" | "Context" | "When" | "Specify" | "Entry" | "DescribeTable"
            ))
        || text.contains("Focus")
        || text.starts_with("focus:")
        || text.starts_with("focus =>")
}

pub(super) fn shadowing(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let shadowed = |m: &Model, name: &str| {
        m.tests()
            .filter(|(_, u)| u.name == name && u.shadowed_by.is_some())
            .count()
    };
    let mut out = Vec::new();
    for (_, u) in new.tests() {
        let Some(by) = u.shadowed_by else { continue };
        if shadowed(new, &u.name) > shadowed(old, &u.name) {
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                Some(u.line),
                format!(
                    "`{}` is defined again at line {}: this one no longer runs",
                    u.name,
                    by + 1
                ),
                Some(&u.name),
            ));
        }
    }
    out
}

/// `expect.assertions(n)` / `expect.hasAssertions()` deleted from a test whose checks
/// sit in a `catch`: they ran only when the call threw, and nothing now fails the test
/// when it does not.
fn assertion_count_dropped(
    file: &File,
    old: &Model,
    ou: &Unit,
    new: &Model,
    nu: &Unit,
) -> Vec<Finding> {
    const COUNTS: [&str; 2] = ["expect.assertions(", "expect.hasAssertions("];
    if new.language != Language::JavaScript {
        return Vec::new();
    }
    let (was, now) = (
        &old.src.code[ou.span.clone()],
        &new.src.code[nu.span.clone()],
    );
    let counted = |text: &str| COUNTS.iter().any(|c| text.contains(c));
    let checks_in_catch = || {
        ["catch (", "catch(", ".catch("]
            .iter()
            .any(|c| now.find(c).is_some_and(|at| now[at..].contains("expect(")))
    };
    if !counted(was) || counted(now) || !checks_in_catch() {
        return Vec::new();
    }
    let line = COUNTS
        .iter()
        .filter_map(|c| was.find(c))
        .min()
        .map_or(nu.line, |at| {
            file.map_line(old.src.line_of(ou.span.start + at))
        });
    vec![finding(
        file.path,
        FindingKind::AssertionLoosened,
        Some(line),
        format!(
            "`expect.assertions` removed from `{}`: its checks in a `catch` now pass when nothing is thrown",
            nu.name
        ),
        Some(&nu.name),
    )]
}

/// node's `assert` imported from `assert/strict` before and from the plain module now
/// (`import assert from 'node:assert'`): its `equal`, `deepEqual`, `notEqual` and
/// `notDeepEqual` then compare with `==`, so `assert.equal(n, '1')` passes for `1`.
pub(super) fn assert_mode_loosened(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    // (Read only where the old side names strict mode at all.)
    if old.language != Language::JavaScript
        || memchr::memmem::find(old.src.raw, b"strict").is_none()
    {
        return Vec::new();
    }
    let (was_strict, _) = node_assert_imports(old);
    let (strict, plain) = node_assert_imports(new);
    let loose_calls = [
        "assert.equal(",
        "assert.deepEqual(",
        "assert.notEqual(",
        "assert.notDeepEqual(",
    ];
    match plain {
        Some(line)
            if was_strict && !strict && loose_calls.iter().any(|c| new.src.code.contains(c)) =>
        {
            vec![finding(
                file.path,
                FindingKind::AssertionLoosened,
                Some(line),
                format!(
                    "`{}`: `assert.equal` and `deepEqual` now compare with `==` (node's legacy assert), not strictly",
                    new.src.shown(line)
                ),
                None,
            )]
        }
        _ => Vec::new(),
    }
}

/// Whether the file imports strict mode (`assert/strict`, `{ strict as assert }`),
/// and the line of its first plain import of `assert`.
pub(super) fn node_assert_imports(m: &Model) -> (bool, Option<usize>) {
    const STRICT: [&str; 4] = [
        "'assert/strict'",
        "\"assert/strict\"",
        "'node:assert/strict'",
        "\"node:assert/strict\"",
    ];
    const PLAIN: [&str; 4] = ["'assert'", "\"assert\"", "'node:assert'", "\"node:assert\""];
    let mut strict = false;
    let mut plain = None;
    for (n, line) in m.src.raw.split(|&b| b == b'\n').enumerate() {
        let line = String::from_utf8_lossy(line);
        let t = line.trim();
        if !(t.starts_with("import ") || t.contains("require(")) {
            continue;
        }
        let names_plain = PLAIN.iter().any(|p| t.contains(p));
        if STRICT.iter().any(|p| t.contains(p)) || (names_plain && t.contains("strict")) {
            strict = true;
        } else if names_plain {
            plain.get_or_insert(n);
        }
    }
    (strict, plain)
}

/// A number raised in data outside any test that a test's bound check reads: a
/// constant (`const MAX_MS = 100` → `500` under `expect(took).toBeLessThan(MAX_MS)`)
/// or a row of a table the test is generated from (`const CEILINGS = { "a": 2830 }` →
/// `2858` with `for (const [name, ceiling] of Object.entries(CEILINGS)) test(…,
/// () => expect(size).toBeLessThanOrEqual(ceiling))`): the bound lets more through
/// though the test's code is the same.
pub(super) fn bounds_in_data(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let lines = |m: &Model| -> Vec<usize> {
        // Line starts over `\n` only (as `map_line`): `from_lines` also splits at `\r`.
        let mut at = 0;
        m.src
            .code
            .split_inclusive('\n')
            .map(|l| {
                let s = at;
                at += l.len();
                s
            })
            .collect()
    };
    let a: Vec<&str> = old.src.code.split_inclusive('\n').collect();
    let b: Vec<&str> = new.src.code.split_inclusive('\n').collect();
    // Cheap first: a number edited outside every test and helper needs a line with a
    // digit, outside any unit, between the first and the last line that differ; most
    // changes have none, and the line diff below is then not needed.
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let mut at: usize = b[..prefix].iter().map(|l| l.len()).sum();
    let candidate = b[prefix..b.len() - suffix].iter().any(|l| {
        let pos = at;
        at += l.len();
        l.bytes().any(|c| c.is_ascii_digit()) && new.unit_at(pos).is_none()
    });
    if !candidate {
        return Vec::new();
    }
    let starts = lines(new);
    let mut out = Vec::new();
    for op in TextDiff::from_slices(&a, &b).ops() {
        let DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } = *op
        else {
            continue;
        };
        if old_len != new_len {
            continue;
        }
        for k in 0..old_len {
            let (was_line, now_line) = (
                checks::squeeze(a[old_index + k]),
                checks::squeeze(b[new_index + k]),
            );
            let Some((was, now)) = checks::changed_number(&was_line, &now_line) else {
                continue;
            };
            let pos = starts[new_index + k];
            if new.unit_at(pos).is_some() {
                continue; // in a test or helper: compared there
            }
            let Some(name) = defined_name(&now_line).or_else(|| table_name(new, pos)) else {
                continue;
            };
            if let Some(check) = bound_reading(new, file, &name, was, now)
                .or_else(|| helper_bound_reading(new, file, &name, was, now))
            {
                out.push(finding(
                    file.path,
                    FindingKind::AssertionLoosened,
                    Some(new_index + k),
                    format!(
                        "`{was}` → `{now}` in `{name}`, the bound of `{}`: the bound lets more through",
                        new.src.shown(check)
                    ),
                    None,
                ));
            }
        }
    }
    out
}

/// The name a line assigns (`const MAX_MS = 100;`, `CEILINGS = {`, `var limits =
/// map[string]int{`, `static final int MAX = 3;`).
fn defined_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    loop {
        let word_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let word = &rest[..word_end];
        if word.is_empty() {
            return None;
        }
        let after = rest[word_end..].trim_start();
        if matches!(
            word,
            "export"
                | "const"
                | "let"
                | "var"
                | "static"
                | "final"
                | "private"
                | "public"
                | "protected"
                | "readonly"
                | "val"
                | "pub"
                | "int"
                | "long"
                | "double"
        ) && !after.starts_with('=')
        {
            rest = after;
            continue;
        }
        // `NAME = …`, `NAME: Type = …`, `NAME := …` (not `==`).
        let eq = after.find('=')?;
        let between = &after[..eq];
        let ok = (between.trim().is_empty() || between.starts_with(':'))
            && !after[eq + 1..].starts_with('=')
            && !between.contains(['(', ';']);
        return ok.then(|| word.to_string());
    }
}

/// The name of the table whose literal holds `pos` (`const CEILINGS = {` … `}`).
fn table_name(model: &Model, pos: usize) -> Option<String> {
    let b = model.src.b();
    let mut depth = 0usize;
    for i in (0..pos.min(b.len())).rev() {
        match b[i] {
            b'}' | b')' | b']' => depth += 1,
            b'{' | b'(' | b'[' if depth > 0 => depth -= 1,
            b'{' | b'(' | b'[' => {
                let line = model.src.line_of(i);
                let head = &model.src.code[model.src.line_start(line)..i];
                return defined_name(&checks::squeeze(head));
            }
            _ => {}
        }
    }
    None
}

/// Whether the text a check searched for was the name of something the change renames
/// away in the file (`contains("CookieServlet")` → `contains("Cookie")` as `CookieServlet`
/// goes for a route `/Cookie`): the name it looked for no longer exists.
fn renamed_away(was: &str, now: &str, old: &Model, new: &Model) -> bool {
    checks::cut_name(was, now).is_some_and(|name| {
        checks::mentions(&old.src.code, name) && !checks::mentions(&new.src.code, name)
    })
}

/// Whether the `.with(…)` matcher a lost check had is checked by a check fresh in the
/// change: the lost check up to its `.with(…)`, in a test of its own.
fn with_checked_apart(lost: &str, elsewhere: &Appeared) -> bool {
    let Some(at) = lost.find(".with(") else {
        return false;
    };
    let open = at + ".with".len();
    let Some(close) = crate::weakening::source::matching_close(lost.as_bytes(), open) else {
        return false;
    };
    elsewhere.fresh_with_prefix(&lost[..=close])
}

/// The field a Java check reads through a getter (`e.getEmail()` → `email`).
fn getter_field(key: &str) -> Option<String> {
    let at = key.find(".get")? + 4;
    let name: String = key[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let first = name.chars().next().filter(char::is_ascii_uppercase)?;
    if !key[at + name.len()..].starts_with("()") || name == "Message" {
        return None;
    }
    Some(first.to_ascii_lowercase().to_string() + &name[1..])
}

/// Whether an AssertJ check pins a field to `text`: `.extracting("email").isEqualTo(text)`
/// or `.hasFieldOrPropertyWithValue("email", text)`.
fn pins_field(key: &str, field: &str, text: &str) -> bool {
    key.contains(&format!(".extracting(\"{field}\").isEqualTo({text})"))
        || key.contains(&format!(".hasFieldOrPropertyWithValue(\"{field}\",{text})"))
}

/// Whether an expected-error check pins `text` (a string literal) as the error's message
/// (`hasMessage("m")`, `WithMessage("m")`, `Where(e => e.Message == "m")`; its
/// parameter, `WithParameterName("p")`), not as an
/// input of the call it expects to fail (`assertThrows(E.class, () -> parse("m"))`).
fn pins_message(key: &str, text: &str) -> bool {
    const MARKERS: &[&str] = &[
        "hasMessage(",
        "WithMessage(",
        "WithParameterName(",
        "withMessage(",
        "Message==",
        "message==",
        "getMessage()==",
        "expectMessage(",
        "match=",
        "toThrow(",
        "toThrowError(",
        "raise_error(",
        "EqualError(",
    ];
    key.match_indices(text).any(|(at, _)| {
        let before = key[..at].trim_end();
        MARKERS.iter().any(|m| before.ends_with(m))
    }) || {
        // chai-as-promised's `rejectedWith(E, "m")` or `rejectedWith(E, /^m$/)`: the
        // whole message, as text or as an anchored pattern.
        let inner = &text[1..text.len() - 1];
        let forms = [
            format!("\"{inner}\""),
            format!("'{inner}'"),
            format!("/^{inner}$/"),
        ];
        key.match_indices("rejectedWith(").any(|(at, m)| {
            let args = &key[at + m.len()..];
            forms.iter().any(|f| {
                args.starts_with(f.as_str())
                    || args.split_once(',').is_some_and(|(ty, rest)| {
                        !ty.contains('(') && rest.trim_start().starts_with(f.as_str())
                    })
            })
        })
    }
}

/// The line of a test's check that calls a helper whose returned comparison reads the
/// bound `name` (`const epsilon = 1e-9` under `func approxEqual(a, b float64) bool {
/// return math.Abs(a-b) <= epsilon*… }` and `if !approxEqual(got, want) { t.Errorf(…)
/// }`), when `was` → `now` widens that comparison.
fn helper_bound_reading(
    new: &Model,
    file: &File,
    name: &str,
    was: &str,
    now: &str,
) -> Option<usize> {
    new.units
        .iter()
        .filter(|u| u.role == Role::Helper)
        .find_map(|helper| {
            let lines = new.src.line_of(helper.span.start)
                ..=new.src.line_of(helper.span.end.saturating_sub(1));
            let widened = lines.into_iter().any(|l| {
                let text = checks::squeeze(new.src.line_text(l));
                let Some(expr) = returned_comparison(&text) else {
                    return false;
                };
                let (k_was, k_now) = (
                    format!("assert {}", checks::replace_word(expr, name, was)),
                    format!("assert {}", checks::replace_word(expr, name, now)),
                );
                k_was != k_now && checks::bound_widened(&k_was, &k_now)
            });
            if widened {
                check_calling(new, file, &helper.leaf)
            } else {
                None
            }
        })
}

/// A bound raised inside a helper whose returned comparison a test's check reads
/// (`fn approx(a: f64, b: f64) -> bool { (a - b).abs() < 1e-12 }` → `< 0.5` under
/// `assert!(approx(x, y))`): the check lets more through though its own text is the
/// same. (A helper with checks of its own is compared by them.)
pub(super) fn helper_bounds(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for helper in new
        .units
        .iter()
        .filter(|u| u.role == Role::Helper && u.checks.is_empty())
    {
        let Some(was_helper) = old
            .units
            .iter()
            .find(|u| u.role == Role::Helper && u.name == helper.name)
        else {
            continue;
        };
        // (Most helpers are unchanged: one comparison says so.)
        if old.src.code[was_helper.span.clone()] == new.src.code[helper.span.clone()] {
            continue;
        }
        let lines = |m: &Model, u: &Unit| -> Vec<(usize, String)> {
            (m.src.line_of(u.span.start)..=m.src.line_of(u.span.end.saturating_sub(1)))
                .map(|l| (l, checks::squeeze(m.src.line_text(l))))
                .collect()
        };
        let (a, b) = (lines(old, was_helper), lines(new, helper));
        if a.len() != b.len() {
            continue;
        }
        for ((_, was_line), (line, now_line)) in a.iter().zip(&b) {
            if was_line == now_line {
                continue;
            }
            let (Some(e_was), Some(e_now)) =
                (returned_comparison(was_line), returned_comparison(now_line))
            else {
                continue;
            };
            let (k_was, k_now) = (format!("assert {e_was}"), format!("assert {e_now}"));
            if checks::changed_number(&k_was, &k_now).is_none()
                || !checks::bound_widened(&k_was, &k_now)
            {
                continue;
            }
            if let Some(check) = check_calling(new, file, &helper.leaf) {
                out.push(finding(
                    file.path,
                    FindingKind::AssertionLoosened,
                    Some(*line),
                    format!(
                        "`{}` → `{}` in `{}`, which `{}` reads: the bound lets more through",
                        was_line,
                        now_line,
                        helper.leaf,
                        new.src.shown(check)
                    ),
                    None,
                ));
            }
        }
    }
    out
}

/// The comparison a helper's line returns (`return math.Abs(a-b) <= eps;`, Rust's
/// tail expression `(a - b).abs() < 1e-12`), squeezed.
fn returned_comparison(line: &str) -> Option<&str> {
    let expr = line
        .trim()
        .trim_end_matches(';')
        .trim_end_matches('}')
        .trim();
    let expr = expr.strip_prefix("return ").unwrap_or(expr).trim();
    (["<", ">"].iter().any(|op| expr.contains(op))
        && !expr.contains("->")
        && !expr.contains("=>")
        && !expr.starts_with("fn ")
        && !expr.starts_with("func ")
        && !expr.starts_with("def "))
    .then_some(expr)
}

/// Whether the exact check `g` that covers the lost bound `l` expects a number the
/// bound forbade (`assert total >= 0` → `assert total == Decimal("-0.01")`): no cover,
/// the bound is lost.
fn breaks_bound(l: &Item, g: &Item) -> bool {
    bound_of(l).is_some_and(|(op, bound)| {
        let numbers: Vec<f64> = g.parts.iter().filter_map(|p| number_in(p)).collect();
        !numbers.is_empty() && !numbers.iter().any(|&m| meets(m, op, bound))
    })
}

fn meets(value: f64, op: &str, bound: f64) -> bool {
    match op {
        ">=" => value >= bound,
        ">" => value > bound,
        "<=" => value <= bound,
        _ => value < bound,
    }
}

/// A check's bound: its comparison and the number, when one of its parts (the value it
/// is about) is written right before the comparison and a number right after it
/// (`assert total>=Decimal("0.00")`, `assertTrue(n<10)`), or the value is the subject
/// of a matcher of order (`expect(n).toBeGreaterThanOrEqual(0)`).
fn bound_of(l: &Item) -> Option<(&'static str, f64)> {
    const MATCHERS: &[(&str, &str)] = &[
        (").toBeGreaterThanOrEqual(", ">="),
        (").toBeGreaterThan(", ">"),
        (").toBeLessThanOrEqual(", "<="),
        (").toBeLessThan(", "<"),
        (").isGreaterThanOrEqualTo(", ">="),
        (").isGreaterThan(", ">"),
        (").isLessThanOrEqualTo(", "<="),
        (").isLessThan(", "<"),
    ];
    let key = l.key.as_str();
    for (matcher, op) in MATCHERS {
        if let Some((head, tail)) = key.split_once(matcher)
            && l.parts
                .iter()
                .any(|p| !p.is_empty() && head.ends_with(p.as_str()))
            && let Some(bound) = number_in(tail.strip_suffix(')').unwrap_or(tail))
        {
            return Some((op, bound));
        }
    }
    for op in [">=", "<=", ">", "<"] {
        for (at, _) in key.match_indices(op) {
            let (head, tail) = (&key[..at], &key[at + op.len()..]);
            // (Not a part of `->`, `=>`, `<<`, `>>`, `<=`/`>=` read as `<`/`>`.)
            if head.ends_with(['-', '=', '<', '>']) || tail.starts_with(['<', '>', '=']) {
                continue;
            }
            let subject = l
                .parts
                .iter()
                .any(|p| !p.is_empty() && !checks::literal(p) && head.ends_with(p.as_str()));
            let bound = l
                .parts
                .iter()
                .filter(|p| tail.starts_with(p.as_str()))
                .find_map(|p| number_in(p));
            if let (true, Some(bound)) = (subject, bound) {
                return Some((op, bound));
            }
        }
    }
    None
}

/// The number a part writes: `-20.0`, `10_000`, or one number wrapped in a
/// constructor (`Decimal("0.01")`, `BigDecimal.valueOf(5)`), nothing else computed.
fn number_in(part: &str) -> Option<f64> {
    let start = part.find(|c: char| c.is_ascii_digit())?;
    let start = if part[..start].ends_with('-') {
        start - 1
    } else {
        start
    };
    let len = part[start + 1..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .map_or(part.len() - start, |i| i + 1);
    let (around, number) = (
        format!("{}{}", &part[..start], &part[start + len..]),
        &part[start..start + len],
    );
    let lead = part[..start].trim_end_matches(['"', '\'']);
    if !(lead.is_empty() || lead.ends_with('('))
        || around.contains(|c: char| c.is_ascii_digit() || "+-*/%<>=!&|,?:[".contains(c))
    {
        return None;
    }
    number.replace('_', "").parse().ok()
}

/// The line of a test's check that calls `helper` (`assert!(approx(x, y))`, `if
/// !approxEqual(got, want) { t.Errorf(…) }`).
fn check_calling(new: &Model, file: &File, helper: &str) -> Option<usize> {
    let call = format!("{helper}(");
    new.tests().find_map(|(_, unit)| {
        unit.checks.iter().find_map(|&c| {
            let (key, _) = new.check_key(c, file.rules);
            key.match_indices(&call)
                .any(|(at, _)| {
                    !key[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
                .then_some(new.checks[c].line)
        })
    })
}

/// The line of a test's check whose bound is read from `name` (or from a name bound
/// with it in the lines that generate the test) and which `was` → `now` widens.
fn bound_reading(new: &Model, file: &File, name: &str, was: &str, now: &str) -> Option<usize> {
    let word_in = |text: &str, w: &str| checks::replace_word(text, w, "\u{0}") != text;
    for (_, unit) in new.tests() {
        // The test's first line and the three above it (a loop or decorator feeding it).
        let from = new.src.line_start(unit.line.saturating_sub(3));
        let to = new.src.line_end(unit.line).min(new.src.raw.len());
        let header = String::from_utf8_lossy(&new.src.raw[from..to]);
        for &c in &unit.checks {
            let (key, _) = new.check_key(c, file.rules);
            let mut names = vec![name.to_string()];
            if word_in(&header, name) {
                names.extend(
                    key.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                        .filter(|w| !w.is_empty() && w != &name && word_in(&header, w))
                        .map(String::from),
                );
            }
            for w in names.iter().filter(|w| word_in(&key, w)) {
                let (k_was, k_now) = (
                    checks::replace_word(&key, w, was),
                    checks::replace_word(&key, w, now),
                );
                if checks::bound_widened(&k_was, &k_now) {
                    // The line of the check that names the bound.
                    let span = &new.checks[c].span;
                    let last = new.src.line_of(span.end.saturating_sub(1));
                    return (new.checks[c].line..=last)
                        .find(|&l| word_in(new.src.line_text(l), w))
                        .or(Some(new.checks[c].line));
                }
            }
        }
    }
    None
}

/// Findings of a test's code rewritten around the same checks: a mock's expectation
/// widened, a sort added before an order check, a throwing call made its returning
/// sibling. (Read only when the test's code changed.)
fn rewritten_checks(
    path: &[u8],
    old: &Model,
    ou: &Unit,
    new: &Model,
    nu: &Unit,
    old_code: &str,
    new_code: &str,
) -> Vec<Finding> {
    let mut out = Vec::new();
    // (Each at the line of `at`, an offset in the new test; `detail` is given that line.)
    let mut report = |kind: FindingKind, at: usize, detail: &dyn Fn(&str) -> String| {
        let line = new.src.line_of(nu.span.start + at);
        let shown = new.src.shown(line);
        out.push(finding(
            path,
            kind,
            Some(line),
            format!("`{}`: {}", nu.name, detail(&shown)),
            Some(&nu.name),
        ));
    };
    let raw = (
        std::str::from_utf8(&old.src.raw[ou.span.clone()]),
        std::str::from_utf8(&new.src.raw[nu.span.clone()]),
    );
    // A mock's expectation widened: a wrong call now passes it.
    if let (Ok(old_raw), Ok(new_raw)) = raw
        && let Some((at, was, now, why)) = super::expectations::widened_expectation(
            (old_raw, old_code),
            (new_raw, new_code),
            new.language,
        )
    {
        report(FindingKind::AssertionLoosened, at, &|_| {
            format!("`{was}` → `{now}`: {why}")
        });
    }
    // A sort added before an order check: the order it checked no longer matters.
    if let (Ok(old_raw), Ok(new_raw)) = raw
        && let Some(at) =
            super::orders::sort_added((old_code, new_code), (old_raw, new_raw), &nu.leaf)
    {
        report(FindingKind::AssertionLoosened, at, &|line| {
            format!("`{line}` added: its check no longer sees the order it was about")
        });
    }
    // A mock's expected calls no longer held to their order.
    if let Some(at) = super::orders::call_order_dropped(old_code, new_code) {
        report(FindingKind::AssertionLoosened, at, &|_| {
            "its mock's expected calls are no longer held to their order".to_string()
        });
    }
    // Hypothesis told to run only the explicit examples.
    if let Some(at) = super::generators::generation_turned_off(old_code, new_code) {
        report(FindingKind::TestRemoved, at, &|line| {
            format!("`{line}`: no generated input runs, only its explicit examples")
        });
    }
    // A throwing call made its returning sibling, the failure it returns unread.
    if let Some((at, why)) = super::unread::unread_failure(old_code, new_code) {
        report(FindingKind::AssertionLoosened, at.start, &|line| {
            format!("`{line}`: {why}")
        });
    }
    out
}
