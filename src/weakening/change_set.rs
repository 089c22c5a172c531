//! A whole change compared: every file read on both sides, tests paired (`matching`),
//! each pair compared (`compare`); what is left over is reported here: tests missing
//! from the change, and checks lost outside any test.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use super::bags::{Appeared, Item, bag, distinct_checks, loose_bag};
use super::checks::{Strength, shape, unrepeated};
use super::compare::{
    Scope, assert_mode_loosened, bounds_in_data, compare_bags, compare_helpers, compare_merged,
    compare_pair, helpers_changed, shadowing,
};
use super::matching::{
    body_lines, empty_body, in_order, live_tests, match_across_files, match_by_name,
    match_by_names_left,
};
use super::model::{Model, Role, Skip};
use super::rules::Language;
use super::units::named_subtests;
use super::{At, File, Finding, FindingKind, Loaded, RuleSet, finding};

/// All findings for the files of a change; `extra` are added files, read only to find
/// the tests moved into them.
pub(super) fn compare_set(files: &[Loaded], extra: &[Loaded], rules: &RuleSet) -> Vec<Finding> {
    let read: Vec<File> = files
        .iter()
        .chain(extra)
        .map(|f| {
            let r = rules.get(f.language);
            File {
                path: &f.path,
                rules: r,
                old: f.old.as_deref().map(|b| Model::new(b, r)),
                new: f.new.as_deref().map(|b| Model::new(b, r)),
                map: OnceLock::new(),
            }
        })
        .collect();
    let mut out = Vec::new();
    // (Rows filtered, read from the file's lines: told only where no finding about the
    // same test or line already says so.)
    let mut filtered: Vec<Finding> = Vec::new();
    let mut excluded: Vec<Finding> = Vec::new();
    let mut pairs: Vec<(At, At)> = Vec::new();
    let mut removed: Vec<At> = Vec::new();
    let mut added: Vec<At> = Vec::new();

    for (fi, file) in read.iter().enumerate() {
        // (Doc examples live in comments: read before a comment-only change is passed.)
        if file.rules.language == Language::Rust
            && let (Some(old), Some(new)) = (&file.old, &file.new)
        {
            out.extend(super::doctests::set_aside(
                file.path,
                old.src.raw,
                new.src.raw,
            ));
        }
        if let (Some(old), Some(new)) = (&file.old, &file.new)
            && old.src.code == new.src.code
            && old.comment_keys(0..old.src.code.len(), file.rules)
                == new.comment_keys(0..new.src.code.len(), file.rules)
        {
            continue; // only comments or strings changed, and no check among them
        }
        let old_tests: Vec<usize> = file
            .old
            .as_ref()
            .map(|m| live_tests(m).collect())
            .unwrap_or_default();
        let new_tests: Vec<usize> = file
            .new
            .as_ref()
            .map(|m| live_tests(m).collect())
            .unwrap_or_default();
        let (matched, left_old, left_new) =
            match_by_name(file.old.as_ref(), &old_tests, file.new.as_ref(), &new_tests);
        if let (Some(old), Some(new)) = (&file.old, &file.new) {
            out.extend(super::compare::focus_on_arrivals(file, old, new, &left_new));
        }
        pairs.extend(matched.into_iter().map(|(o, n)| ((fi, o), (fi, n))));
        removed.extend(left_old.into_iter().map(|o| (fi, o)));
        added.extend(left_new.into_iter().map(|n| (fi, n)));
        // Helpers and hooks are compared by name too (a loosened helper, a skip in
        // `setUp`), without ever being "removed".
        if let (Some(old), Some(new)) = (&file.old, &file.new) {
            out.extend(compare_helpers(file, old, new));
            out.extend(shadowing(file, old, new));
            out.extend(super::compare::runner_file_skips(file, old, new));
            out.extend(bounds_in_data(file, old, new));
            out.extend(super::compare::helper_bounds(file, old, new));
            out.extend(assert_mode_loosened(file, old, new));
            out.extend(super::knobs::fewer_cases(file, old, new));
            out.extend(super::knobs::concurrency_cut(file, old, new));
            out.extend(super::golden::recording_switched_on(file, old, new));
            excluded.extend(super::exclusions::exclusions_added(file, old, new));
            out.extend(super::leniency::mocks_made_lenient(file, old, new));
            filtered.extend(super::filters::rows_filtered(file, old, new));
        }
    }

    // Tests missing from one file found in another: by name, then by their checks
    // (the test whose checks hold all of the missing one's, closest first; then by
    // the checks' shapes: moved, renamed and with values edited); then by the names
    // that left their file with them (moved and rewritten; several merged into one
    // are compared together).
    let mut merged = Vec::new();
    if !removed.is_empty() && read.len() > 1 {
        match_across_files(&read, &mut pairs, &mut removed, &mut added);
        for (olds, a) in match_by_names_left(&read, &mut removed, &mut added) {
            if let [o] = olds[..] {
                pairs.push((o, a));
            } else {
                merged.push((olds, a));
            }
        }
    }

    // Checks that appear in the change (in new tests, or new in changed ones): a
    // check moved out of one test into another, in any file, is not lost.
    let appeared = Appeared::in_change(&read, &added, &pairs, &merged);
    let changed_helpers: Vec<bool> = read
        .iter()
        .map(|f| match (&f.old, &f.new) {
            (Some(old), Some(new)) => helpers_changed(old, new),
            _ => true,
        })
        .collect();
    for (o, n) in &pairs {
        out.extend(compare_pair(&read, *o, *n, changed_helpers[o.0], &appeared));
    }
    for (olds, n) in &merged {
        out.extend(compare_merged(&read, olds, *n, &appeared));
    }

    // What is still missing, file by file.
    let mut by_file: HashMap<usize, Vec<usize>> = HashMap::new();
    for (f, u) in &removed {
        by_file.entry(*f).or_default().push(*u);
    }
    let mut files_sorted: Vec<_> = by_file.into_iter().collect();
    files_sorted.sort();
    // The tests of every file's new side that run and check (read once, and only when
    // some test went missing).
    let running: OnceLock<Vec<(Vec<String>, Vec<String>)>> = OnceLock::new();
    for (fi, mut gone) in files_sorted {
        let file = &read[fi];
        let Some(old) = &file.old else { continue };
        // A test that was always skipped (`@Disabled`, `xit`, an unconditional skip on
        // its file) ran nowhere before the change: deleting it loses no check. Skipping
        // it was the weakening, and that change was judged when it was made.
        gone.retain(|&u| {
            !old.never_ran(&old.units[u]) && !empty_body(old, &old.units[u], file.rules)
        });
        if gone.is_empty() {
            continue;
        }
        let missing = gone.clone();
        // A duplicate removed loses nothing: the same body under another name, or one
        // whose every statement another test still in the file runs, in the same order
        // (a test that does all it did and more); or ran before the change (a test
        // still in the file, whose own changes are compared on their own).
        // Tests of the other files of the change count too (a file of copies for an
        // older compiler deleted once its rows are back in the main tests).
        {
            let still_there = pairs
                .iter()
                .filter(|(o, n)| o.0 == fi && n.0 == fi)
                .map(|(o, _)| lines_and_skips(old, &old.units[o.1]));
            let still_there: Vec<(Vec<String>, Vec<String>)> = still_there.collect();
            let running = running.get_or_init(|| {
                read.iter()
                    .filter_map(|f| f.new.as_ref())
                    .flat_map(|new| {
                        live_tests(new)
                            .filter(|&u| {
                                !new.units[u].checks.is_empty() && !new.never_runs(&new.units[u])
                            })
                            .map(|u| lines_and_skips(new, &new.units[u]))
                    })
                    .collect()
            });
            gone.retain(|&u| {
                let mine = lines_and_skips(old, &old.units[u]);
                old.units[u].checks.is_empty()
                    || mine.0.is_empty()
                    || !running
                        .iter()
                        .chain(&still_there)
                        .any(|theirs| runs_all_of(theirs, &mine))
            });
            if gone.is_empty() {
                continue;
            }
        }
        let Some(new) = &file.new else {
            let all = live_tests(old).count();
            let detail = if gone.len() == all {
                format!("test file deleted ({all} {})", plural(all, "test", "tests"))
            } else {
                format!(
                    "test file deleted ({} of its {all} tests are not found elsewhere in the change)",
                    gone.len()
                )
            };
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                None,
                detail,
                None,
            ));
            continue;
        };
        // A test folded into the table of a test still in the file: each of its checks
        // is a check of that test with the values written as names (the rows), made
        // that many more times, its values now in that test's text.
        // (Only tests that changed and still run can have taken rows; their checks are
        // read once for all the removed tests.)
        let tables: Vec<Table> = pairs
            .iter()
            .filter(|(o, n)| o.0 == fi && n.0 == fi)
            .filter(|(o, n)| {
                let (ou, nu) = (&old.units[o.1], &new.units[n.1]);
                old.src.code[ou.span.clone()] != new.src.code[nu.span.clone()]
                    && !new.never_runs(nu)
            })
            .map(|(o, n)| Table {
                was: bag(old, &old.units[o.1], file.rules),
                now: bag(new, &new.units[n.1], file.rules),
                text: String::from_utf8_lossy(&new.src.raw[new.units[n.1].span.clone()]),
            })
            .collect();
        gone.retain(|&u| {
            let mine = bag(old, &old.units[u], file.rules);
            mine.is_empty() || !tables.iter().any(|t| t.took(&mine))
        });
        if gone.is_empty() {
            continue;
        }
        let arrived: Vec<usize> = added.iter().filter(|a| a.0 == fi).map(|a| a.1).collect();
        // The missing tests taken for duplicates of an arrival (it runs their body).
        let absorbed: Vec<usize> = match &file.new {
            Some(new) if !arrived.is_empty() && missing.len() > gone.len() => {
                let bodies: Vec<(Vec<String>, Vec<String>)> = arrived
                    .iter()
                    .map(|&a| lines_and_skips(new, &new.units[a]))
                    .collect();
                missing
                    .iter()
                    .copied()
                    .filter(|u| {
                        !gone.contains(u) && {
                            let mine = lines_and_skips(old, &old.units[*u]);
                            bodies.iter().any(|theirs| runs_all_of(theirs, &mine))
                        }
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        // Tests merged into fewer make each old test's checks: a check that two old
        // tests made (each on its own setup) is made twice by the tests they became
        // (by cases). A test whose body an arrival runs (taken for a duplicate) counts
        // too: else `a` and `b`, each checking `exit_code == 0`, merged into a test
        // that runs `a` alone would lose `b` unseen. Returns whether every check of
        // the old tests is made, and whether none is made fewer times.
        let merge_counts = |olds: &[(usize, Vec<Item>)], news: &[Vec<Item>]| -> (bool, bool) {
            let mut wanted: HashMap<&str, usize> = HashMap::new();
            for (u, items) in olds {
                let keys: HashSet<&str> = items.iter().map(|i| unrepeated(&i.key)).collect();
                for k in keys {
                    *wanted.entry(k).or_default() += old.units[*u].cases;
                }
            }
            // (A helper's check counts under each key a call makes it, see `binding`.)
            let mut made: HashMap<&str, usize> = HashMap::new();
            for i in news.iter().flatten() {
                *made.entry(unrepeated(&i.key)).or_default() += i.mult;
                // (Once per call: an exact check's `mult` counts all the calls.)
                let per_call = match i.strength {
                    Strength::Equality => i.mult / i.calls.max(1),
                    _ => i.mult,
                };
                for b in &i.bound {
                    *made.entry(unrepeated(b)).or_default() += per_call.max(1);
                }
            }
            let all = wanted.keys().all(|k| made.contains_key(k));
            let none_fewer = wanted
                .iter()
                .all(|(k, n)| made.get(k).is_none_or(|m| m >= n));
            (all, none_fewer)
        };
        // Tests no arrival takes the place of are removed, whatever else arrived.
        if !arrived.is_empty() {
            let mut lost_apart = 0;
            let mut alone =
                super::matching::replaced_by_none(old, new, file.rules.language, &gone, &arrived);
            let idle = super::matching::no_longer_tests(old, new, &gone);
            for &u in &idle {
                if !alone.contains(&u) {
                    alone.push(u);
                }
            }
            for &u in &alone {
                let unit = &old.units[u];
                let detail = if idle.contains(&u) {
                    format!(
                        "`{}` no longer runs: it stays as a function nothing calls",
                        unit.name
                    )
                } else {
                    format!("`{}` removed", unit.name)
                };
                out.push(finding(
                    file.path,
                    FindingKind::TestRemoved,
                    Some(file.map_line(unit.line)),
                    detail,
                    Some(&unit.name),
                ));
                lost_apart += distinct_checks(old, unit, file.rules);
            }
            gone.retain(|u| !alone.contains(u));
            if lost_apart > 0 {
                let unit = &old.units[alone[0]];
                out.push(finding(
                    file.path,
                    FindingKind::AssertionsRemoved,
                    Some(file.map_line(unit.line)),
                    format!(
                        "{lost_apart} {} went with the removed {}",
                        plural(lost_apart, "check", "checks"),
                        plural(alone.len(), "test", "tests")
                    ),
                    Some(&unit.name),
                ));
            }
            if gone.is_empty() {
                continue;
            }
        }
        let cases_gone: usize = gone.iter().map(|&u| old.units[u].cases).sum();
        // (An example of an RSpec shared group runs once per suite that includes it.)
        let cases_new: usize = arrived
            .iter()
            .map(|&u| new.units[u].cases * new.units[u].included)
            .sum();
        let first = &old.units[gone[0]];
        let line = file.map_line(first.line);
        if !arrived.is_empty() {
            // Tests merged or split (a parametrize or table refactor): compare what
            // they check, together. Fewer cases than before pass only as plain tests
            // (one case each, each with checks) merged into fewer that still make all
            // their checks: no row dropped, no test without checks gone.
            // (With the tests taken for duplicates of an arrival: their checks are
            // the arrival's too.)
            let olds: Vec<(usize, Vec<Item>)> = gone
                .iter()
                .chain(&absorbed)
                .map(|&u| (u, bag(old, &old.units[u], file.rules)))
                .collect();
            let news: Vec<Vec<Item>> = arrived
                .iter()
                .map(|&u| bag(new, &new.units[u], file.rules))
                .collect();
            let before: Vec<Item> = olds.iter().flat_map(|(_, b)| b.iter().cloned()).collect();
            let after: Vec<Item> = news.iter().flatten().cloned().collect();
            // (Folded into one test's named subtests when they make up its cases.)
            let folded = file.rules.language == Language::Go
                && arrived.iter().any(|&a| {
                    let unit = &new.units[a];
                    unit.cases > 1 && named_subtests(&new.src.raw[unit.span.clone()]) == unit.cases
                });
            let scope = if folded {
                Scope::Folded
            } else {
                Scope::Arrivals
            };
            let found = compare_bags(
                file,
                &before,
                &after,
                line,
                &first.name,
                old,
                new,
                &appeared,
                None,
                scope,
            );
            let plain = gone
                .iter()
                .all(|&u| old.units[u].cases == 1 && !old.units[u].checks.is_empty());
            let cases_taken: usize =
                cases_gone + absorbed.iter().map(|&u| old.units[u].cases).sum::<usize>();
            let merged = || {
                let (all, none_fewer) = merge_counts(&olds, &news);
                plain && all && none_fewer && found.is_empty()
            };
            if cases_new >= cases_taken || merged() {
                out.extend(found);
                // A test whose every check (by shape) a new test makes is that test's (renamed,
                // or copied and the original deleted): if every such test has a skip
                // the missing one did not have (renamed and skipped at once), the skip
                // is added, not a brand-new test's.
                let had: HashSet<&str> = gone
                    .iter()
                    .chain(&absorbed)
                    .flat_map(|&u| old.units[u].skips.iter())
                    .map(|&s| old.skips[s].text.as_str())
                    .collect();
                // (A skip statement the change did not touch, such as a file's
                // `const describeOrSkip = win ? describe.skip : describe`, is not added.)
                let untouched = |s: &Skip| {
                    old.skips
                        .iter()
                        .any(|o| o.text == s.text && file.map_line(o.line) == s.line)
                };
                let new_skip = |a: usize| {
                    new.units[a]
                        .skips
                        .iter()
                        .map(|&s| &new.skips[s])
                        .find(|s| !had.contains(s.text.as_str()) && !untouched(s))
                };
                // (By shape: the values it compares may have been edited on the way.)
                fn keys(bag: &[Item]) -> HashSet<String> {
                    bag.iter().map(|i| shape(unrepeated(&i.key))).collect()
                }
                // (Nothing to read when no arrival has a skip, as in most renames.)
                let skippable = arrived.iter().any(|&a| !new.units[a].skips.is_empty());
                let theirs: Vec<HashSet<String>> = match skippable {
                    true => news.iter().map(|bag| keys(bag)).collect(),
                    false => Vec::new(),
                };
                let skipped_in_place = olds.iter().filter(|_| skippable).find_map(|(_, bag)| {
                    let mine = keys(bag);
                    let mut carriers: Vec<usize> = arrived
                        .iter()
                        .zip(&theirs)
                        .filter(|(_, theirs)| !mine.is_empty() && mine.is_subset(theirs))
                        .map(|(&a, _)| a)
                        .collect();
                    // (Its checks rewritten on the way, `assert f() == 1` → `r = f()`
                    // then `assert r == 1`: every new test that checks anything.)
                    if carriers.is_empty() {
                        carriers = arrived
                            .iter()
                            .zip(&news)
                            .filter(|(_, theirs)| !theirs.is_empty())
                            .map(|(&a, _)| a)
                            .collect();
                    }
                    let skips: Vec<_> = carriers.iter().map(|&a| (a, new_skip(a))).collect();
                    match skips.first() {
                        Some(&(a, Some(s))) if skips.iter().all(|(_, s)| s.is_some()) => {
                            Some((a, s))
                        }
                        _ => None,
                    }
                });
                if let Some((a, s)) = skipped_in_place {
                    out.push(finding(
                        file.path,
                        FindingKind::SkipAdded,
                        Some(s.line),
                        format!(
                            "`{}` added to `{}`, which takes the place of `{}`",
                            new.src.shown(s.line),
                            new.units[a].name,
                            first.name
                        ),
                        Some(&new.units[a].name),
                    ));
                }
                continue;
            }
        }
        if arrived.is_empty() {
            for &u in &gone {
                let unit = &old.units[u];
                // Still there, but no longer a test its runner collects (a JUnit 5
                // inner class not `@Nested`, a non-`void` `@Test`, an xUnit class not
                // `public`, an MSTest class without `[TestClass]`).
                let kept = new
                    .units
                    .iter()
                    .any(|n| n.leaf == unit.leaf && n.role == Role::Helper);
                out.push(finding(
                    file.path,
                    FindingKind::TestRemoved,
                    Some(file.map_line(unit.line)),
                    if kept {
                        format!("`{}` is no longer collected as a test", unit.name)
                    } else {
                        format!("`{}` removed", unit.name)
                    },
                    Some(&unit.name),
                ));
            }
        } else {
            out.push(finding(
                file.path,
                FindingKind::TestRemoved,
                Some(line),
                format!(
                    "{cases_gone} {} removed ({}), {cases_new} added in their place",
                    plural(cases_gone, "test case", "test cases"),
                    gone.iter()
                        .map(|&u| format!("`{}`", old.units[u].name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(&first.name),
            ));
        }
        let lost: usize = gone
            .iter()
            .map(|&u| distinct_checks(old, &old.units[u], file.rules))
            .sum();
        if lost > 0 {
            out.push(finding(
                file.path,
                FindingKind::AssertionsRemoved,
                Some(line),
                format!(
                    "{lost} {} went with the removed {}",
                    plural(lost, "check", "checks"),
                    plural(gone.len(), "test", "tests")
                ),
                Some(&first.name),
            ));
        }
    }

    // Module-level checks (outside any test) of files present on both sides.
    for file in &read {
        if let (Some(old), Some(new)) = (&file.old, &file.new)
            && old.src.code != new.src.code
        {
            let before = loose_bag(old, file.rules);
            let after = loose_bag(new, file.rules);
            if !before.is_empty() {
                let line = before
                    .iter()
                    .map(|c| file.map_line(c.line))
                    .next()
                    .unwrap_or(0);
                out.extend(compare_bags(
                    file,
                    &before,
                    &after,
                    line,
                    "",
                    old,
                    new,
                    &appeared,
                    None,
                    Scope::Test,
                ));
            }
        }
    }

    dedup(&mut out);
    for f in filtered {
        let told = out.iter().any(|o| {
            o.path == f.path
                && matches!(o.kind, FindingKind::TestRemoved | FindingKind::SkipAdded)
                && ((o.test.is_some() && o.test == f.test)
                    || o.line.zip(f.line).is_some_and(|(a, b)| a.abs_diff(b) <= 2))
        });
        if !told {
            out.push(f);
        }
    }
    // (An exclusion written into the check itself is read there as the check loosened.)
    for f in excluded {
        let told = out.iter().any(|o| {
            o.path == f.path
                && o.kind == FindingKind::AssertionLoosened
                && o.line.zip(f.line).is_some_and(|(a, b)| a.abs_diff(b) <= 2)
        });
        if !told {
            out.push(f);
        }
    }
    out.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    out
}

/// A test still in the file, as a possible table for a removed test's checks: its
/// checks before and after, and its new text.
struct Table<'a> {
    was: Vec<Item>,
    now: Vec<Item>,
    text: std::borrow::Cow<'a, str>,
}

impl Table<'_> {
    /// Whether it makes the checks `mine` of a removed test: templated
    /// (`checks::templates`), that many more times than before, with their values in
    /// its text.
    fn took(&self, mine: &[Item]) -> bool {
        let count = |items: &[Item], key: &str| -> usize {
            items
                .iter()
                .filter(|i| unrepeated(&i.key) == key)
                .map(|i| i.mult)
                .sum()
        };
        mine.iter().all(|i| {
            let key = unrepeated(&i.key);
            self.now.iter().any(|m| {
                let general = unrepeated(&m.key);
                super::checks::templates(general, key)
                    && count(&self.now, general) >= count(&self.was, general) + i.mult
                    && super::checks::literal_values(key)
                        .iter()
                        .all(|v| written_in(&self.text, v))
            })
        })
    }
}

/// Whether a value of a check is written in a table's text: as it is, or a string's
/// contents inside a row that is one string (`@CsvSource({"gb29…, GB29 …"})`).
fn written_in(text: &str, value: &str) -> bool {
    text.contains(value)
        || [('"', '"'), ('\'', '\'')].iter().any(|&(a, b)| {
            value
                .strip_prefix(a)
                .and_then(|v| v.strip_suffix(b))
                .is_some_and(|inner| !inner.is_empty() && text.contains(inner))
        })
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 { one } else { many }
}

/// One finding per kind and line; tests removed at the same line are named together
/// (`a` removed, `b` removed), so none goes unnamed.
fn dedup(out: &mut Vec<Finding>) {
    let mut first_at = std::collections::HashMap::new();
    let mut keep = vec![true; out.len()];
    for i in 0..out.len() {
        let key = (out[i].kind, out[i].path.clone(), out[i].line);
        match first_at.get(&key) {
            None => {
                first_at.insert(key, i);
            }
            Some(&kept) => {
                keep[i] = false;
                if out[i].kind == FindingKind::TestRemoved
                    && !out[kept].detail.contains(&out[i].detail)
                {
                    let more = std::mem::take(&mut out[i].detail);
                    out[kept].detail = format!("{}, {more}", out[kept].detail);
                }
            }
        }
    }
    let mut keep = keep.into_iter();
    out.retain(|_| keep.next().unwrap_or(true));
}

/// A test's lines ([`body_lines`]) and the texts of its skips.
fn lines_and_skips(model: &Model, unit: &super::model::Unit) -> (Vec<String>, Vec<String>) {
    let skips = unit
        .skips
        .iter()
        .map(|&s| model.skips[s].text.clone())
        .collect();
    (body_lines(model, unit), skips)
}

/// Whether one test runs every statement of another, in order, and skips nowhere the
/// other did not (a copy with an `assumeTrue(…)` added is that test skipped).
fn runs_all_of(theirs: &(Vec<String>, Vec<String>), mine: &(Vec<String>, Vec<String>)) -> bool {
    in_order(&mine.0, &theirs.0) && theirs.1.iter().all(|s| mine.1.contains(s))
}
