//! Which old test became which new test: by name within a file, then (for tests
//! missing from one file) by name or by checks in another file of the change.

use std::collections::{HashMap, HashSet};

use super::bags::own_keys;
use super::model::{Model, Unit};
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
    (pairs, still_old, left_new)
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
    let mut still = Vec::new();
    for &r in removed.iter() {
        let Some(ru) = read[r.0].old.as_ref().map(|m| &m.units[r.1]) else {
            continue;
        };
        let candidate = added
            .iter()
            .filter(|a| a.0 != r.0 && !taken.contains(a))
            .find(|a| new_unit(read, **a).name == ru.name)
            .or_else(|| {
                added
                    .iter()
                    .filter(|a| a.0 != r.0 && !taken.contains(a))
                    .find(|a| new_unit(read, **a).leaf == ru.leaf)
            })
            .copied();
        match candidate {
            Some(a) => {
                taken.insert(a);
                pairs.push((r, a));
            }
            None => still.push(r),
        }
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
fn new_unit<'m>(read: &'m [File], at: At) -> &'m Unit {
    &read[at.0].new.as_ref().map(|m| &m.units[..]).unwrap_or(&[])[at.1]
}
