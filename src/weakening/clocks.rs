//! Fake clocks moved: a test whose only edit is how far its fake clock goes before the
//! same checks (`clock.Advance(2 * time.Second)` → `10 * time.Minute` before "has
//! expired", `advanceTimersByTime(999)` → `0` before "not saved yet"). The checks read
//! the same; the moment they look at is no longer the boundary they were written for,
//! so an expiry that comes late, or a save that comes early, passes. Real sleeps are
//! not read: lengthening one is how a flaky test is honestly steadied. A tolerance set
//! up in the test and raised, its only edit, is read the same way.

use std::sync::OnceLock;

use regex::Regex;
use similar::{DiffTag, TextDiff};

/// A statement that moves or sets a fake clock.
fn clock_line(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)
            \b(?:jest|vi)\s*\.\s*(?:advanceTimersByTime|advanceTimersByTimeAsync|setSystemTime)\s*\(
            | \b\w*(?i:clock|timer|time|freezer|frozen|fake|scheduler|ticker)\w*\s*(?:\(\s*\))?\s*\.\s*
              (?:advance\w*|Advance\w*|tick\w*|Tick\w*|move_to|set_?now|SetNow|SetUtcNow|setTime|setNow|runFor|run_for|plus\w*)\s*\(
            | \b\w*(?i:clock|time|frozen|fake)\w*\s*\.\s*(?i:now|current\w*|utc_?now)\s*[-+]?=[^=]
            | \b(?:travel_to|travel|Timecop\s*\.\s*(?:travel|freeze))\s*[\(\s]",
        )
        .expect("clock pattern")
    })
    .is_match(line)
}

/// The first changed line (0-based, within each body) when two versions of a test
/// differ only in statements that move a fake clock.
pub(super) fn moved<'a>(old: &'a str, new: &'a str) -> Option<(usize, usize)> {
    // (Cheap first: most tests move no clock.)
    const WORDS: &[&str] = &[
        "dvance", "tick", "Tick", "now", "Now", "move_to", "travel", "Time", "Timecop", "run",
        "Run", "plus",
    ];
    if !WORDS.iter().any(|w| new.contains(w)) {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    changed_only(old, new, clock_line)?
        .into_iter()
        .find(|&(o, n)| call_tail(a[o]) != call_tail(b[n]))
}

/// A line's first call from its name on (`tickAsync(10);` of `await
/// time.clock.tickAsync(10);`): the clock's receiver renamed moves no clock.
fn call_tail(line: &str) -> &str {
    let line = line.trim();
    let Some(open) = line.find('(') else {
        return line;
    };
    let start = line[..open]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .map_or(0, |i| i + 1);
    &line[start..]
}

/// The line (0-based, within each body) of a tolerance set up in a test and raised, when
/// that is the test's only edit (`opt := cmpopts.EquateApprox(1e-9, 0)` → `0.05`): the
/// checks that use it read the same and let more through.
pub(super) fn tolerance_raised<'a>(old: &'a str, new: &'a str) -> Option<(usize, usize)> {
    const WORDS: &[&str] = &[
        "Approx", "approx", "tol", "Tol", "epsilon", "Epsilon", "Within",
    ];
    let tolerance = |l: &str| WORDS.iter().any(|w| l.contains(w));
    if !tolerance(new) {
        return None;
    }
    let pairs = changed_only(old, new, tolerance)?;
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    pairs.into_iter().find(|&(o, n)| {
        super::checks::bound_widened(&super::checks::squeeze(a[o]), &super::checks::squeeze(b[n]))
    })
}

/// The changed lines, paired in order (0-based, within each body), when every line the
/// two versions differ in (comments and strings aside) is one `kind` says, replaced one
/// for one.
fn changed_only<'a>(
    old: &'a str,
    new: &'a str,
    kind: impl Fn(&str) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if old == new {
        return None;
    }
    let diff = TextDiff::from_lines(old, new);
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let mut pairs = Vec::new();
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        // (Comments and strings are blanked: an edit of one leaves blank lines.)
        let lines = |range: std::ops::Range<usize>, of: &[&'a str]| -> Vec<usize> {
            range
                .filter(|&i| of.get(i).is_some_and(|l| !l.trim().is_empty()))
                .collect()
        };
        let (old_lines, new_lines) = (lines(o.clone(), &a), lines(n.clone(), &b));
        if old_lines.is_empty() && new_lines.is_empty() {
            continue;
        }
        // Replaced one for one: a setting edited, not added or dropped.
        if old_lines.len() != new_lines.len()
            || !old_lines.iter().all(|&i| kind(a[i]))
            || !new_lines.iter().all(|&i| kind(b[i]))
        {
            return None;
        }
        pairs.extend(old_lines.into_iter().zip(new_lines));
    }
    (!pairs.is_empty()).then_some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_advance_edited_alone_is_moved() {
        let old = "func TestX(t *testing.T) {\n\tclock.Advance(2 * time.Second)\n\tassert.True(t, c.Expired())\n}\n";
        let new = old.replace("2 * time.Second", "10 * time.Minute");
        assert_eq!(moved(old, &new), Some((1, 1)));
        // (Its receiver renamed, the clock is where it was.)
        let renamed = old.replace("clock.Advance", "env.clock.Advance");
        assert_eq!(moved(old, &renamed), None);
    }

    #[test]
    fn an_advance_edited_with_its_check_is_not() {
        let old = "it('x', () => {\n  vi.advanceTimersByTime(999);\n  expect(save).not.toHaveBeenCalled();\n});\n";
        let new = old
            .replace("999", "1999")
            .replace("not.toHaveBeenCalled()", "toHaveBeenCalledTimes(0)");
        assert_eq!(moved(old, &new), None);
    }

    #[test]
    fn a_comment_edited_is_not_a_clock_moved() {
        // (As the analyser reads code: comments blanked.)
        let old = "fn t() {\n    let x = 1;\n              \n    assert_eq!(x, 1);\n}\n";
        let new = "fn t() {\n    let x = 1;\n                 \n    assert_eq!(x, 1);\n}\n";
        assert_eq!(moved(old, new), None);
    }

    #[test]
    fn a_real_sleep_is_not_a_clock() {
        assert!(!clock_line("\ttime.Sleep(10 * time.Millisecond)"));
        assert!(!clock_line("    Thread.sleep(200);"));
        assert!(clock_line("    clock.now = T0 + timedelta(minutes=30)"));
        assert!(clock_line(
            "            _clock.Advance(TimeSpan.FromSeconds(10));"
        ));
        assert!(clock_line("    freezer.tick(delta=5)"));
    }
}
