//! The checks a test is compared by: each as an `Item` (canonical text, strength,
//! line, cases covered), gathered from the test and the helpers it calls; and
//! `Appeared`, the checks the whole change brings in, so that a check moved from one
//! test to another is not counted lost.

use std::collections::{HashMap, HashSet};

use super::binding::{self, Bindings};
use super::checks::{self, Strength, unrepeated};
use super::model::{Model, Role, Unit, within};
use super::rules::{Language, Rules};
use super::{At, File, setup};

/// The most runs a counted loop's check counts for.
const COUNTED_MAX: usize = 64;

/// A check as compared: canonical text, strength, where, and how many cases it covers.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub(super) key: String,
    pub(super) strength: Strength,
    pub(super) line: usize,
    pub(super) mult: usize,
    /// Whether it is the test's own line (else in a helper: its line is the helper's).
    pub(super) own: bool,
    /// What it is about (`checks::subjects`), also with a local alias resolved.
    pub(super) parts: Vec<String>,
    /// For an exact check: the values it fixes as a whole (`checks::wholes`).
    pub(super) wholes: Vec<String>,
    /// In a branch of an if/else chain: (the chain, the branch), see
    /// `Model::alternative`. Checks of one chain count as the most of any branch.
    pub(super) alt: Option<(usize, usize)>,
    /// How many different calls of the helpers it sits in run it (1 for the test's
    /// own checks): fewer calls are fewer checks.
    pub(super) calls: usize,
    /// Whether it sits in a loop (runs once per row).
    pub(super) looped: bool,
    /// Whether it only checks the test's own setup (`setup`): not lost when it goes.
    pub(super) setup: bool,
    /// Its canonical text with the whole receiver (`response.Error.Should()…` where
    /// the key has `Error.Should()…`), when that differs from the key.
    pub(super) full: Option<String>,
    /// In a helper the test calls: its canonical text with the helper's names read as
    /// each call gave them (see `binding`), when that differs from the key. A check
    /// written inline before is not lost when a call makes it so.
    pub(super) bound: Vec<String>,
}

impl Item {
    /// An item read from its key alone (no receiver, no aliases).
    pub(super) fn plain(
        key: String,
        strength: Strength,
        line: usize,
        mult: usize,
        own: bool,
    ) -> Item {
        let no_aliases = HashMap::new();
        let (parts, wholes) = about(&key, strength, &no_aliases);
        Item {
            key,
            strength,
            line,
            mult,
            own,
            parts,
            wholes,
            alt: None,
            calls: 1,
            looped: false,
            setup: false,
            full: None,
            bound: Vec::new(),
        }
    }
}

/// What a check (by its text with the whole receiver) is about and, if exact, the
/// wholes it fixes; local names resolved through `aliases`.
fn about(
    full: &str,
    strength: Strength,
    aliases: &HashMap<String, String>,
) -> (Vec<String>, Vec<String>) {
    let mut parts: Vec<String> = Vec::new();
    for s in checks::subjects(full) {
        parts.push(s.to_string());
        parts.extend(checks::resolve(s, aliases));
    }
    let wholes = if strength == Strength::Equality {
        checks::wholes(full, aliases)
    } else {
        Vec::new()
    };
    (parts, wholes)
}

/// Names that read as a check when called (`assert_valid(…)`, `expectSuccess(…)`).
pub(super) fn check_like(name: &str) -> bool {
    if name == "ensure" {
        return false; // Ruby's `begin … ensure … end`
    }
    let lower = name.to_ascii_lowercase();
    // (A value named after a check is none: `expected_options`, `expectedOutput`,
    // `checked_items`, `validated`, `expectations`; `expectEditorText` is a check, its
    // next word capitalised.)
    let verb_at = |at: usize, w: &str| {
        let rest = &name[at + w.len()..];
        let value = ["ed", "d", "ation", "ion"].iter().any(|suffix| {
            (*suffix != "d" || w.ends_with('e'))
                && rest.strip_prefix(suffix).is_some_and(|after| {
                    after.is_empty()
                        || after.starts_with(['_', 's'])
                        || after.starts_with(|c: char| c.is_ascii_uppercase())
                })
        });
        !value
    };
    [
        "assert", "check", "verify", "expect", "ensure", "validate", "must", "should",
    ]
    .iter()
    .any(|w| {
        (lower.starts_with(w) && verb_at(0, w))
            || lower
                .match_indices(&format!("_{w}"))
                .any(|(at, _)| verb_at(at + 1, w))
    }) || lower.starts_with("_assert")
        || lower.starts_with("_check")
}

/// How many checks one check makes: an expected error with its message matched
/// (`pytest.raises(E, match="…")`, `assertRaisesRegex(E, "…")`) is the type check and
/// the message check written as one (the `assert "…" in str(info.value)` it replaces).
fn checks_made(key: &str) -> usize {
    // The pattern: a string literal that can fail (`""`, `".*"` match any message), or
    // a name (`match=message`, a parametrised row's message: each row's literal).
    let can_fail = |pattern: &str| {
        let name = pattern.split([')', ',']).next().unwrap_or("").trim();
        if !name.is_empty()
            && name != "None"
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            return true;
        }
        let p = pattern.trim_start_matches(['r', 'b', 'R', 'B']);
        p.starts_with(['"', '\''])
            && p.chars()
                .skip(1)
                .take_while(|c| !matches!(c, '"' | '\''))
                .any(|c| c.is_alphanumeric())
    };
    let message = if key.starts_with("pytest.raises(") || key.starts_with("pytest.warns(") {
        key.split_once(",match=").is_some_and(|(_, p)| can_fail(p))
    } else if key.starts_with("assertThatThrownBy(")
        || key.starts_with("assertThatExceptionOfType(")
    {
        // AssertJ: `assertThatThrownBy(f).isInstanceOf(E.class).hasMessage("…")`, the
        // type and the message (without a type, the message is all it checks).
        (key.starts_with("assertThatExceptionOfType(")
            || key.contains(".isInstanceOf(")
            || key.contains(".isExactlyInstanceOf("))
            && [".hasMessage", ".withMessage"].iter().any(|m| {
                key.match_indices(m).any(|(at, _)| {
                    key[at + m.len()..]
                        .split_once('(')
                        .is_some_and(|(name, args)| {
                            name.chars().all(char::is_alphanumeric) && can_fail(args)
                        })
                })
            })
    } else if key.starts_with("shouldThrow") && key.contains('{') {
        // kotest: `shouldThrow<E> { f() }.missing shouldBe 3`, the type and a check of
        // the thrown value.
        let close = super::source::matching_close(key.as_bytes(), key.find('{').unwrap_or(0));
        close.is_some_and(|c| {
            let rest = &key[c + 1..];
            rest.starts_with('.') && rest.contains("should")
        })
    } else if let Some(chain) = checks::mockall_expectation(key) {
        // mockall: `.with(eq(a)).times(1)`, the arguments and the count of calls.
        (chain.contains(".with(") || chain.contains(".withf("))
            && (chain.contains(".times(") || chain.contains(".never()"))
    } else if key.contains(".assertRaisesRegex(") || key.contains(".assertWarnsRegex(") {
        key.split_once("Regex(")
            .and_then(|(_, args)| args.split_once(','))
            .is_some_and(|(_, p)| can_fail(p.trim_start()))
    } else {
        false
    };
    1 + usize::from(message)
}

/// The checks of a unit, following the helpers it calls (in its own file, three
/// levels deep); a call to a check-like helper that cannot be read counts as one check.
pub(super) fn bag(model: &Model, unit: &Unit, rules: &Rules) -> Vec<Item> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    // A Go test's cases are its subtests, the rows of the table its loop runs: the
    // checks in that loop count once per row already, and those outside it run once.
    let cases = if model.language == Language::Go {
        1
    } else {
        unit.cases * unit.included
    };
    collect(
        model,
        unit,
        rules,
        0,
        cases,
        1,
        true,
        false,
        &[],
        &mut seen,
        &mut out,
    );
    out
}

/// [`bag`]'s walk: the checks of `unit`, each covering `cases`, then those of the
/// helpers it calls (`own`: `unit` is the test itself, not a helper; `floating`: an
/// async helper called and not awaited, whose checks nobody waits for; `bindings`:
/// what the names of a helper the test calls stand for in each of its calls).
#[allow(clippy::too_many_arguments)]
fn collect(
    model: &Model,
    unit: &Unit,
    rules: &Rules,
    depth: usize,
    cases: usize,
    calls: usize,
    own: bool,
    floating: bool,
    bindings: &[Bindings],
    seen: &mut HashSet<String>,
    out: &mut Vec<Item>,
) {
    let rows = std::cell::OnceCell::new();
    let aliases = std::cell::OnceCell::new();
    let mut repeats = Repeats::default();
    for &c in model.checks_of(unit).iter() {
        // (A function local to the unit counts through its calls, below.)
        if model.in_local_helper(unit, model.checks[c].span.start) {
            continue;
        }
        // A helper named like a check (`assertEqualsHashCodeAndToString(a, b)`) runs its
        // checks once per different call, as any helper (followed once; its other calls
        // are those calls, not checks of their own).
        if depth < 3
            && let Some(helper) = model
                .check_helper_call(c)
                .filter(|&name| name != unit.leaf)
                .and_then(|name| model.helper_for(unit, name))
        {
            if seen.insert(helper.leaf.clone()) {
                let lines = model.src.line_of(helper.span.start)
                    ..=model.src.line_of(helper.span.end.saturating_sub(1));
                let made = if depth == 0 {
                    model
                        .call_sites(unit, &helper.leaf)
                        .into_iter()
                        .filter(|(_, line)| !lines.contains(line))
                        .map(|(text, _)| text)
                        .collect::<HashSet<_>>()
                        .len()
                        .max(1)
                } else {
                    1
                };
                // (Its names read as each call of the test gave them.)
                let bound: Vec<Bindings> = match depth {
                    0 => model
                        .checks_of(unit)
                        .iter()
                        .filter(|&&o| model.check_helper_call(o) == Some(helper.leaf.as_str()))
                        .map(|&o| checks::squeeze(&model.src.text(model.checks[o].span.clone())))
                        .collect::<HashSet<_>>()
                        .iter()
                        .filter_map(|call| binding::bind(model, helper, call))
                        .collect(),
                    _ => Vec::new(),
                };
                collect(
                    model,
                    helper,
                    rules,
                    depth + 1,
                    cases,
                    calls * made,
                    false,
                    floating || model.async_helper_unawaited(unit, &helper.leaf, helper),
                    &bound,
                    seen,
                    out,
                );
            }
            continue;
        }
        let (key, strength) = model.check_key(c, rules);
        // A helper that swallows its checks' failures (`rescue Minitest::Assertion => e`
        // logging it, `except AssertionError: pass`) checks nothing for the test that
        // calls it. (Read in helpers only: a test's own handler is a skip of it.)
        let swallowed = depth > 0 && model.swallowed(unit, c);
        let (key, strength) = if swallowed {
            (format!("{key} (its failure swallowed)"), Strength::Void)
        } else if floating {
            (
                format!("{} {key}", super::model::NOT_AWAITED),
                Strength::Void,
            )
        } else {
            (key, strength)
        };
        // (Several values checked as one tuple or record: a check of each.)
        let parts = match checks::components(&key, rules) {
            Some(keys) if strength == Strength::Equality => keys
                .into_iter()
                .map(|k| {
                    let s = checks::strength(&k, rules);
                    (k, s)
                })
                .collect(),
            _ => vec![(key, strength)],
        };
        // (A check in a loop counts once per row; after the same check on a value
        // assigned again before the loop, it is another check too.)
        let header = model.loop_header_at(unit, model.checks[c].span.start);
        let in_loop = header.is_some();
        // (A check reading the variable of a loop counted between literal bounds runs
        // once per count: `for (let i = 1; i <= 31; i += 1) expect(ordinal(i))…` for
        // `expect(ordinal(1))…` and `expect(ordinal(3))…`. Up to `COUNTED_MAX`: a long
        // loop of one check is no stand-in for many different checks.)
        let counted = header.and_then(|h| {
            let (var, n) = super::tables::counted(&model.src.code[h])?;
            checks::mentions(&model.src.code[model.checks[c].span.clone()], var)
                .then_some(n.min(COUNTED_MAX))
        });
        for (key, strength) in parts {
            // An error check of the test's own setup checks the machine, not the code.
            let setup = model.language == Language::Go
                && setup::go_setup_error(
                    &key,
                    &model.src.code[unit.span.start..model.checks[c].span.start],
                );
            let key = repeats.key(key, model, c, in_loop);
            let mult = if in_loop {
                (*rows.get_or_init(|| model.rows(unit))).max(counted.unwrap_or(0))
            } else {
                1
            } * checks_made(&key);
            let aliases = aliases.get_or_init(|| model.aliases_in(unit));
            let full = model.full_key(c, &key, rules);
            let (parts, wholes) = about(&full, strength, aliases);
            let full = (full != key && !swallowed).then_some(full);
            // An exact check in a helper runs once per different call (`same(t, a.Ratio(),
            // 0.75)`, `same(t, a.Quick(), 0.75)`); a weaker one called many ways is not many
            // checks of what the test lost.
            let per_call = if strength == Strength::Equality {
                calls
            } else {
                1
            };
            let bound = bindings
                .iter()
                .map(|b| binding::apply(b, &key, rules))
                .filter(|b| *b != key)
                .collect();
            out.push(Item {
                key,
                bound,
                strength,
                line: model.checks[c].line,
                mult: mult * cases * per_call,
                own,
                parts,
                wholes,
                alt: model.alternative(unit, c),
                calls,
                looped: in_loop,
                setup,
                full,
            });
        }
    }
    if depth >= 3 {
        return;
    }
    // A function local to the test called only from other local functions runs once
    // per call of those (`void ParameterIs(n, v) => Parameter(n, …)`): taken first, so
    // that it is not reached through one of them alone.
    let mut names = model.calls(unit);
    if depth == 0 {
        names.sort_by_key(|&name| {
            !model
                .helper_for(unit, name)
                .is_some_and(|h| within(&h.span, &unit.span))
                || model.calls_directly(unit, name)
        });
    }
    for name in names {
        // (An overload of the test's own name is another function: `testTouch()`
        // calling a helper `testTouch(IOConsumer<Path>)` that holds its checks.)
        // Only from a call in its body: the test's own declaration is no call.
        let helper = model.helper_for(unit, name).filter(|_| {
            name != unit.leaf
                || model
                    .call_sites(unit, name)
                    .iter()
                    .any(|(_, line)| *line > unit.line)
        });
        if (name == unit.leaf && helper.is_none()) || !seen.insert(name.to_string()) {
            continue;
        }
        match helper {
            Some(h) => {
                let rows =
                    if first_call(model, unit, name).is_some_and(|at| model.in_loop_at(unit, at)) {
                        model.rows(unit)
                    } else {
                        1
                    };
                // Called with three inputs, a helper's checks run three times: a call
                // deleted is a check deleted (an identical call repeated is not another).
                // So in a helper: steps moved from the test into a helper keep their
                // calls of the helpers below.
                // (Not a local function's own declaration, nor its calls of itself.)
                let lines = model.src.line_of(h.span.start)
                    ..=model.src.line_of(h.span.end.saturating_sub(1));
                let through = if depth == 0 && within(&h.span, &unit.span) {
                    model.calls_through_local(unit, name)
                } else {
                    0
                };
                let sites: HashSet<String> = model
                    .call_sites(unit, name)
                    .into_iter()
                    .filter(|(_, line)| !lines.contains(line))
                    .map(|(text, _)| text)
                    .collect();
                let made = if through > 0 && !model.calls_directly(unit, name) {
                    through
                } else {
                    sites.len().max(1)
                };
                // (Its names read as each call of the test gave them.)
                let bound: Vec<Bindings> = match (depth, through) {
                    (0, 0) => sites
                        .iter()
                        .filter_map(|call| binding::bind(model, h, call))
                        .collect(),
                    _ => Vec::new(),
                };
                let (cases, calls) = (cases * rows, calls * made);
                let floating = floating || model.async_helper_unawaited(unit, name, h);
                collect(
                    model,
                    h,
                    rules,
                    depth + 1,
                    cases,
                    calls,
                    false,
                    floating,
                    &bound,
                    seen,
                    out,
                );
            }
            // A check-like helper from elsewhere: each call counts as a check (also
            // from a helper the test calls).
            None if check_like(name) => {
                // (Not the call that defines the unit: kotest's `should("…") { … }`.)
                let defines = |text: &str, line: usize| {
                    line == unit.line
                        && text
                            .get(name.len() + 1..)
                            .is_some_and(|args| args.starts_with(unit.leaf.as_str()))
                };
                for (text, line) in model.call_sites(unit, name) {
                    if defines(&text, line) {
                        continue;
                    }
                    out.push(Item::plain(
                        format!("call:{text}"),
                        Strength::Other,
                        line,
                        cases,
                        own,
                    ));
                }
            }
            None => {}
        }
    }
}

/// Repeats of one check text within a unit. The same check after a name it reads was
/// assigned again (`_, ok = m["a"]; False(t, ok)` then `_, ok = m["b"]; False(t, ok)`)
/// checks a new value: it is another check (`K #1`). Repeated with nothing assigned
/// between, it is an exact duplicate and keeps its key; so is the same check in
/// another loop (loops over values are rows of one table: counted by rows).
#[derive(Default)]
struct Repeats {
    /// Per key: where its last occurrence ended, its generation, and whether it sat
    /// in a loop.
    seen: HashMap<String, (usize, usize, bool)>,
}

impl Repeats {
    fn key(&mut self, key: String, model: &Model, check: usize, looped: bool) -> String {
        let span = model.checks[check].span.clone();
        let Some((end, generation, was_looped)) = self.seen.get_mut(&key) else {
            self.seen.insert(key.clone(), (span.end, 0, looped));
            return key;
        };
        // (So does a Go condition with its own statement, `if b := it.Next(); b != 1`:
        // it reads a new value each time.)
        if !(looped && *was_looped)
            && let Some(between) = model.src.code.get(*end..span.start)
            && (checks::reassigns(between, &key)
                || (model.language == Language::Go && reads_anew(between, &key))
                || checks::calls_on(&without_checks(model, *end..span.start), &key))
        {
            *generation += 1;
        }
        *end = span.end;
        *was_looped = looped;
        match *generation {
            0 => key,
            n => format!("{key} #{n}"),
        }
    }
}

/// The code of `range` with the checks in it blanked out (newlines kept).
fn without_checks(model: &Model, range: std::ops::Range<usize>) -> String {
    let mut code = model.src.code.as_bytes()[range.clone()].to_vec();
    // (Checks are in order of position: only those from the range's start are read.)
    let first = model.checks.partition_point(|c| c.span.start < range.start);
    for check in model.checks[first..]
        .iter()
        .take_while(|c| c.span.start < range.end)
    {
        let span = &check.span;
        if span.end <= range.end {
            for b in &mut code[span.start - range.start..span.end - range.start] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
    }
    String::from_utf8_lossy(&code).into_owned()
}

/// Whether `between` gives a Go condition its own statement whose value `key` reads
/// (`b := it.Next();` before the check `it.Next()!=1`, see `checks::inline_value`).
fn reads_anew(between: &str, key: &str) -> bool {
    between.match_indices(":=").any(|(at, _)| {
        let rhs = between[at + 2..].split([';', '\n']).next().unwrap_or("");
        let rhs = checks::squeeze(rhs);
        !rhs.is_empty() && key.contains(&rhs)
    })
}

/// Where `unit` first calls `name`.
fn first_call(model: &Model, unit: &Unit, name: &str) -> Option<usize> {
    let code = &model.src.code[unit.span.clone()];
    code.find(&format!("{name}("))
        .map(|at| unit.span.start + at)
}

/// The checks of several units together (tests merged or split).
pub(super) fn bag_of(model: &Model, units: &[usize], rules: &Rules) -> Vec<Item> {
    units
        .iter()
        .flat_map(|&u| bag(model, &model.units[u], rules))
        .collect()
}

/// The checks outside any unit (at module level).
pub(super) fn loose_bag(model: &Model, rules: &Rules) -> Vec<Item> {
    model
        .loose_checks
        .iter()
        .map(|&c| {
            let (key, strength) = model.check_key(c, rules);
            Item::plain(key, strength, model.checks[c].line, 1, true)
        })
        .collect()
}

/// The canonical texts of a unit's own checks (not its helpers').
pub(super) fn own_keys(model: Option<&Model>, unit: &Unit, rules: &Rules) -> HashSet<String> {
    let Some(model) = model else {
        return HashSet::new();
    };
    unit.checks
        .iter()
        .map(|&c| model.check_key(c, rules).0)
        .collect()
}

/// How many times a unit makes each of its own checks.
fn key_counts(model: &Model, unit: &Unit, rules: &Rules) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for &c in &unit.checks {
        *counts.entry(model.check_key(c, rules).0).or_default() += 1;
    }
    counts
}

/// Takes one of `key` from what a test had: false when it had no more of it (the
/// check is new there: a test that kept its check brings none in, so another test's
/// copy of it that went is lost, not moved).
fn take(had: &mut HashMap<String, usize>, key: &str) -> bool {
    match had.get_mut(key) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// How many different checks a unit makes itself.
pub(super) fn distinct_checks(model: &Model, unit: &Unit, rules: &Rules) -> usize {
    own_keys(Some(model), unit, rules).len()
}

/// The checks a change brings in (in new tests, or new in changed ones): a check lost
/// from one test and brought in elsewhere was moved. A check brought in new also
/// stands for a lost check of the same shape (the same check of other literal values:
/// a check moved and its expectation rewritten, as it could be in place).
#[derive(Default)]
pub(super) struct Appeared {
    keys: HashSet<String>,
    /// The fresh ones without their repeat marks (a check moved to another test may
    /// be its first occurrence there).
    fresh: HashSet<String>,
    /// Checks an edited test had and still has: another test's copy that went is
    /// taken for folded into them only when that test gained a check of its own (two
    /// checks rewritten as one), not when it merely lost one.
    kept: HashSet<String>,
    /// Fresh checks by shape and strength, counted (ordered: found by prefix too).
    shapes: std::collections::BTreeMap<String, HashMap<Strength, usize>>,
}

impl Appeared {
    /// Whether a check fresh in the change starts with `prefix` (a matcher split
    /// across tests: `….with(id).on_queue(q)` → `….on_queue(q)` and `….with(id)`).
    pub(super) fn fresh_with_prefix(&self, prefix: &str) -> bool {
        self.fresh.iter().any(|k| k.starts_with(prefix))
    }

    fn add(&mut self, key: String, strength: Strength, fresh: bool) {
        if fresh {
            let once = unrepeated(&key).to_string();
            *self
                .shapes
                .entry(checks::shape(&once))
                .or_default()
                .entry(strength)
                .or_default() += 1;
            self.fresh.insert(once);
        }
        self.keys.insert(key);
    }

    /// The checks the change brings in: every check of a new test (`added`), the
    /// checks of a changed test (of `pairs`) it did not have, and checks new outside
    /// any test.
    pub(super) fn in_change(
        read: &[File],
        added: &[At],
        pairs: &[(At, At)],
        merged: &[(Vec<At>, At)],
    ) -> Appeared {
        let mut appeared = Appeared::default();
        // (Checks moved into a test that is always skipped run nowhere: they have not
        // appeared.)
        for &(f, u) in added {
            if let Some(model) = &read[f].new
                && !model.never_runs(&model.units[u])
            {
                for item in bag(model, &model.units[u], read[f].rules) {
                    appeared.add(item.key, item.strength, true);
                }
            }
        }
        for &(o, n) in pairs {
            let (Some(old), Some(new)) = (read[o.0].old.as_ref(), read[n.0].new.as_ref()) else {
                continue;
            };
            let (ou, nu) = (&old.units[o.1], &new.units[n.1]);
            let (or, nr) = (read[o.0].rules, read[n.0].rules);
            if new.never_runs(nu) {
                continue;
            }
            if old.src.code[ou.span.clone()] != new.src.code[nu.span.clone()]
                || old.comment_keys(ou.span.clone(), or) != new.comment_keys(nu.span.clone(), nr)
            {
                let mut had = key_counts(old, ou, read[o.0].rules);
                for &c in &nu.checks {
                    let (key, strength) = new.check_key(c, read[n.0].rules);
                    if take(&mut had, &key) {
                        appeared.kept.insert(key);
                    } else {
                        appeared.add(key, strength, true);
                    }
                }
            }
        }
        // A test several moved into: the checks none of them had.
        for (olds, n) in merged {
            let Some(new) = read[n.0].new.as_ref() else {
                continue;
            };
            if new.never_runs(&new.units[n.1]) {
                continue;
            }
            let mut had: HashMap<String, usize> = HashMap::new();
            for o in olds {
                if let Some(m) = read[o.0].old.as_ref() {
                    for (key, n) in key_counts(m, &m.units[o.1], read[o.0].rules) {
                        *had.entry(key).or_default() += n;
                    }
                }
            }
            for &c in &new.units[n.1].checks {
                let (key, strength) = new.check_key(c, read[n.0].rules);
                if take(&mut had, &key) {
                    appeared.kept.insert(key);
                } else {
                    appeared.add(key, strength, true);
                }
            }
        }
        // Checks new outside any test (module level, a helper, a class field holding a
        // failing stub) were moved there.
        for file in read {
            if let Some(new) = &file.new {
                let outside = |m: &Model| -> Vec<(String, Strength)> {
                    let in_helpers = m
                        .units
                        .iter()
                        .filter(|u| u.role == Role::Helper)
                        .flat_map(|u| u.checks.iter().copied().filter(|&c| !m.swallowed(u, c)));
                    m.loose_checks
                        .iter()
                        .copied()
                        .chain(in_helpers)
                        .map(|c| m.check_key(c, file.rules))
                        .collect()
                };
                let had: HashSet<String> = file
                    .old
                    .as_ref()
                    .map(|old| outside(old).into_iter().map(|(k, _)| k).collect())
                    .unwrap_or_default();
                for (key, strength) in outside(new) {
                    if !had.contains(&key) {
                        appeared.add(key, strength, true);
                    }
                }
            }
        }
        appeared
    }

    /// Whether the change brings in this very check (not one of its shape only).
    pub(super) fn has_exactly(&self, item: &Item) -> bool {
        self.keys.contains(&item.key) || self.fresh.contains(unrepeated(&item.key))
    }

    /// Whether a lost check is found in the change: the same check, or a fresh one of
    /// the same shape and strength outside the test that lost it (`own` are that
    /// test's fresh checks; `places=7` → `places=0` is a loosening, not a move).
    pub(super) fn holds(&self, item: &Item, own: &[&Item]) -> bool {
        let key = unrepeated(&item.key);
        if self.has_exactly(item) || (!own.is_empty() && self.kept.contains(&item.key)) {
            return true;
        }
        // The same shape, or the same call with more arguments (`raises(E)` →
        // `raises(E, match=…)`): at least as strict.
        let shape = checks::shape(key);
        let open = shape.strip_suffix(')').map(|s| format!("{s},"));
        let like =
            |other: &str| other == shape || open.as_deref().is_some_and(|o| other.starts_with(o));
        let here = own
            .iter()
            .filter(|g| g.strength == item.strength && like(&checks::shape(unrepeated(&g.key))))
            .count();
        let count = |(_, by): (&String, &HashMap<Strength, usize>)| {
            by.get(&item.strength).copied().unwrap_or(0)
        };
        let mut there: usize = self.shapes.get_key_value(&shape).map_or(0, count);
        if let Some(open) = &open {
            there += self
                .shapes
                .range(open.clone()..)
                .take_while(|(s, _)| s.starts_with(open.as_str()))
                .map(count)
                .sum::<usize>();
        }
        there > here
    }
}

#[cfg(test)]
mod tests {
    use super::check_like;

    #[test]
    fn a_helper_is_check_like_by_its_verb_not_a_value_named_after_one() {
        for name in [
            "assert_valid",
            "expect_offense",
            "check_roundtrip",
            "verifyOutput",
            "must_parse",
            "_assert_same",
            "it_should_parse",
            "expectEditorText",
            "assertEdgeText",
        ] {
            assert!(check_like(name), "{name}");
        }
        for name in [
            "expected_options",
            "expectedOutput",
            "checked_items",
            "the_expected_value",
            "expectations",
            "validated_x",
            "ensured",
            "ensure",
            "parse",
        ] {
            assert!(!check_like(name), "{name}");
        }
    }
}
