//! Fake clocks moved: a test whose only edit is how far its fake clock goes before the
//! same checks (`clock.Advance(2 * time.Second)` → `10 * time.Minute` before "has
//! expired", `advanceTimersByTime(999)` → `0` before "not saved yet"). The checks read
//! the same; the moment they look at is no longer the boundary they were written for,
//! so an expiry that comes late, or a save that comes early, passes. Real sleeps are
//! not read: lengthening one is how a flaky test is honestly steadied.

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
pub(super) fn moved(old: &str, new: &str) -> Option<(usize, usize)> {
    if old == new {
        return None;
    }
    let diff = TextDiff::from_lines(old, new);
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let mut first = None;
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let old_lines: Vec<&str> = o.clone().filter_map(|i| a.get(i).copied()).collect();
        let new_lines: Vec<&str> = n.clone().filter_map(|i| b.get(i).copied()).collect();
        let clocks = |lines: &[&str]| {
            lines
                .iter()
                .filter(|l| !l.trim().is_empty())
                .all(|l| clock_line(l))
        };
        // Replaced one for one: an advance edited, not added or dropped.
        if op.tag() != DiffTag::Replace
            || old_lines.len() != new_lines.len()
            || !clocks(&old_lines)
            || !clocks(&new_lines)
        {
            return None;
        }
        first.get_or_insert((o.start, n.start));
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_advance_edited_alone_is_moved() {
        let old = "func TestX(t *testing.T) {\n\tclock.Advance(2 * time.Second)\n\tassert.True(t, c.Expired())\n}\n";
        let new = old.replace("2 * time.Second", "10 * time.Minute");
        assert_eq!(moved(old, &new), Some((1, 1)));
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
