//! How a check changed into another: its shape with literals blanked, a bound or an
//! expected exception widened, an expected error and the calls it makes on the code
//! under test.

use super::*;

/// A check with its literal values (strings, regular expressions, numbers) blanked:
/// `assert_eq!(parse("a"), 1)` and `assert_eq!(parse("b"), 2)` share a shape.
pub fn shape(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut last = 0;
    for (range, _) in literals(key) {
        out.push_str(&key[last..range.start]);
        out.push('_');
        last = range.end;
    }
    out.push_str(&key[last..]);
    out
}

/// The literal values of a check (strings, regular expressions, numbers), in order,
/// each with whether it is a number: what `shape` blanks and `bound_widened` compares.
pub(super) fn literals(key: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    let bytes = key.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let word_before = prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_');
        let found = match c {
            b'"' | b'\'' | b'`' => Some((quoted_end(bytes, i, c), false)),
            // A regular expression literal where a value can start.
            b'/' if matches!(prev, None | Some(b'(' | b',' | b' ' | b'=' | b'[' | b':')) => {
                Some((quoted_end(bytes, i, b'/'), false))
            }
            b'0'..=b'9' if !word_before => {
                let mut j = i;
                while j < bytes.len()
                    && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'.' | b'_'))
                {
                    // (An exponent's sign: `1e-6` is one number.)
                    if matches!(bytes[j], b'e' | b'E')
                        && matches!(bytes.get(j + 1), Some(b'-' | b'+'))
                        && bytes.get(j + 2).is_some_and(u8::is_ascii_digit)
                    {
                        j += 1;
                    }
                    j += 1;
                }
                Some((j, true))
            }
            _ => None,
        };
        match found {
            Some((end, number)) => {
                out.push((i..end, number));
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether `general` is `specific` with some of its literal values written as names
/// (`assert_eq!(parse(input), Ok(secs))` of `assert_eq!(parse("45s"), Ok(45))`): the
/// same check, its values now given by a table's rows or a test's parameters. Each name
/// stands for one value throughout.
pub fn templates(general: &str, specific: &str) -> bool {
    template_values(general, specific).is_some()
}

/// The values `specific` gives the names of `general`, one per name, when it is
/// `general` with those names written as values (see [`templates`]).
pub fn template_values<'s>(general: &str, specific: &'s str) -> Option<Vec<&'s str>> {
    let mut names: Vec<(&str, &'s str)> = Vec::new();
    let (mut g, mut s) = (0, 0);
    let spans = literals(specific);
    let mut next = spans.iter().peekable();
    let word_len = |t: &str| {
        t.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count()
    };
    while s < specific.len() {
        while next.peek().is_some_and(|(r, _)| r.start < s) {
            next.next();
        }
        match next.peek() {
            Some((r, _)) if r.start == s && !general[g..].starts_with(&specific[r.clone()]) => {
                let value = &specific[r.clone()];
                let n = word_len(&general[g..]);
                let name = &general[g..g + n];
                if n == 0 || name.as_bytes()[0].is_ascii_digit() {
                    return None;
                }
                match names.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) if *v != value => return None,
                    Some(_) => {}
                    None => names.push((name, value)),
                }
                g += n;
                s = r.end;
            }
            _ => {
                if general.as_bytes().get(g) != Some(&specific.as_bytes()[s]) {
                    return None;
                }
                g += 1;
                s += 1;
            }
        }
    }
    (g == general.len() && !names.is_empty()).then(|| names.into_iter().map(|(_, v)| v).collect())
}

/// The double-quoted string literals of a check, with their quotes.
pub fn string_literals(key: &str) -> Vec<&str> {
    literals(key)
        .into_iter()
        .map(|(r, _)| &key[r])
        .filter(|l| l.len() >= 2 && l.starts_with('"') && l.ends_with('"'))
        .collect()
}

/// The literal values of a check (strings with their quotes, numbers), as written.
pub fn literal_values(key: &str) -> Vec<&str> {
    literals(key).into_iter().map(|(r, _)| &key[r]).collect()
}

/// The quoted string literals of a check (double or single quotes), with their quotes.
pub fn text_literals(key: &str) -> Vec<&str> {
    literals(key)
        .into_iter()
        .map(|(r, _)| &key[r])
        .filter(|l| {
            l.len() >= 2
                && ((l.starts_with('"') && l.ends_with('"'))
                    || (l.starts_with('\'') && l.ends_with('\'')))
        })
        .collect()
}

/// The numbers of a check, as `(start, end)` byte ranges.
pub(super) fn numbers(key: &str) -> Vec<(usize, usize)> {
    literals(key)
        .into_iter()
        .filter(|(_, number)| *number)
        .map(|(r, _)| (r.start, r.end))
        .collect()
}

pub(super) fn number_value(text: &str) -> Option<f64> {
    let digits: String = text
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .chars()
        .filter(|&c| c != '_')
        .collect();
    digits.parse().ok()
}

/// Whether an exact check of a whole number became a window around it (`assert_eq!(t,
/// 620_000)` → `assert!((t - 620_000).abs() <= 1_000)`, `abs(t - 620000) < 5`): whole
/// numbers compare exactly, so a window of one or more lets wrong values through.
/// (A float's window, `abs(x - 0.3) < 1e-9`, is how floats are compared.)
pub fn integer_windowed(old: &str, new: &str) -> bool {
    let whole = |t: &str| {
        !t.is_empty()
            && t.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            && t.bytes().next().is_some_and(|b| b.is_ascii_digit())
    };
    // (`abs(…)`, `Math.abs(…)`, Rust's `(…).abs()`, Go's `math.Abs(…)`.)
    let Some(abs) = new.find("abs(").or_else(|| new.find("Abs(")) else {
        return false;
    };
    let expected: Vec<&str> = literals(old)
        .into_iter()
        .map(|(r, _)| &old[r])
        .filter(|t| whole(t) && t.trim_start_matches(['0', '_']).len() > 1)
        .collect();
    let Some((_, bound)) = new[abs..].rsplit_once(['<', '≤']) else {
        return false;
    };
    let bound = bound.trim_start_matches('=').trim();
    let bound: String = bound
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
        .collect();
    expected.iter().any(|e| new.contains(e))
        && whole(&bound)
        && bound.replace('_', "").parse::<u64>().is_ok_and(|b| b >= 1)
}

/// Tolerances a closeness check may take as named arguments.
const TOLERANCES: &[&str] = &[
    "epsilon",
    "max_relative",
    "max_ulps",
    "abs",
    "rel",
    "abs_tol",
    "rel_tol",
    "atol",
    "rtol",
];

/// Whether `new` is `old` with one more tolerance beside one it had (`epsilon =
/// 1e-6` → `epsilon = 1e-6, max_relative = 1.0`, `abs=…` → `abs=…, rel=…`): a value
/// within either now passes. (One added to a check that had none, `approx(0.0)` →
/// `approx(0.0, abs=1e-9)`, is how a check of zero is made to work at all.)
fn tolerance_added(old: &str, new: &str) -> bool {
    // (Read for every pair of a lost and a gained check: an argument added makes the
    // check longer, and the old one names a tolerance.)
    if new.len() <= old.len() || !TOLERANCES.iter().any(|kw| old.contains(kw)) {
        return false;
    }
    let named = |key: &str, kw: &str| -> Option<(usize, usize)> {
        let b = key.as_bytes();
        key.match_indices(kw).find_map(|(at, _)| {
            let before = key[..at].trim_end();
            let after = key[at + kw.len()..].trim_start();
            (before.ends_with(',')
                && after.starts_with('=')
                && !after.starts_with("==")
                && !b
                    .get(at.wrapping_sub(1))
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_'))
            .then(|| {
                let comma = key[..at].rfind(',').unwrap_or(at);
                let end = key[at..].find([',', ')']).map_or(key.len(), |i| at + i);
                (comma, end)
            })
        })
    };
    if !TOLERANCES.iter().any(|kw| named(old, kw).is_some()) {
        return false;
    }
    TOLERANCES.iter().any(|kw| {
        named(old, kw).is_none()
            && named(new, kw).is_some_and(|(from, to)| {
                let mut without = new.to_string();
                without.replace_range(from..to, "");
                squeeze(&without) == squeeze(old)
            })
    })
}

/// pytest's `approx(V, abs=A, rel=R)` with a number for `V`: the tolerance it allows
/// at `V` (the larger of `A` and `R·|V|`), the check without the call's arguments
/// after `V`, and which keywords it gives.
fn approx_tolerance(key: &str) -> Option<(f64, String, (bool, bool))> {
    let at = key.find("approx(")? + "approx(".len();
    let close = super::super::source::matching_close(key.as_bytes(), at - 1)?;
    let args = split_top(&key[at..close]);
    let value = number_value(args.first()?.trim())?;
    let keyword = |name: &str| -> Option<f64> {
        args.iter()
            .find_map(|a| a.trim().strip_prefix(name))
            .and_then(|v| number_value(v.trim()))
    };
    let (abs, rel) = (keyword("abs="), keyword("rel="));
    if abs.is_none() && rel.is_none() {
        return None;
    }
    let allowed = abs.unwrap_or(0.0).max(rel.unwrap_or(0.0) * value.abs());
    let rest = format!("{}{}{}", &key[..at], args[0].trim(), &key[close..]);
    Some((allowed, rest, (abs.is_some(), rel.is_some())))
}

/// For two checks of one shape that differ in one number only: whether the new
/// number lets more through — an upper bound raised (`< 100` → `< 500`,
/// `toBeLessThan`, `assertLess(x, n)`, `isAtMost`) or a lower bound lowered.
pub fn bound_widened(old: &str, new: &str) -> bool {
    // (The digits a closeness check compares bound it the other way: more is stricter.
    // `loosened_in_place` reads them.)
    if let (Some((_, a)), Some((_, b))) = (close_digits(old), close_digits(new))
        && a == b
    {
        return false;
    }
    if let (Some(a), Some(b)) = (in_seconds(old), in_seconds(new))
        && (a != old || b != new)
    {
        return bound_widened(&a, &b);
    }
    if let (Some((was, rest_old)), Some((now, rest_new))) = (time_limit(old), time_limit(new)) {
        return rest_old == rest_new && now > was;
    }
    // RSpec's `be_within(1.second)` → `be_within(1.day)` (or `a_value_within`): the same
    // number, a longer unit.
    let within = |key: &str| -> Option<(f64, String)> {
        let call = ["a_value_within(", "be_within("]
            .into_iter()
            .find(|c| key.contains(c))?;
        let at = key.find(call)? + call.len();
        let close = super::super::source::matching_close(key.as_bytes(), at - 1)?;
        let number: f64 = key[at..close].split('.').next()?.trim().parse().ok()?;
        let seconds = super::ruby_seconds(key, call)?;
        Some((number * seconds, format!("{}{}", &key[..at], &key[close..])))
    };
    if let (Some((was, rest_old)), Some((now, rest_new))) = (within(old), within(new))
        && rest_old == rest_new
    {
        return now > was;
    }
    if tolerance_added(old, new) {
        return true;
    }
    // `approx(1266.71, abs=0.005)` → `approx(1266.71, rel=0.05)`: a tolerance of the
    // other kind, read at the expected value (5% of 1266.71 is 63).
    if let (Some((was, rest_old, kinds_old)), Some((now, rest_new, kinds_new))) =
        (approx_tolerance(old), approx_tolerance(new))
        && kinds_old != kinds_new
        && rest_old == rest_new
    {
        return now > was;
    }
    let (a, b) = (numbers(old), numbers(new));
    if a.len() != b.len() || shape(old) != shape(new) {
        return false;
    }
    let differing: Vec<usize> = (0..a.len())
        .filter(|&i| old[a[i].0..a[i].1] != new[b[i].0..b[i].1])
        .collect();
    let [i] = differing[..] else { return false };
    let (Some(was), Some(now)) = (
        number_value(&old[a[i].0..a[i].1]),
        number_value(&new[b[i].0..b[i].1]),
    ) else {
        return false;
    };
    let (before, after) = (old[..a[i].0].trim_end(), old[a[i].1..].trim_start());
    let before = before.trim_end_matches('-');
    // true: the number is an upper bound; false: a lower bound.
    // `x < n` and `n > x` bound from above; `x > n` and `n < x` from below.
    // A tolerance raised lets more through (`approx(x, abs=1e-6)` → `abs=0.5`), and so do
    // fewer decimal places (`places=7` → `places=0`).
    let keyword = |k: &[&str]| k.iter().any(|k| before.ends_with(k));
    let upper = if keyword(&[
        "abs=",
        "rel=",
        "delta=",
        "atol=",
        "rtol=",
        "rel_tol=",
        "abs_tol=",
        "epsilon=",
        "max_relative=",
        "ulps=",
        "plusOrMinus",
        "maxDiffPixels:",
        "maxDiffPixelRatio:",
        "threshold:",
    ]) {
        Some(true)
    } else if keyword(&["places="]) {
        Some(false)
    } else if before.ends_with('<') || before.ends_with("<=") || after.starts_with('>') {
        Some(true)
    } else if before.ends_with('>') || before.ends_with(">=") || after.starts_with('<') {
        Some(false)
    } else {
        // The call the number is an argument of.
        let mut depth = 0;
        let open = before.char_indices().rev().find_map(|(j, c)| match c {
            ')' | ']' | '}' => {
                depth += 1;
                None
            }
            '(' | '[' | '{' if depth == 0 => Some(j),
            '(' | '[' | '{' => {
                depth -= 1;
                None
            }
            _ => None,
        });
        open.and_then(|open| {
            let name_start = trailing_word_start(&before[..open]);
            let name = before[name_start..open].to_ascii_lowercase();
            let last_arg = after.starts_with(')');
            // (Which argument it is: a tolerance is the last of three, or of two.)
            let mut depth = 0;
            let index = before[open + 1..]
                .bytes()
                .filter(|&b| {
                    match b {
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth -= 1,
                        _ => {}
                    }
                    b == b',' && depth == 0
                })
                .count();
            let tolerance = last_arg
                && ((index == 1
                    && [
                        "approximately",
                        "closeto",
                        "in_delta",
                        "indelta",
                        "inepsilon",
                        "be_within",
                    ]
                    .iter()
                    .any(|w| name.contains(w)))
                    || (index == 2 && matches!(name.as_str(), "assertequals" | "assert_in_delta"))
                    // (Shouldly's `ShouldBe(4.5791, 0.0001)`.)
                    || (index == 1 && name == "shouldbe")
                    || (index == 3 && matches!(name.as_str(), "indelta" | "inepsilon")));
            // (AssertJ's `within(0.001)`, `offset(…)`, `byLessThan(…)`, NUnit's
            // `.Within(…)`: the tolerance is the only argument.)
            // (Truth's `isWithin(1e-6).of(x)`; go-cmp's `EquateApprox(fraction, margin)`.)
            let only_tolerance = (index == 0
                && matches!(
                    name.as_str(),
                    "be_within"
                        | "within"
                        | "offset"
                        | "bylessthan"
                        | "withinpercentage"
                        | "iswithin"
                ))
                || (index <= 1 && name == "equateapprox");
            if tolerance || only_tolerance {
                Some(true)
            } else if last_arg
                && ((index == 1 && name == "tobecloseto")
                    || (index == 2 && name.ends_with("assertalmostequal"))
                    // (xUnit's `Assert.Equal(0.029, x, 3)`: decimal places.)
                    || (index == 2 && name == "equal"))
            {
                Some(false)
            } else if ["lessthan", "atmost", "below"]
                .iter()
                .any(|w| name.contains(w))
            {
                Some(true)
            } else if ["greaterthan", "atleast", "above"]
                .iter()
                .any(|w| name.contains(w))
            {
                Some(false)
            } else if name.contains("less") {
                Some(last_arg)
            } else if name.contains("greater") {
                Some(!last_arg)
            } else {
                None
            }
        })
    };
    // (Go's `if math.Abs(got-want) > 0.005 { t.Error(…) }` is keyed by the condition
    // that fails the test: its bound is the other way round.)
    let failing = ["t.Error(", "t.Fatal(", "t.Fail("]
        .iter()
        .any(|f| old.starts_with(f));
    match upper.map(|u| u != failing) {
        Some(true) => now > was,
        Some(false) => now < was,
        None => false,
    }
}

/// A check with Rust's `Duration::from_millis(300)` (and `from_secs`, `from_micros`,
/// `from_nanos`) written as its seconds, `0.3`, so that two bounds in different
/// units compare; `None` when it has none.
fn in_seconds(key: &str) -> Option<String> {
    const UNITS: &[(&str, f64)] = &[
        ("Duration::from_secs(", 1.0),
        ("Duration::from_millis(", 1e-3),
        ("Duration::from_micros(", 1e-6),
        ("Duration::from_nanos(", 1e-9),
        ("Duration::from_secs_f64(", 1.0),
        ("TimeSpan.FromMilliseconds(", 1e-3),
        ("TimeSpan.FromSeconds(", 1.0),
        ("TimeSpan.FromMinutes(", 60.0),
        ("TimeSpan.FromHours(", 3600.0),
        ("TimeSpan.FromDays(", 86400.0),
    ];
    let mut out = key.to_string();
    let mut changed = false;
    for (unit, scale) in UNITS {
        while let Some(at) = out.find(unit) {
            let open = at + unit.len() - 1;
            let close = crate::weakening::source::matching_close(out.as_bytes(), open)?;
            let n: f64 = out[open + 1..close].replace('_', "").trim().parse().ok()?;
            out.replace_range(at..=close, &format!("{}", n * scale));
            changed = true;
        }
    }
    // Go: `300*time.Millisecond`, `30*time.Second`, a bare `time.Second`.
    const GO_UNITS: &[(&str, f64)] = &[
        ("time.Nanosecond", 1e-9),
        ("time.Microsecond", 1e-6),
        ("time.Millisecond", 1e-3),
        ("time.Second", 1.0),
        ("time.Minute", 60.0),
        ("time.Hour", 3600.0),
    ];
    for (unit, scale) in GO_UNITS {
        let mut from = 0;
        while let Some(found) = out[from..].find(unit) {
            let at = from + found;
            let end = at + unit.len();
            if out
                .as_bytes()
                .get(end)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                from = end;
                continue;
            }
            let head = out[..at].trim_end();
            let (start, n) = match head.strip_suffix('*') {
                Some(h) => {
                    let h = h.trim_end();
                    let digits = h.len()
                        - h.bytes()
                            .rev()
                            .take_while(|b| b.is_ascii_digit() || *b == b'.' || *b == b'_')
                            .count();
                    let Ok(n) = h[digits..].replace('_', "").parse::<f64>() else {
                        from = end;
                        continue;
                    };
                    (digits, n)
                }
                None => (at, 1.0),
            };
            let value = format!("{}", n * scale);
            out.replace_range(start..end, &value);
            from = start + value.len();
            changed = true;
        }
    }
    changed.then_some(out)
}

/// A JUnit time limit (`assertTimeout(Duration.ofMillis(200), …)`) in seconds, and the
/// check's text without it: a limit raised lets a slower run through, whatever unit
/// it is written in (`ofMillis(200)` → `ofSeconds(30)`).
fn time_limit(key: &str) -> Option<(f64, String)> {
    if !key.starts_with("assertTimeout") {
        return None;
    }
    let at = key.find("Duration.of")?;
    let open = at + key[at..].find('(')?;
    let close = open + key[open..].find(')')?;
    let unit = match &key[at + "Duration.of".len()..open] {
        "Nanos" => 1e-9,
        "Millis" => 1e-3,
        "Seconds" => 1.0,
        "Minutes" => 60.0,
        "Hours" => 3600.0,
        _ => return None,
    };
    let value = number_value(&key[open + 1..close])?;
    Some((value * unit, format!("{}{}", &key[..at], &key[close + 1..])))
}

/// For two bound checks of different subjects: whether `new` widens `old` when the new
/// subject is computed from the old one in `code` (`const best = Math.min(best,
/// performance.now() - start)` then `expect(best).toBeLessThan(500)` for
/// `expect(performance.now() - start).toBeLessThan(100)`): the same quantity, bounded
/// more loosely.
pub fn bound_widened_derived(old: &str, new: &str, code: &str) -> bool {
    let one = |key| -> Option<&str> {
        match subjects(key)
            .into_iter()
            .filter(|s| !literal(s))
            .collect::<Vec<_>>()[..]
        {
            [s] => Some(s),
            _ => None,
        }
    };
    let (Some(was), Some(now)) = (one(old), one(new)) else {
        return false;
    };
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    if was == now || !now.bytes().all(ident) {
        return false;
    }
    // `now = …was…` (or `let now = …`, `now := …`) on one line of the new code.
    let assigned = code.lines().map(squeeze).any(|line| {
        line.match_indices(now).any(|(at, _)| {
            let b = line.as_bytes();
            let rest = line[at + now.len()..].trim_start_matches(':');
            !(at > 0 && (ident(b[at - 1]) || b[at - 1] == b'.'))
                && rest.starts_with('=')
                && !rest.starts_with("==")
                && rest[1..].contains(was)
        })
    });
    if !assigned {
        return false;
    }
    // The new check with the old subject in place of the new one.
    let b = new.as_bytes();
    let Some(at) = new.match_indices(now).map(|(at, _)| at).find(|&at| {
        let glued =
            (at > 0 && ident(b[at - 1])) || b.get(at + now.len()).is_some_and(|&c| ident(c));
        !glued
    }) else {
        return false;
    };
    let renamed = format!("{}{was}{}", &new[..at], &new[at + now.len()..]);
    bound_widened(old, &renamed)
}

/// For two lines of one shape that differ in one number only: the two numbers, as
/// written.
pub fn changed_number<'a>(old: &'a str, new: &'a str) -> Option<(&'a str, &'a str)> {
    let (a, b) = (numbers(old), numbers(new));
    if a.len() != b.len() || shape(old) != shape(new) {
        return None;
    }
    let differing: Vec<usize> = (0..a.len())
        .filter(|&i| old[a[i].0..a[i].1] != new[b[i].0..b[i].1])
        .collect();
    let [i] = differing[..] else { return None };
    Some((&old[a[i].0..a[i].1], &new[b[i].0..b[i].1]))
}

/// `text` with each whole-word `name` replaced by `by`.
pub fn replace_word(text: &str, name: &str, by: &str) -> String {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(name) {
        if at < last
            || (at > 0 && ident(b[at - 1]))
            || b.get(at + name.len()).is_some_and(|&c| ident(c))
        {
            continue;
        }
        out.push_str(&text[last..at]);
        out.push_str(by);
        last = at + name.len();
    }
    out.push_str(&text[last..]);
    out
}

/// Whether a check expects an error: `toThrow("…")`, `raises(E)`, `assertThrows(…)`,
/// `must_raise`, `rejects` (not `not.toThrow()` or `doesNotThrow`).
pub fn expects_failure(key: &str) -> bool {
    // The names of the check itself: outside any bracket (`expect`, `toThrow` in
    // `expect(() => f()).toThrow("…")`; not what its arguments call).
    let mut depth = 0i32;
    let mut outer = String::new();
    for c in key.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            // (A call's parentheses kept, empty: `assertThatThrownBy(…).isInstanceOf(…)`
            // is a call of `assertThatThrownBy`, not a receiver of that name.)
            ')' => {
                depth -= 1;
                if depth == 0 {
                    outer.push_str("()");
                }
            }
            ']' | '}' => depth -= 1,
            _ if depth == 0 => outer.push(c),
            _ => {}
        }
    }
    let outer = outer.to_ascii_lowercase();
    if outer.contains(".not.")
        || outer.contains("not_to")
        || outer.contains("to_not")
        || outer.contains("should_not")
    {
        return false;
    }
    // Go's `t.Error(…)` reports a failure; it does not expect one.
    let reports = ["t.error", "t.errorf", "t.fatal", "t.fatalf"]
        .iter()
        .any(|r| outer.starts_with(r));
    // Callees, not receivers (`error` in `error.ShouldBeOfType<E>()` is a value).
    let names: Vec<&str> = outer
        .split_inclusive(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.ends_with('.'))
        .map(|w| w.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .collect();
    // (Shouldly's `Should.Throw<E>(…)` fails when nothing is thrown, wherever it sits:
    // `Should.Throw<E>(f).Inner.ShouldBe(v)` reads as a check of `v`.)
    outer.contains(".rejects.")
        || key.contains("Should.Throw")
        || names.iter().any(|&name| {
            (["raise", "throw", "reject", "panic"]
                .iter()
                .any(|w| name.contains(w))
                || (!reports
                    && matches!(
                        name,
                        "error" | "erroris" | "erroras" | "errorcontains" | "equalerror"
                    )))
                && !name.contains("not")
                && !name.contains("nothing")
        })
        // An expected warning with its message (`pytest.warns(W, match="…")`,
        // `assertWarnsRegex(W, "…")`) pins an error path the same way: a raise turned
        // into that warning is a behaviour changed. Without a message any incidental
        // warning passes it.
        || (names.iter().any(|&name| {
            name == "warns" || name == "deprecated_call" || name == "assertwarnsregex"
        }) && (key.contains("match=") || key.contains("WarnsRegex(")))
}

/// The calls a check makes on the code under test: its outermost calls that are not
/// the check's own (`z.parse(x)` in `expect(() => z.parse(x)).toThrow()`, `w.Hijack()`
/// in `assert.Panics(t, func() { _, _, err := w.Hijack() })`).
pub fn actions(key: &str) -> Vec<&str> {
    let b = key.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let close = |open: usize| -> Option<usize> {
        let mut depth = 0i32;
        for (j, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !ident(b[i]) || (i > 0 && (ident(b[i - 1]) || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i;
        let mut head_end = None;
        let mut called = false;
        'chain: loop {
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            head_end.get_or_insert(j);
            while j < b.len() && matches!(b[j], b'(' | b'[') {
                let Some(c) = close(j) else { break 'chain };
                called |= b[j] == b'(';
                j = c + 1;
            }
            if j + 1 < b.len() && b[j] == b'.' && ident(b[j + 1]) {
                j += 1;
                continue;
            }
            break;
        }
        let head_end = head_end.unwrap_or(j);
        let head = key[start..head_end].to_ascii_lowercase();
        let own = [
            "expect", "assert", "require", "should", "must", "verify", "check",
        ]
        .iter()
        .any(|w| head.starts_with(w))
            || matches!(
                head.as_str(),
                "t" | "tb"
                    | "b"
                    | "func"
                    | "function"
                    | "lambda"
                    | "proc"
                    | "new"
                    | "await"
                    | "async"
                    | "return"
                    | "pytest"
                    | "self"
                    | "this"
            );
        if called && !own && j > start {
            out.push(&key[start..j]);
            i = j;
        } else {
            i = head_end.max(i + 1);
        }
    }
    out
}

/// Whether a check is made by the compiler: `// @ts-expect-error` on a statement,
/// `expectTypeOf(…)`, `assertType(…)`.
pub fn compile_time(key: &str) -> bool {
    key.starts_with("@ts-expect-error ")
        || key.starts_with("expectTypeOf(")
        || key.starts_with("assertType(")
        || key.starts_with("assertType<")
}

/// Where the identifier that ends `text` starts (a char boundary: word bytes are ASCII).
pub(crate) fn trailing_word_start(text: &str) -> usize {
    text.len()
        - text
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count()
}

/// The call that expects an exception and the type it expects: `pytest.raises(E)`,
/// `assertThrows(E.class, …)`, `Assert.Throws<E>(…)`, `.toThrow(E)`, `must_raise(E)`.
pub(in crate::weakening) fn expected_exception(key: &str) -> Option<(&str, &str)> {
    // The first call whose name says raise or throw (after `expect(…).` in JS).
    let open = key.match_indices(['(', '<']).map(|(i, _)| i).find(|&i| {
        let name_start = trailing_word_start(&key[..i]);
        let leaf = key[name_start..i].to_ascii_lowercase();
        leaf.contains("raise") || leaf.contains("throw") || leaf.contains("instanceof")
    })?;
    let callee = &key[..open];
    let ty = if key[open..].starts_with('<') {
        let close = key[open..].find('>')? + open;
        &key[open + 1..close]
    } else {
        let rest = &key[open + 1..];
        let args = &rest[..rest.rfind(')').unwrap_or(rest.len())];
        split_top(args).first().copied()?
    };
    let ty = ty
        .trim()
        .trim_start_matches("typeof(")
        .trim_end_matches(')')
        .trim_end_matches(".class")
        .trim_end_matches("::class.java")
        .trim_end_matches("::class");
    let simple = ty.rsplit(['.', ':']).next().unwrap_or(ty);
    (!simple.is_empty()
        && simple
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some((callee.trim_end_matches("Any"), simple))
}

/// Matchers and the looser siblings they may be swapped for: (strict, loose), by the
/// name of the call.
const LOOSER: &[(&str, &str)] = &[
    ("toHaveBeenLastCalledWith", "toHaveBeenCalledWith"),
    ("toHaveBeenNthCalledWith", "toHaveBeenCalledWith"),
    ("toHaveBeenCalledOnceWith", "toHaveBeenCalledWith"),
    ("toHaveBeenCalledExactlyOnceWith", "toHaveBeenCalledWith"),
    ("lastCalledWith", "toHaveBeenCalledWith"),
    ("toEqualTypeOf", "toMatchTypeOf"),
    ("toStrictEqual", "toMatchObject"),
    ("assert_called_once_with", "assert_called_with"),
    ("assert_called_once_with", "assert_any_call"),
    ("assert_called_with", "assert_any_call"),
    ("assert_awaited_once_with", "assert_awaited_with"),
    ("assert_awaited_once_with", "assert_any_await"),
    ("ContainSingle", "Contain"),
    ("ThrowExactly", "Throw"),
    ("ThrowExactlyAsync", "ThrowAsync"),
    ("shouldThrowExactly", "shouldThrow"),
    ("shouldThrowExactlyUnit", "shouldThrowUnit"),
    ("PanicsWithError", "Panics"),
    ("PanicsWithValue", "Panics"),
    ("isCreated", "is2xxSuccessful"),
    ("isOk", "is2xxSuccessful"),
    ("isAccepted", "is2xxSuccessful"),
    ("isNoContent", "is2xxSuccessful"),
    ("isBadRequest", "is4xxClientError"),
    ("isUnauthorized", "is4xxClientError"),
    ("isForbidden", "is4xxClientError"),
    ("isNotFound", "is4xxClientError"),
    ("isConflict", "is4xxClientError"),
    ("isUnprocessableEntity", "is4xxClientError"),
    ("have_http_status", "be_successful"),
    ("have_http_status", "be_success"),
    ("have_http_status", "be_redirect"),
    ("have_http_status", "be_client_error"),
    ("have_http_status", "be_server_error"),
    ("assert_predicate", "assert_respond_to"),
    ("by", "by_at_least"),
    ("by", "by_at_most"),
    ("once", "at_least"),
    ("twice", "at_least"),
    ("thrice", "at_least"),
    ("exactly", "at_least"),
    ("once", "at_most"),
    ("exactly", "at_most"),
    ("have_content", "have_css"),
    ("have_text", "have_css"),
    // (Spring's `jsonPath("$.status").value("SHIPPED")` → `.exists()`.)
    ("value", "exists"),
    ("value", "isNotEmpty"),
];

/// A check without its `.with(…)` argument matchers and call counts (`.once`,
/// `.twice`, `.times(n)`, `.exactly(n).times`).
fn unqualified(key: &str) -> String {
    let b = key.as_bytes();
    let mut out = String::with_capacity(key.len());
    let mut at = 0;
    while at < key.len() {
        let rest = &key[at..];
        if rest.starts_with(".with(")
            && let Some(close) = super::super::source::matching_close(b, at + ".with".len())
        {
            at = close + 1;
            continue;
        }
        let count = [".once", ".twice", ".thrice"]
            .iter()
            .find(|w| {
                rest.starts_with(*w)
                    && !rest[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
            .map(|w| w.len());
        if let Some(len) = count {
            at += len;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        at += c.len_utf8();
    }
    out
}

/// The last name of the call a piece of a check starts with (`PanicsWithError` of
/// `assert.PanicsWithError(t, …`, `once` of `.once`).
fn callee_leaf(text: &str) -> &str {
    let text = text.trim_start_matches(['.', ' ']);
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len());
    text[..end].rsplit('.').next().unwrap_or("")
}

/// Whether an expected exception was widened to a root type (`raises(ValueError)` →
/// `raises(Exception)`, `assertThrows(StackOverflowError.class, …)` →
/// `assertThrows(Throwable.class, …)`): any failure now passes.
pub fn exception_widened(old: &str, new: &str) -> bool {
    const ROOTS: &[&str] = &[
        "Exception",
        "BaseException",
        "Throwable",
        "Error",
        "RuntimeException",
        "StandardError",
        "Object",
        "object",
    ];
    // (The stem of a name: `ArgumentOutOfRange` of `ArgumentOutOfRangeException`.)
    let stem = |t: &str| -> String {
        t.trim_end_matches("Exception")
            .trim_end_matches("Error")
            .to_string()
    };
    // (The call itself: `act.Should().ThrowExactly` of `Assert.Equal("end",
    // act.Should().ThrowExactly`, its `.Which.ParamName` checked too.)
    let same_call = |c1: &str, c2: &str| {
        let c1 = c1.replace("Exactly", "");
        c1 == c2
            || c1
                .strip_suffix(c2)
                .is_some_and(|head| head.ends_with([',', '(']))
    };
    match (expected_exception(old), expected_exception(new)) {
        (Some((c1, t1)), Some((c2, t2))) => {
            same_call(c1, c2)
                && t1 != t2
                && ((ROOTS.contains(&t2) && !ROOTS.contains(&t1))
                    // (To a base named by a part of its name: `ArgumentOutOfRangeException`
                    // → `ArgumentException`, `CouponRedeemedException` → `CouponException`.)
                    || (!stem(t2).is_empty()
                        && stem(t1).len() > stem(t2).len()
                        && stem(t1).starts_with(&stem(t2))
                        && t1.ends_with(&t2[stem(t2).len()..])))
        }
        // An expected message traded for a root type (`toThrow('Cart is empty')` →
        // `toThrow(Error)`).
        // (Or an instance of another type, its message with it: `toThrowError(new
        // CurrencyMismatchError('EUR', 'USD'))` → `toThrowError(Error)`.)
        (None, Some((c2, t2))) => {
            ROOTS.contains(&t2)
                && old.strip_prefix(c2).is_some_and(|rest| {
                    rest.starts_with("('")
                        || rest.starts_with("(\"")
                        || rest.starts_with("(`")
                        || rest.strip_prefix("(new ").is_some_and(|ty| {
                            let ty = ty.split('(').next().unwrap_or("");
                            ty != t2 && !ROOTS.contains(&ty)
                        })
                })
        }
        _ => false,
    }
}

/// The value whose size a check fixes (`x` of `len(x)`, `x.size()`, `x.Count`,
/// `expect(x).toHaveLength(3)`, `assertThat(x).hasSize(3)`, `x.Should().HaveCount(3)`,
/// `assert.Len(t, x, 3)`, `Assert.Single(x)`), if it is a size check.
pub fn size_subject(key: &str) -> Option<&str> {
    static SIZE: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    const CHAIN: &str = r"[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)*(?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\])*(?:\.[A-Za-z_$][\w$]*(?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\])*)*";
    let re = SIZE
        .get_or_init(|| {
            regex::Regex::new(&format!(
                r"\blen\(({CHAIN})\)|\bexpect\(({CHAIN})\)\.toHaveLength\(|\bexpect\(({CHAIN})\)\.to\.(?:have\.)?(?:lengthOf|length)\(|\bassertThat\(({CHAIN})\)\.hasSize\(|\bassert\.Len\(\w+,({CHAIN}),|\bAssert\.Single\(({CHAIN})\)|\b(?:Expect|Ω)\(({CHAIN})\)\.(?:To|Should)\(HaveLen\(|({CHAIN})\.Should\(\)\.HaveCount\(|({CHAIN}) ?shouldHaveSize\b|\bAssert\.That\(({CHAIN}),Has\.(?:Exactly\(\d+\)\.Items|Count\.EqualTo\(|Length\.EqualTo\()|\bassertThat\(({CHAIN}),(?:hasSize|iterableWithSize)\(|({CHAIN})\.(?:len\(\)|size\(\)|length\(\)|count\(\)|Count\(\)|size\b|length\b|count\b|Count\b|Length\b)"
            ))
            .ok()
        })
        .as_ref()?;
    // (Not in a message: `$"… {words.Length}"`.)
    let c = re.captures_iter(key).find(|c| {
        c.get(0).is_some_and(|m| {
            key[..m.start()]
                .matches(['"', '\''])
                .count()
                .is_multiple_of(2)
        })
    })?;
    (1..c.len()).find_map(|i| c.get(i)).map(|m| m.as_str())
}

/// Whether `value` is a whole operand of `key`: not a member of something else
/// (`helper.value(…)`) and not read further (`value.get(1)`, `value[0]`).
fn whole_operand(key: &str, value: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    key.match_indices(value).any(|(at, _)| {
        !key[..at].ends_with(|c: char| word(c) || c == '.')
            && !key[at + value.len()..]
                .starts_with(|c: char| word(c) || matches!(c, '.' | '[' | '('))
    })
}

/// Whether an exact check of a value was replaced by a check of its size alone
/// (`assert tags == ["a", "b"]` → `assert len(tags) == 2`, `toEqual([…])` →
/// `toHaveLength(3)`): any content of that size now passes.
pub fn size_for_content(old: &str, new: &str) -> bool {
    let Some(value) = size_subject(new) else {
        return false;
    };
    // (Its distinct elements counted: `slugs.Distinct().Count()`, `len(set(xs))`,
    // `xs.uniq.size`, `new Set(xs).size`.)
    let mut value = value;
    for suffix in [
        ".Distinct()",
        ".distinct()",
        ".uniq",
        ".ToList()",
        ".toList()",
    ] {
        value = value.strip_suffix(suffix).unwrap_or(value);
    }
    for (open, close) in [("set(", ")"), ("new Set(", ")")] {
        if let Some(inner) = value.strip_prefix(open).and_then(|v| v.strip_suffix(close))
            && super::balanced(inner)
        {
            value = inner;
        }
    }
    // (Its elements checked too: `len(xs) == 1 && xs[0] == "x"`.)
    let elements = new.match_indices(value).any(|(at, _)| {
        let after = &new[at + value.len()..];
        [
            "[",
            ".get(",
            ".at(",
            ".first",
            ".First",
            ".last",
            ".Last",
            ".ElementAt(",
        ]
        .iter()
        .any(|e| after.starts_with(e))
    });
    // (An emptiness check is a size check: `assertTrue(xs.isEmpty())` → `xs.size
    // shouldBe 0`.)
    let emptiness = old.contains("mpty")
        && new
            .trim_end_matches([')', ';', ' '])
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .next()
            == Some("0");
    size_subject(old).is_none()
        && !emptiness
        && !literal(value)
        && !elements
        && (subjects(old).iter().any(|s| {
            *s == value
                || unconverted(s) == value
                // (A projection of it: `items.Select(i => i.Name)`, `items.map(…)`.)
                || s.strip_prefix(value).is_some_and(|r| {
                    [".Select(", ".map(", ".stream().map("]
                        .iter()
                        .any(|p| r.starts_with(p))
                })
        }) || whole_operand(old, value))
}

/// Checks that compare collections whatever their order (`assertCountEqual`,
/// `match_array`, `ElementsMatch`, `containsExactlyInAnyOrder`, `BeEquivalentTo`,
/// `AreEquivalent`, chai's `members`, a side wrapped in `sorted(…)`).
const UNORDERED: &[&str] = &[
    "assertCountEqual(",
    "assertItemsEqual(",
    "match_array",
    "contain_exactly",
    "ElementsMatch(",
    "ConsistOf(",
    "InAnyOrder",
    "BeEquivalentTo(",
    "AreEquivalent(",
    ".members(",
    "sorted(",
    "Counter(",
    "set(",
    "new Set(",
    ".OrderBy(",
];

/// Checks that compare a collection in order: an exact check of a list literal
/// (`== [`, `toEqual([`, `eq([`, `listOf(`, `List.of(`, `new[]`), or a sequence
/// assertion (`containsExactly`, FluentAssertions' `Equal(…)`, `CollectionAssert.AreEqual`,
/// `assertListEqual`, `shouldContainExactly`).
const ORDERED: &[&str] = &[
    // (Hamcrest's `contains(…)` matcher: in order.)
    ",contains(",
    "==[",
    "== [",
    "toEqual([",
    "equal([",
    "eq([",
    "assert_equal([",
    "assert_equal [",
    "assert_equal[",
    "assertEqual([",
    "listOf(",
    "List.of(",
    "asList(",
    "new[]",
    "[]string{",
    "[]int{",
    "containsExactly",
    "Should().Equal(",
    "AreEqual(",
    "assertListEqual(",
    "shouldContainExactly",
    "assert [",
    "assert[",
    "eq [",
    " eq[",
    // (Ruby's word lists: `eq(%w[Bob Ann])`, canonical `eq%w⟦Bob Ann⟧`.)
    "eq%w",
    "eq%i",
    "eq(%w",
    "eq %w",
    "eq(%i",
    "eq %i",
];

/// Whether an exact check of a collection in order was replaced by one that lets any
/// order through (`assert skus == ["a", "b"]` → `assert sorted(skus) == […]`,
/// `containsExactly` → `containsExactlyInAnyOrder`, `Equal` → `ElementsMatch`).
pub fn order_dropped(old: &str, new: &str) -> bool {
    // (FluentAssertions' `o => o.WithStrictOrdering()` keeps the order.)
    // (Python's set comprehension, `{e.kind for e in events}`, too.)
    let set_comprehension = |k: &str| {
        k.match_indices('{').any(|(at, _)| {
            k[at..]
                .split('}')
                .next()
                .is_some_and(|c| c.contains(" for "))
        })
    };
    let unordered = |k: &str| {
        (UNORDERED.iter().any(|u| k.contains(u)) || set_comprehension(k))
            && !k.contains("WithStrictOrdering")
    };
    // (The same value: `skus` in both, `sorted(skus)` read as `skus`.)
    let bare = |s: &str| -> String {
        let mut s = s.trim();
        for wrap in ["sorted(", "set(", "Counter(", "list(", "new Set("] {
            if let Some(inner) = s.strip_prefix(wrap).and_then(|r| r.strip_suffix(')')) {
                s = inner.trim();
            }
        }
        // (C#'s `ids.OrderBy(x => x)`.)
        if let Some(at) = s.rfind(".OrderBy(")
            && s.ends_with(')')
        {
            s = s[..at].trim();
        }
        if let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}'))
            && inner.contains(" for ")
        {
            s = inner.trim();
        }
        // (A list comprehension is its generator: `[x.id for x in xs]`, `sorted(x.id
        // for x in xs)`.)
        if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']'))
            && inner.contains(" for ")
        {
            s = inner.trim();
        }
        s.to_string()
    };
    let values = |k: &str| -> Vec<String> {
        // (`assert[…]==x` squeezed: the sides of the comparison.)
        let mut sides = subjects(k);
        if sides.is_empty()
            && let Some(body) = k.strip_prefix("assert")
            && body.starts_with(['[', '('])
        {
            sides = compared(body);
        }
        sides
            .into_iter()
            .map(bare)
            .filter(|s| !literal(s))
            .collect()
    };
    // (A key without its receiver, `.Should().Equal("a","b")`: the same elements
    // expected.)
    let strings = |k: &str| -> Vec<String> {
        let mut out: Vec<String> = k
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        out.sort();
        out
    };
    // (Go's slice literals of any element type: `[]int64{`, `[]*Node{`.)
    let go_slice = |k: &str| {
        k.match_indices("[]").any(|(at, _)| {
            let rest = &k[at + 2..];
            let name = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '*')))
                .unwrap_or(rest.len());
            name > 0 && rest[name..].starts_with('{')
        })
    };
    // (Nothing read as a value, `xs shouldContainExactly listOf(…)` keyed from the
    // matcher: the same text but for the words that drop the order.)
    let same_but_order = || {
        ["InAnyOrder", "ElementsMatch"].iter().any(|u| {
            new.contains(u)
                && [new.replacen(u, "", 1), new.replacen(u, "Equal", 1)].contains(&old.to_string())
        })
    };
    let (vo, vn) = (values(old), values(new));
    !unordered(old)
        && unordered(new)
        // (Or an expected order built on purpose: `eq(orders.map(&:id).reverse)`.)
        && (ORDERED.iter().any(|o| old.contains(o)) || go_slice(old) || old.contains(".reverse"))
        && (vo.iter().any(|v| vn.contains(v))
            || (vo.is_empty()
                && vn.is_empty()
                && ((!strings(old).is_empty() && strings(old) == strings(new))
                    || same_but_order())))
}

/// The operands of a condition joined by `op` (`||`, `&&`) outside brackets and
/// strings.
fn split_condition<'c>(cond: &'c str, op: &str) -> Vec<&'c str> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in top_level(cond) {
        if i >= start && cond[i..].starts_with(op) {
            out.push(cond[start..i].trim());
            start = i + op.len();
        }
    }
    out.push(cond[start..].trim());
    out
}

/// The digits a closeness check compares: jest's `toBeCloseTo(x, n)` (2 by default),
/// Python's `assertAlmostEqual(a, b, places=n)` (7 by default); with the rest of the
/// check (the text before the call and the other arguments).
fn close_digits(key: &str) -> Option<(i64, (&str, Vec<&str>))> {
    let (call, default, nth) = [(".toBeCloseTo(", 2, 1), ("assertAlmostEqual(", 7, 2)]
        .into_iter()
        .find(|(c, _, _)| key.contains(c))?;
    let at = key.find(call)? + call.len() - 1;
    let close = crate::weakening::source::matching_close(key.as_bytes(), at)?;
    let mut args: Vec<&str> = split_top(&key[at + 1..close])
        .into_iter()
        .map(str::trim)
        .collect();
    let place = args
        .iter()
        .position(|a| a.starts_with("places="))
        .or_else(|| (args.len() > nth && !args[nth].contains('=')).then_some(nth));
    let digits = match place {
        Some(i) => args.remove(i).trim_start_matches("places=").parse().ok()?,
        None => default,
    };
    Some((digits, (&key[..at], args)))
}

/// Whether a check checks the kind of a value, not the value (`isinstance(e, E)`,
/// `errors.Is(err, os.ErrPermission)`, `toBeInstanceOf(E)`, `be_a(E)`).
pub fn kind_check(key: &str) -> bool {
    const KINDS: &[&str] = &[
        "isinstance(",
        "assertIsInstance(",
        "errors.Is(",
        "errors.As(",
        "ErrorIs(",
        "ErrorAs(",
        "IsType(",
        "IsType<",
        "BeOfType",
        "IsInstanceOf",
        "toBeInstanceOf(",
        "instanceOf(",
        "isInstanceOf(",
        "assertInstanceOf(",
        "be_a(",
        "be_an(",
        "be_a ",
        "be_an ",
        "be_kind_of",
        "be_an_instance_of",
        "assert_kind_of",
        "assert_instance_of",
    ];
    KINDS.iter().any(|k| key.contains(k))
}

/// Whether `new` lets through what `old` failed on while checking the same values: an
/// expected error widened, or the order dropped. (Such a check is no rewrite of the
/// expectation that covers the old one.)
pub fn widens(old: &str, new: &str) -> bool {
    exception_widened(old, new)
        || order_dropped(old, new)
        || bound_widened(old, new)
        || loosened_in_place(old, new).is_some()
        || (copies_actual(new, &subjects(new), None) && !copies_actual(old, &subjects(old), None))
}

/// How many conditions the argument matcher's predicate has in `old` and in `new`
/// (`match { it.amount == 9200 && it.currency == "EUR" }`, Mockito's `argThat(…)`,
/// Moq's `It.Is<T>(…)`, NSubstitute's `Arg.Is<T>(…)`, mockall's `withf(…)`, gomock's
/// `MatchedBy(…)`), when one side's conditions are all among the other's and the checks
/// read the same before the matcher.
fn matcher_conditions(old: &str, new: &str) -> Option<(usize, usize)> {
    [
        "match{",
        "argThat(",
        "It.Is<",
        "Arg.Is<",
        "withf(",
        "MatchedBy(",
    ]
    .iter()
    .find_map(|matcher| {
        let body = |key: &str| -> Option<(usize, Vec<String>)> {
            let at = key.find(matcher)?;
            let open = at + key[at..].find(['{', '('])?;
            let close = crate::weakening::source::matching_close(key.as_bytes(), open)?;
            let conditions = split_condition(&key[open + 1..close], "&&");
            Some((at, conditions.into_iter().map(String::from).collect()))
        };
        let ((a, was), (b, now)) = (body(old)?, body(new)?);
        let (fewer, more) = if was.len() < now.len() {
            (&was, &now)
        } else {
            (&now, &was)
        };
        (old[..a] == new[..b] && fewer.iter().all(|c| more.contains(c)))
            .then_some((was.len(), now.len()))
    })
}

/// Whether `new` is `old` with conditions added to its argument matcher's predicate:
/// stricter, whatever the words of the condition added (`isNotBlank()`).
pub fn matcher_narrowed(old: &str, new: &str) -> bool {
    matcher_conditions(old, new).is_some_and(|(was, now)| now > was)
}

/// Why node's legacy `assert.equal` is looser than `strictEqual` (not so in a file
/// that imports `assert/strict`, which the caller knows).
pub const LOOSE_EQUALITY: &str = "values now compare with `==`, so a string passes for a number";

/// Whether `new` is `old` with part of what it pins given up, and how: a qualifier of
/// the matcher dropped (`change {…}.by(1)` → `change {…}`, `.with(id)`,
/// `.WithMessage(m)`, `calledOnceWithExactly(a)` → `called`, `toThrowError(E)` →
/// `toThrowError()`, `toHaveAttribute(k, v)` → `toHaveAttribute(k)`), a value
/// replaced by a wildcard (`mock.ANY`, `expect.any(Number)`, `It.IsAny<T>()`), an
/// identity check made an equality (`is` → `==`), or a pattern or searched-for text
/// shortened to a part of itself (`match="quantity must be positive"` →
/// `match="quantity"`, `/\AA-9\z/` → `/A-9/`).
pub fn loosened_in_place(old: &str, new: &str) -> Option<&'static str> {
    if old == new {
        return None;
    }
    // RSpec's message expectation set before the call, checked after it instead
    // (`expect(m).to receive(:x).with(a).once` → `expect(m).to have_received(:x)`): the
    // same check, read for what it gave up.
    if old.contains(" receive(") && new.contains(" have_received(") {
        let now = new.replacen(" have_received(", " receive(", 1);
        return loosened_in_place(old, &now).or_else(|| {
            (old.contains(".with(") && !now.contains(".with(")).then_some(ARGUMENTS_DROPPED)
        });
    }
    // The arguments a call or request had to match dropped, with its count
    // (`expect(a_request(:post, url).with(body: b)).to have_been_made.once` →
    // `expect(a_request(:post, url)).to have_been_made`, `receive(:m).with(a)` →
    // `receive(:m)`).
    if old.contains(".with(") && !new.contains(".with(") && unqualified(old) == unqualified(new) {
        return Some(ARGUMENTS_DROPPED);
    }
    // MockK's `verify(exactly = 1) { … }` → `verify { … }` (at least once): the count
    // dropped, and whatever the block itself loosened.
    for call in ["verify", "coVerify"] {
        if let Some(rest) = old
            .strip_prefix(call)
            .and_then(|r| r.strip_prefix("(exactly="))
            && let Some(body) = rest.split_once(')').map(|(_, b)| b)
            && let Some(now) = new.strip_prefix(call).filter(|b| b.starts_with('{'))
            && body.starts_with('{')
        {
            return if body == now {
                Some("the exact number of calls is no longer checked")
            } else {
                loosened_in_place(&format!("{call}{body}"), new)
            };
        }
    }
    // (A Python raw string compared as the plain one: `match=r"^a: b$"` →
    // `match="a"` is a pattern cut.)
    // (Read only when a quote follows an `r`: most keys have none, and this runs for
    // every pair of a lost and a gained check.)
    let raw =
        |k: &str| k.contains("r\"") || k.contains("r'") || k.contains("R\"") || k.contains("R'");
    if raw(old) || raw(new) {
        let (plain_old, plain_new) = (unraw(old), unraw(new));
        if plain_old != old || plain_new != new {
            return loosened_in_place(&plain_old, &plain_new);
        }
    }
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    // (Back to a character boundary.)
    let mut prefix = prefix;
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let suffix = old[prefix..]
        .bytes()
        .rev()
        .zip(new[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    // (Likewise: two characters may end in the same bytes.)
    let mut suffix = suffix;
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    let removed = &old[prefix..old.len() - suffix];
    let added = &new[prefix..new.len() - suffix];
    let head = &old[..prefix];
    // (Only a change inside one check's arguments or chain: the two share their call
    // and its opening.)
    // (Past the subject of `expect(x)`/`assertThat(x)`: another value is another check.)
    let subject_end = ["expect(", "expect{", "assertThat("]
        .iter()
        .find(|w| old.starts_with(*w))
        .and_then(|w| crate::weakening::source::matching_close(old.as_bytes(), w.len() - 1));
    let local = match subject_end {
        Some(close) => close < prefix,
        None => old.find(['(', '{']).is_some_and(|open| open < prefix),
    };
    if fewer_extracted(old, new) {
        return Some("fewer of its fields are compared");
    }
    // A condition dropped from an argument matcher's predicate (`match { it.amount ==
    // 9200 && it.currency == "EUR" }` → `match { it.currency == "EUR" }`, Mockito's
    // `argThat(…)`, Moq's `It.Is<T>(…)`, NSubstitute's `Arg.Is<T>(…)`, mockall's
    // `withf(…)`): any argument that meets the rest passes.
    if matcher_conditions(old, new).is_some_and(|(was, now)| was > now) {
        return Some("a condition on its argument was dropped");
    }
    // A partial matcher emptied (`hash_including(units: "metric")` →
    // `hash_including({})`, `expect.objectContaining({ id })` → `({})`): it matches
    // any value now.
    if matches!(added, "" | "{}" | "[]")
        && !removed.is_empty()
        && [
            "hash_including(",
            "a_hash_including(",
            "including(",
            "array_including(",
            "a_collection_including(",
            "objectContaining(",
            "arrayContaining(",
        ]
        .iter()
        .any(|m| {
            head.strip_suffix(m)
                .is_some_and(|h| !h.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    {
        return Some("its matcher was emptied, so any value matches");
    }
    // A check of every element made a check of any one (`xs.every(…)` → `xs.some(…)`,
    // `all(…)` → `any(…)`, `allMatch` → `anyMatch`, `.All(` → `.Any(`).
    // (Whole words: `all` and `any` share their `a`.)
    let word_start = head
        .char_indices()
        .rfind(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (whole_removed, whole_added) = (
        old.get(word_start..old.len() - suffix).unwrap_or(""),
        new.get(word_start..new.len() - suffix).unwrap_or(""),
    );
    if matches!(
        (whole_removed, whole_added),
        ("every", "some") | ("all", "any") | ("All", "Any") | ("allMatch", "anyMatch")
    ) && (word_start == 0 || old[..word_start].ends_with(['.', ' ', '(', '!']))
    {
        return Some("it now holds when any one element does, not every element");
    }
    // `rows.single()` fails unless there is exactly one; `rows.first()` takes the first
    // of any number.
    if head.ends_with('.')
        && matches!(removed, "single" | "Single")
        && matches!(added, "first" | "First" | "firstOrNull" | "FirstOrDefault")
    {
        return Some("it no longer fails when there is more than one");
    }
    // A tolerance given to an exact comparison (`Is.EqualTo(x)` → `Is.EqualTo(x).Within(0.5)`).
    if removed.is_empty() && added.starts_with(".Within(") && head.ends_with(')') {
        return Some("a tolerance now lets values near it pass");
    }
    if normalised_actual(old, new, head, removed, added) {
        return Some(
            "the value is normalised first, so what differs in case, spacing or rounding passes",
        );
    }
    // An exact expected value traded for a snapshot file (`expect(f(x)).toBe("…")` →
    // `expect(f(x)).toMatchSnapshot()`): the run that writes the snapshot records
    // whatever the code produces. (An inline snapshot keeps its value in the test.)
    if let Some(close) = subject_end
        && close < prefix
        && &new[close + 1..] == ".toMatchSnapshot()"
        && [".toBe(", ".toEqual(", ".toStrictEqual("]
            .iter()
            .any(|m| old[close + 1..].starts_with(m) && old.len() > close + 1 + m.len() + 1)
    {
        return Some("the expected value now comes from a snapshot file the run writes");
    }
    // Fields left out of a whole-object comparison: AssertJ's recursive comparison
    // `.ignoringFields("total")` (or `.ignoringCollectionOrder()`…), FluentAssertions'
    // `o => o.Excluding(x => x.Total)`, kotest's `shouldBeEqualToIgnoringFields`.
    if removed.is_empty()
        && [".ignoring", ".Excluding(", "IgnoringFields("]
            .iter()
            .any(|w| new.matches(w).count() > old.matches(w).count())
    {
        return Some("a part of the value is left out of the comparison now");
    }
    // (A qualifier dropped from a negated matcher makes it stricter:
    // `not_to raise_error(E)` → `not_to raise_error`.)
    let negated = ["not_to", "to_not", ".not.", "should_not", ".Not", "Not("]
        .iter()
        .any(|n| head.contains(n));
    // (sinon's `calledOnceWithExactly(a)` sits in the subject: `expect(spy.called…)`.)
    let local = local || head.ends_with("called");
    if local && !negated && added.is_empty() && !removed.is_empty() && qualifier(head, removed) {
        return Some("what it pinned is no longer checked");
    }
    // A field dropped from a struct pattern that already allows the rest
    // (`matches!(e, Error::Line { line: 3, .. })` → `Error::Line { .. }`).
    if added.is_empty()
        && (head.starts_with("assert_matches!(") || head.starts_with("assert!(matches!("))
        && head.ends_with(['{', ','])
        && removed.ends_with(',')
        && removed.contains(':')
        && new[prefix..].starts_with("..")
    {
        return Some("a field of the pattern is no longer matched");
    }
    // Go: a condition added to the failure condition (`if got != want {` → `if
    // testing.Verbose() && got != want {`, `!ok || v != 3` → `ok && v != 3`): the check
    // now fails only when it holds too.
    if let (Some(was), Some(now)) = (old.strip_prefix("t.Error("), new.strip_prefix("t.Error("))
        && let (Some(was), Some(now)) = (was.strip_suffix(')'), now.strip_suffix(')'))
    {
        let (any_of, all_of) = (split_condition(was, "||"), split_condition(now, "&&"));
        if all_of.len() > 1
            && split_condition(now, "||").len() == 1
            && all_of.iter().any(|c| any_of.contains(c))
            && all_of.iter().any(|c| !any_of.contains(c))
        {
            return Some("the check now fails only when another condition holds too");
        }
        // A reason to fail dropped (`err == nil || !strings.Contains(err.Error(),
        // "expired")` → `err == nil`): the check fails in fewer cases.
        let now_any = split_condition(now, "||");
        if any_of.len() > now_any.len() && now_any.iter().all(|c| any_of.contains(c)) {
            return Some("one of the conditions it failed on was dropped");
        }
    }
    // FluentAssertions' `.WithMessage("…")` given a `*` wildcard pattern.
    if head.ends_with(".WithMessage(\"")
        && !old[prefix..].split('"').next().unwrap_or("").contains('*')
        && new[prefix..].split('"').next().unwrap_or("").contains('*')
    {
        return Some("the message is now matched by a wildcard pattern");
    }
    // Fewer digits compared: jest's `toBeCloseTo(x, 6)` → `toBeCloseTo(x, 1)`,
    // `assertAlmostEqual(a, b, places=7)` → `places=2`.
    if let (Some((was, a)), Some((now, b))) = (close_digits(old), close_digits(new))
        && now < was
        && a == b
    {
        return Some("fewer digits are compared");
    }
    // JSONAssert's strict comparison turned off (`assertEquals(e, a, true)` → `false`,
    // `JSONCompareMode.STRICT` → `LENIENT`).
    if (head.starts_with("assertEquals(") || head.starts_with("JSONAssert.assertEquals("))
        && ((&old[prefix..] == "true)" && &new[prefix..] == "false)")
            || (head.ends_with("JSONCompareMode.") && old[prefix..].starts_with("STRICT)")))
    {
        return Some("the JSON is no longer compared strictly");
    }
    const WILDCARDS: &[&str] = &[
        "mock.ANY",
        "unittest.mock.ANY",
        "ANY",
        "expect.any(",
        "expect.anything(",
        "expect.stringContaining(",
        "expect.objectContaining(",
        "expect.arrayContaining(",
        "It.IsAny<",
        "Arg.Any<",
        "gomock.Any(",
        "mock.Anything",
        "any_args",
        "anything",
        "any(",
        "anyString(",
        "anyInt(",
        "anyLong(",
        "Mockito.any(",
    ];
    let wild = |text: &str| {
        WILDCARDS.iter().any(|w| {
            text.match_indices(w).any(|(at, _)| {
                let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
                !text[..at].ends_with(word)
                    && (w.ends_with(['(', '<']) || !text[at + w.len()..].starts_with(word))
            })
        })
    };
    // (From the start of the name the change is in: `It.Is<T>(p)` → `It.IsAny<T>()`
    // differ after `It.Is`.)
    let word_start = prefix
        - old[..prefix]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
            .count();
    let (removed_word, added_word) = (
        &old[word_start..old.len() - suffix],
        &new[word_start..new.len() - suffix],
    );
    // A Rust pattern widened to a wildcard (`matches!(r, Err(TokenError::Expired { ..
    // }))` → `matches!(r, Err(_))`): any variant matches there now.
    if (added == "_" || added == "..")
        && removed.len() > 2
        && (head.contains("matches!(") || head.starts_with("assert_matches!("))
        && removed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_:{}(). ,".contains(&b))
    {
        return Some("the pattern now matches any value there");
    }
    // (Not when the call itself changed, `Received().Log(7, 3409)` →
    // `Received().SomeAction(Arg.Any<int>(), …)`: another call, not a value matched
    // by a wildcard, unless the call is the wildcard, `It.Is<T>(p)` → `It.IsAny<T>()`.)
    let callee = |w: &str| w.split('(').next().unwrap_or("").to_string();
    let same_call = callee(removed_word) == callee(added_word)
        || !added_word.contains('(')
        || WILDCARDS.iter().any(|w| added_word.starts_with(w));
    if local && same_call && wild(added_word) && !wild(removed_word) && !removed.is_empty() {
        return Some("a value is now matched by a wildcard");
    }
    // A matcher swapped for its looser sibling (`toHaveBeenLastCalledWith` →
    // `toHaveBeenCalledWith`, `ContainSingle` → `Contain`, `.once` → `.at_least`).
    let (was, now) = (
        callee_leaf(&old[word_start..]),
        callee_leaf(&new[word_start..]),
    );
    if was != now
        && LOOSER
            .iter()
            .any(|(strict, loose)| *strict == was && *loose == now)
    {
        return Some("its looser form lets more through");
    }
    // FluentAssertions' `o => o.WithStrictOrdering()` dropped.
    if removed.contains("WithStrictOrdering") && !added.contains("WithStrictOrdering") {
        return Some("the order is no longer checked");
    }
    // A whole-value comparison told to leave parts out (`cmp.Diff(want, got)` → `+
    // cmpopts.IgnoreFields(…)`, FluentAssertions' `o => o.Excluding(…)`, AssertJ's
    // `.ignoringFields(…)`, an insta redaction `{ ".fee" => "[fee]" }`): those parts
    // are no longer compared.
    const EXCLUDING: &[&str] = &[
        "Excluding(",
        "ExcludingMissingMembers(",
        "WithoutStrictOrdering(",
        "cmpopts.Ignore",
        "cmpopts.EquateApprox",
        "cmpopts.SortSlices(",
        "ignoringFields",
        "ignoringCollectionOrder",
        "ignoringActualNullFields",
        "ignoringExpectedNullFields",
        "exclude_paths=",
        "exclude_regex_paths=",
        "exclude_types=",
    ];
    let redaction = head.ends_with("_snapshot!(")
        || (head.contains("_snapshot!(") && added.starts_with(",{") && added.contains("=>"));
    if removed.is_empty()
        && (EXCLUDING
            .iter()
            .any(|e| added.contains(e) && !old.contains(e))
            || (redaction && added.contains("=>")))
    {
        return Some("parts of the value are no longer compared");
    }
    // `toMatchSnapshot()` → `toMatchSnapshot({ totals: expect.any(Object) })`.
    if removed.is_empty()
        && (head.ends_with("toMatchSnapshot(") || head.ends_with("toMatchInlineSnapshot("))
        && wild(added)
    {
        return Some("a part of the snapshot is now matched by a wildcard");
    }
    // `assert!(x.is_err())` → `assert!(x.is_err() || cut >= 4)`: an alternative that
    // lets the check pass.
    // (At the top of the condition: Python's `assert c`, or the first argument of
    // `assert!(c)`, `assertTrue(c)`; not inside an operand, `== (a if x or y else b)`.
    // Not Go's `if c { t.Error(…) }`, keyed by the condition that fails.)
    let depth = head.bytes().fold(0i32, |d, c| match c {
        b'(' | b'[' | b'{' => d + 1,
        b')' | b']' | b'}' => d - 1,
        _ => d,
    });
    let top = if head.starts_with("assert ") { 0 } else { 1 };
    if removed.is_empty()
        && (added.starts_with("||") || added.starts_with(" or ") || added.starts_with("or "))
        && depth == top
        && !head.contains("||")
        && !head.contains(" or ")
        && !["t.Error(", "t.Fatal(", "t.Fail("]
            .iter()
            .any(|f| head.starts_with(f))
        && balanced(added.trim_start_matches("||").trim_start_matches(" or "))
    {
        return Some("an alternative now lets it pass");
    }
    // Go: `if got != want && !flaky { t.Error(…) }`: a condition that must also hold
    // before the test fails.
    if removed.is_empty()
        && added.starts_with("&&")
        && depth == 1
        && !head.contains("&&")
        && ["t.Error(", "t.Fatal(", "t.Fail("]
            .iter()
            .any(|f| head.starts_with(f))
        && balanced(&added[2..])
    {
        return Some("it now fails only when another condition holds too");
    }
    // (`assert x is v` → `assert x == v`, `assertIs(x, v)` → `assertEqual(x, v)`.)
    let nospace = |t: &str| t.replace(' ', "");
    if let Some((left, right)) = new.split_once("==")
        && nospace(old) == format!("{}is{}", nospace(left), nospace(right))
        && !right.trim().starts_with("None")
    {
        return Some("the identity of the value is no longer checked");
    }
    if old.starts_with("self.assertIs(")
        && new.strip_prefix("self.assertEqual(") == old.strip_prefix("self.assertIs(")
    {
        return Some("the identity of the value is no longer checked");
    }
    // node's `assert.deepStrictEqual(a, b)` → `assert.deepEqual(a, b)`, `strictEqual` →
    // `equal`: the legacy methods compare with `==` (`'42'` passes for `42`).
    for (strict, loose) in [
        ("assert.deepStrictEqual(", "assert.deepEqual("),
        ("assert.strictEqual(", "assert.equal("),
    ] {
        // (Not a boolean compared with a boolean: `assert.equal(h.hasOwnProperty(k),
        // false)` is as strict as it was.)
        let boolean = |args: &str| {
            let parts = split_top(args.strip_suffix(')').unwrap_or(args));
            // (In either order: the operands of a symmetric check are sorted.)
            parts.len() == 2
                && parts.iter().any(|e| matches!(e.trim(), "true" | "false"))
                && parts.iter().any(|a| {
                    [
                        ".hasOwnProperty(",
                        ".includes(",
                        ".has(",
                        ".startsWith(",
                        ".endsWith(",
                        "Array.isArray(",
                        ".test(",
                        ".every(",
                        ".some(",
                    ]
                    .iter()
                    .any(|m| a.contains(m))
                        && a.ends_with(')')
                })
        };
        if let Some(args) = old.strip_prefix(strict)
            && new.strip_prefix(loose) == Some(args)
            && !boolean(args)
        {
            return Some(LOOSE_EQUALITY);
        }
    }
    // node's `assert.rejects(p, { name, message })` → `assert.rejects(p, Error)`: any
    // error passes.
    for call in ["assert.throws(", "assert.rejects("] {
        let args = |k: &str| -> Option<Vec<String>> {
            let a = k.strip_prefix(call)?.strip_suffix(')')?;
            Some(split_top(a).iter().map(|p| p.trim().to_string()).collect())
        };
        if let (Some(a), Some(b)) = (args(old), args(new))
            && a.len() >= 2
            && b.len() >= 2
            && a[0] == b[0]
            && a[1].starts_with(['{', '/', '"', '\''])
            && b[1] == "Error"
        {
            return Some("any error now passes");
        }
    }
    // Jest's `toStrictEqual(v)` → `toEqual(v)`: undefined properties, sparse arrays
    // and class types no longer compared (not so for a primitive).
    if let Some(at) = old.find(").toStrictEqual(")
        && let Some(rest) = new.strip_prefix(&old[..at])
        && rest.strip_prefix(").toEqual(") == Some(&old[at + ").toStrictEqual(".len()..])
        && !old[at + ").toStrictEqual(".len()..]
            .strip_suffix(')')
            .is_some_and(|v| {
                matches!(v, "true" | "false" | "null" | "undefined")
                    || v.starts_with(['"', '\'', '`'])
                    || v.parse::<f64>().is_ok()
            })
    {
        return Some("undefined properties and class types are no longer compared");
    }
    // Rails' `have_http_status(:created)` → `(:success)`: any code of the class.
    let status = |t: &str| format!(":{}", t.trim_start_matches(':'));
    if (head.ends_with("have_http_status(") || head.ends_with("have_http_status(:"))
        && !removed.is_empty()
        && [
            ":success",
            ":successful",
            ":redirect",
            ":error",
            ":server_error",
            ":client_error",
        ]
        .contains(&status(added).as_str())
        && !removed.starts_with(['"', '\''])
    {
        return Some("any status of its class now passes");
    }
    // Python's `assert await ready()` → `assert ready()`: a coroutine is always true.
    if let Some(awaited) = old.strip_prefix("assert await ")
        && new.strip_prefix("assert ") == Some(awaited)
    {
        return Some("the coroutine is no longer awaited, and is always true");
    }
    if let Some(why) = narrowed_to_presence(old, new)
        .or_else(|| more_exceptions(head, removed, added))
        .or_else(|| {
            // (Go's `// Output:` made `// Unordered output:`.)
            (new.strip_prefix("Unordered") == Some(old) && old.starts_with("Output("))
                .then_some("the order is no longer checked")
        })
    {
        return Some(why);
    }
    // An exact text made a search for a part of it (`hasMessage("unknown sku: KIWI")` →
    // `hasMessageContaining("KIWI")`, `StartsWith(m, "line 3: bad")` → `Contains(m, "bad")`).
    for (exact, search) in EXACT_TO_SEARCH {
        if new.contains(search) && !old.contains(search) && old.contains(exact) {
            let back = new.replacen(search, exact, 1);
            if back == old || text_cut(old, &back) {
                return Some("only a part of the text is checked now");
            }
        }
    }
    // A pattern or searched-for text cut to a part of itself: one literal differs.
    let (a, b) = (literals(old), literals(new));
    if a.len() == b.len() && shape(old) == shape(new) {
        let differing: Vec<usize> = (0..a.len())
            .filter(|&i| old[a[i].0.clone()] != new[b[i].0.clone()])
            .collect();
        if let [i] = differing[..]
            && !a[i].1
        {
            let (was, now) = (&old[a[i].0.clone()], &new[b[i].0.clone()]);
            let pattern = was.starts_with('/');
            let inner = |t: &str| -> String {
                let t = &t[1..t.len().saturating_sub(1).max(1)];
                t.trim_start_matches("\\A")
                    .trim_start_matches('^')
                    .trim_end_matches("\\z")
                    .trim_end_matches("\\Z")
                    .trim_end_matches('$')
                    .to_string()
            };
            // (An exact text made a pattern: `output("name count\n")` → `output(/alpha/)`,
            // `raise_error(E, "m")` → `raise_error(E, /m/)`.)
            let exact_text = [
                "output(",
                "raise_error(",
                "assert_output(",
                "must_output(",
                "assert.throws(",
                "assert.rejects(",
            ]
            .iter()
            .any(|c| old[..a[i].0.start].contains(c));
            let anchored = now.starts_with("/\\A") || now.starts_with("/^");
            if exact_text && was.starts_with(['"', '\'']) && now.starts_with('/') && !anchored {
                return Some("a pattern now stands for the exact text");
            }
            let (was_in, now_in) = (inner(was), inner(now));
            // An alternative added to a pattern (`toHaveURL(/\/dashboard$/)` →
            // `toHaveURL(/dashboard|login/)`): what it matched, or another text.
            // (An escaped `\|` is a pipe to match, not an alternative.)
            let alternatives = |t: &str| -> Vec<String> {
                let mut out = vec![String::new()];
                let mut chars = t.chars();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(next) = chars.next()
                                && let Some(last) = out.last_mut()
                            {
                                last.push(next);
                            }
                        }
                        '|' => out.push(String::new()),
                        c => {
                            if let Some(last) = out.last_mut() {
                                last.push(c);
                            }
                        }
                    }
                }
                out
            };
            let (was_alts, now_alts) = (alternatives(&was_in), alternatives(&now_in));
            if pattern
                && now.starts_with('/')
                && was_alts.len() == 1
                && now_alts.len() > 1
                && now_alts.iter().any(|alt| {
                    alt.chars().any(char::is_alphanumeric) && was_alts[0].contains(alt.as_str())
                })
            {
                return Some(PATTERN_CUT);
            }
            let searching = pattern || SEARCHES.iter().any(|s| old[..a[i].0.start].contains(s));
            // (Not a message's final punctuation going with the code's: `'UNKNOWN'.` →
            // `'UNKNOWN'`.)
            let cut = was_in.replacen(now_in.as_str(), "", 1);
            // (Not a line cut from an expected text of several lines, an output that
            // changed: `contains("""\n-if class A\n-keep…""")`.)
            let lines = was.contains('\n') || old.contains("\"\"\"") || old.contains("\'\'\'");
            if searching
                && !lines
                && now.len() < was.len()
                && !now_in.is_empty()
                && was_in.contains(now_in.as_str())
                && (cut.chars().any(|c| c.is_alphanumeric()) || (pattern && was_in == now_in))
            {
                return Some(PATTERN_CUT);
            }
        }
    }
    None
}

/// Why a searched-for text or pattern cut to a part of itself is looser.
pub const PATTERN_CUT: &str = "the pattern lets more through";

/// Why [`loosened_in_place`] reads a `.with(…)` argument matcher dropped.
pub const ARGUMENTS_DROPPED: &str = "the arguments it had to match are no longer checked";

/// The text of the one literal that differs between two checks, as it was, when it
/// is a plain name (`contains("CookieServlet")` → `contains("Cookie")`: `CookieServlet`).
pub fn cut_name<'k>(old: &'k str, new: &str) -> Option<&'k str> {
    let (a, b) = (literals(old), literals(new));
    if a.len() != b.len() {
        return None;
    }
    let mut differing = (0..a.len()).filter(|&i| old[a[i].0.clone()] != new[b[i].0.clone()]);
    let (i, None) = (differing.next()?, differing.next()) else {
        return None;
    };
    let was = &old[a[i].0.clone()];
    let name = was.get(1..was.len().saturating_sub(1))?;
    (name.len() > 2
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
    .then_some(name)
}

/// Matchers of a whole text, and matchers that search it for a part.
const EXACT_TO_SEARCH: &[(&str, &str)] = &[
    ("re.fullmatch(", "re.search("),
    ("re.fullmatch(", "re.match("),
    ("re.match(", "re.search("),
    ("hasMessage(", "hasMessageContaining("),
    ("hasMessage(", "hasMessageStartingWith("),
    ("hasMessage(", "hasMessageEndingWith("),
    ("StartsWith(", "Contains("),
    ("EndsWith(", "Contains("),
    ("shouldBe ", "shouldContain "),
    ("shouldBe ", "shouldStartWith "),
    ("shouldStartWith ", "shouldContain "),
    ("shouldEndWith ", "shouldContain "),
    ("isEqualTo(", "contains("),
    ("isEqualTo(", "startsWith("),
    ("Is.EqualTo(", "Does.Contain("),
    ("Is.EqualTo(", "Does.StartWith("),
    (".Be(", ".Contain("),
    (".Be(", ".StartWith("),
    ("toBe(", "toContain("),
    ("toEqual(", "toContain("),
    ("to eq(", "to include("),
    ("to eq(", "to start_with("),
    ("Assert.Equal(", "Assert.StartsWith("),
    ("Assert.Equal(", "Assert.EndsWith("),
    ("Assert.Equal(", "Assert.Contains("),
];

/// `key` with Python's raw-string prefix dropped from its literals (`r"\d+"` → `"\d+"`).
fn unraw(key: &str) -> String {
    let b = key.as_bytes();
    let mut out = String::with_capacity(key.len());
    for (i, c) in key.char_indices() {
        let raw_prefix = matches!(c, 'r' | 'R')
            && matches!(b.get(i + 1), Some(b'"' | b'\''))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        if !raw_prefix {
            out.push(c);
        }
    }
    out
}

/// Whether `new` is `old` with one string literal cut to a part of itself.
fn text_cut(old: &str, new: &str) -> bool {
    let (a, b) = (literals(old), literals(new));
    if a.len() != b.len() || shape(old) != shape(new) {
        return false;
    }
    let differing: Vec<usize> = (0..a.len())
        .filter(|&i| old[a[i].0.clone()] != new[b[i].0.clone()])
        .collect();
    let [i] = differing[..] else {
        return false;
    };
    let (was, now) = (&old[a[i].0.clone()], &new[b[i].0.clone()]);
    let inner = |t: &str| {
        t.get(1..t.len().saturating_sub(1))
            .unwrap_or("")
            .to_string()
    };
    let (was_in, now_in) = (inner(was), inner(now));
    !a[i].1
        && was.starts_with(['"', '\''])
        && !now_in.is_empty()
        && now_in.len() < was_in.len()
        && was_in.contains(now_in.as_str())
}

/// For an exact check of a value against a literal of several fields or items
/// (`cache.stats() == {"hits": 2, "misses": 1}`, `Equal(t, Widget{ID: "w2", …}, got)`,
/// `expect(q.stats()).toEqual({…})`) and a check of one part of that value
/// (`cache.stats()["hits"] == 2`, `got.ID`, `[r["sku"] for r in rows]`): the value and
/// how many fields its literal had. The caller counts how many parts are still checked.
pub fn part_for_whole<'k>(old: &'k str, new: &str) -> Option<(&'k str, usize)> {
    let old = unrepeated(old);
    let fields = |text: &str| -> Option<usize> {
        let t = text.trim().trim_start_matches('&');
        let body_at = t.find(['{', '['])?;
        let head = &t[..body_at];
        if !head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ' '))
            || head.starts_with("new ")
        {
            return None;
        }
        let close = crate::weakening::source::matching_close(t.as_bytes(), body_at)?;
        if close != t.len() - 1 {
            return None;
        }
        let n = split_top(&t[body_at + 1..close]).len();
        (n >= 2).then_some(n)
    };
    let sides = sides_of(old);
    // The literal: an operand, or the argument of the exact matcher.
    let matcher_arg = [
        ".toEqual(",
        ".toStrictEqual(",
        ".isEqualTo(",
        ".eql(",
        ".equal(",
        "to eq(",
    ]
    .iter()
    .find_map(|m| {
        let at = old.find(m)? + m.len() - 1;
        let close = crate::weakening::source::matching_close(old.as_bytes(), at)?;
        Some(&old[at + 1..close])
    });
    let (value, n) = if let Some(arg) = matcher_arg {
        (*sides.first()?, fields(arg)?)
    } else {
        let (lit, n) = sides.iter().find_map(|s| Some((*s, fields(s)?)))?;
        (*sides.iter().find(|s| **s != lit && !literal(s))?, n)
    };
    if value.is_empty() || literal(value) {
        return None;
    }
    checks_part_of(new, value).then_some((value, n))
}

/// The operands of a check (`subjects`), also of a squeezed `assert[…]==x`.
fn sides_of(key: &str) -> Vec<&str> {
    let sides = subjects(key);
    match unrepeated(key).strip_prefix("assert") {
        Some(body) if sides.is_empty() && body.starts_with(['[', '(', '{']) => compared(body),
        _ => sides,
    }
}

/// Whether `key` checks a part of `value` (see [`part_for_whole`]).
pub fn checks_part_of(key: &str, value: &str) -> bool {
    sides_of(key).iter().any(|p| {
        p.len() > value.len()
            && (p
                .strip_prefix(value)
                .is_some_and(|rest| rest.starts_with(['.', '[']))
                || p.contains(&format!(" in {value}"))
                || p.contains(&format!(" of {value}")))
    })
}

/// Matchers that only say a value is there (squeezed, as a check's key ends).
const PRESENCE: &[&str] = &[
    ".isPresent()",
    ".isNotEmpty()",
    ".isNotNull()",
    ".to be_present",
    ".not_to be_nil",
    ".to_not be_nil",
    ".toBeDefined()",
    ".toBeTruthy()",
    ".not.toBeNull()",
    ".not.toBeUndefined()",
    ".toBeInTheDocument()",
    ".toBeVisible()",
    ".Should().NotBeNull()",
    ".Should().NotBeEmpty()",
    ".shouldNotBeNull()",
    ".shouldNotBeEmpty()",
    ".shouldNotBeBlank()",
    ".to.exist",
    ".to.be.ok",
];

/// A check of what a value is (`assertThat(find(id)).contains(stored)`, `expect(errors).to
/// include("…")`, `expect(await findByRole('alert')).toHaveTextContent(m)`) made a check
/// that it is there at all (`.isPresent()`, `be_present`, a bare `findByRole('alert')`).
fn narrowed_to_presence(old: &str, new: &str) -> Option<&'static str> {
    let why = "only its presence is checked now";
    if let Some(base) = PRESENCE.iter().find_map(|p| new.strip_suffix(p))
        && base.len() > "expect(".len()
        && let Some(rest) = old.strip_prefix(base)
        && !PRESENCE.iter().any(|p| old.ends_with(p))
        && (rest.contains(['(', ' ']) && !rest.ends_with("()"))
    {
        return Some(why);
    }
    // (A bare Testing Library query only says the element is there.)
    let query = new.strip_prefix("await").unwrap_or(new).trim_start();
    let bare_query = query
        .strip_prefix("screen.")
        .unwrap_or(query)
        .split('(')
        .next()
        .is_some_and(|name| {
            (name.starts_with("getBy") || name.starts_with("findBy"))
                && name.len() > 5
                && query.ends_with(')')
        });
    if bare_query && old.contains(query) && old.len() > query.len() + ")".len() {
        return Some(why);
    }
    // `expect(result.success).toBe(false)` → `expect(result).toHaveProperty('success')`.
    if let Some(close) = new
        .starts_with("expect(")
        .then(|| crate::weakening::source::matching_close(new.as_bytes(), "expect(".len() - 1))
        .flatten()
        && let Some(name) = new[close + 1..]
            .strip_prefix(".toHaveProperty(")
            .and_then(|r| r.strip_suffix(')'))
            .filter(|n| n.len() > 2 && n.starts_with(['\'', '"']) && !n.contains(','))
        && let Some(rest) =
            old.strip_prefix(&format!("{}.{})", &new[..close], &name[1..name.len() - 1]))
        && [".toBe(", ".toEqual(", ".toStrictEqual("]
            .iter()
            .any(|m| rest.starts_with(m))
    {
        return Some(why);
    }
    text_for_nonempty(old, new).then_some("only that some text is there is checked now")
}

/// An exact status code given up for its class (`Assert.Equal(HttpStatusCode.BadRequest,
/// response.StatusCode)` → `Assert.False(response.IsSuccessStatusCode)`, `assert
/// r.status_code == 404` → `assert not r.ok`): any status of that class now passes.
pub fn status_for_class(old: &str, new: &str) -> bool {
    const CODES: &[&str] = &[".StatusCode", ".status_code", ".statusCode", ".status"];
    const CLASSES: &[&str] = &[
        ".IsSuccessStatusCode",
        ".is_success()",
        ".is_client_error()",
        ".is_server_error()",
        ".is2xxSuccessful()",
        ".is4xxClientError()",
        ".is5xxServerError()",
        ".ok",
        ".successful?",
        ".success?",
        ".client_error?",
        ".server_error?",
        ".is_error",
    ];
    let receiver = |key: &str, marks: &[&str]| -> Option<String> {
        marks.iter().find_map(|m| {
            key.match_indices(m)
                .map(|(at, _)| at)
                .find(|&at| {
                    !key[at + m.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
                .map(|at| key[trailing_word_start(&key[..at])..at].to_string())
        })
    };
    matches!(
        (receiver(old, CODES), receiver(new, CLASSES)),
        (Some(a), Some(b)) if !a.is_empty() && a == b
    ) && receiver(new, CODES).is_none()
}

/// Whether an exact check's expected value is built from the value it checks: the
/// actual spread into it (`toEqual({ ...summary, id: 'o-1' })`, `{**plan, "replicas":
/// 3}`), copied (`expected with { Vat = summary.Vat }`, `summary.copy(id = 1)`), or
/// a name assigned so in `code` (`expected = {**plan, …}` then `assert plan ==
/// expected`). What it copies is compared with itself: only the rest is checked.
pub fn copies_actual(key: &str, subjects: &[impl AsRef<str>], code: Option<&str>) -> bool {
    let plain = |s: &str| {
        !s.is_empty()
            && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '@')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@'))
    };
    let copied = |text: &str, actual: &str| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        ["...", "**"].iter().any(|spread| {
            text.match_indices(&format!("{spread}{actual}"))
                .any(|(at, m)| !text[at + m.len()..].starts_with(|c: char| word(c) || c == '.'))
        }) || [
            format!("={actual}."),
            format!(":{actual}."),
            format!("{actual}.copy("),
        ]
        .iter()
        .any(|p| text.contains(p.as_str()))
    };
    let names: Vec<&str> = subjects
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| plain(s))
        .collect();
    names.iter().any(|actual| {
        let rest = key.replacen(actual, "", 1);
        copied(&rest, actual)
            || code.is_some_and(|code| {
                // (A name the check compares, assigned from a copy of the actual.)
                names.iter().filter(|n| *n != actual).any(|name| {
                    code.match_indices(&format!("{name}=")).any(|(at, m)| {
                        !code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                            && !code[at + m.len()..].starts_with('=')
                            && copied(
                                code[at + m.len()..].split(['\n', ';']).next().unwrap_or(""),
                                actual,
                            )
                    })
                })
            })
    })
}

/// Bounds that hold for any non-empty value: a length or count above zero (squeezed,
/// as a check's key ends).
const NONEMPTY: &[&str] = &[
    ".toBeGreaterThan(0)",
    ".toBeGreaterThanOrEqual(1)",
    ".not.toHaveLength(0)",
    ".not.toBe('')",
    ".not.toBe(\"\")",
    ".isGreaterThan(0)",
    ".isPositive()",
    "to be_positive",
    ".to be > 0",
    ">0",
    ">=1",
    "!=0",
];

/// A searched-for text (`toContainText('Your card was declined')`, `have_content("…")`)
/// given up for a bound that any text passes: the same element's text length above
/// zero (`expect.poll(… textContent())?.length).toBeGreaterThan(0)`).
fn text_for_nonempty(old: &str, new: &str) -> bool {
    let Some(close) = old
        .starts_with("expect(")
        .then(|| crate::weakening::source::matching_close(old.as_bytes(), "expect(".len() - 1))
        .flatten()
    else {
        return false;
    };
    let (subject, matcher) = (&old["expect(".len()..close], &old[close..]);
    let searched = SEARCHES.iter().any(|s| matcher.contains(s))
        && literals(matcher)
            .iter()
            .any(|(r, numeric)| !numeric && matcher[r.clone()].chars().any(char::is_alphanumeric));
    searched
        && subject.len() > 2
        && NONEMPTY.iter().any(|b| new.ends_with(b))
        && new.contains(subject)
        && string_literals(new).iter().all(|l| subject.contains(l))
}

/// The fields an AssertJ `extracting(…)` reads, when it names them
/// (`extracting(Line::sku, Line::qty)`, `extracting("sku", "qty")`).
fn extracted(key: &str) -> Option<(&str, Vec<&str>)> {
    let at = key.find(".extracting(")?;
    let open = at + ".extracting(".len() - 1;
    let close = crate::weakening::source::matching_close(key.as_bytes(), open)?;
    Some((
        &key[..at],
        split_top(&key[open + 1..close])
            .into_iter()
            .map(str::trim)
            .collect(),
    ))
}

/// AssertJ's `extracting(sku, qty, unitPrice)` cut to fewer of the same fields: the
/// ones left out are no longer compared.
fn fewer_extracted(old: &str, new: &str) -> bool {
    let (Some((subject, was)), Some((same, now))) = (extracted(old), extracted(new)) else {
        return false;
    };
    subject == same && now.len() < was.len() && now.iter().all(|f| was.contains(f))
}

/// Calls that map a value to a coarser one (case, surrounding whitespace, rounding):
/// applied to the value checked, values that differ only there pass.
const NORMALISERS: &[&str] = &[
    ".lower()",
    ".upper()",
    ".casefold()",
    ".strip()",
    ".toLowerCase()",
    ".toUpperCase()",
    ".toLocaleLowerCase()",
    ".trim()",
    ".to_lowercase()",
    ".to_uppercase()",
    ".to_ascii_lowercase()",
    ".to_ascii_uppercase()",
    ".ToLower()",
    ".ToLowerInvariant()",
    ".ToUpper()",
    ".ToUpperInvariant()",
    ".Trim()",
    ".lowercase()",
    ".uppercase()",
    ".downcase",
    ".upcase",
    "strings.ToLower(",
    "strings.ToUpper(",
    "strings.TrimSpace(",
    "strings.EqualFold(",
    "Math.round(",
    "Math.floor(",
    "Math.trunc(",
    "Math.Round(",
    "round(",
];

/// The value checked passed through a normaliser the expected value does not get
/// (`expect(u)` → `expect({ ...u, email: u.email.toLowerCase() })`, `assert name ==
/// "ada"` → `assert name.lower() == "ada"`): the check against the same literal now
/// lets through what differs in case, whitespace or rounding.
fn normalised_actual(old: &str, new: &str, head: &str, removed: &str, added: &str) -> bool {
    normalised_both(old, new) || normalised_one(old, head, removed, added)
}

/// The case normaliser on the value checked, with the expected literal written in that
/// case too (`expect(t.title).toBe('Order A-17')` → `expect(t.title.toLowerCase()).toBe('order
/// a-17')`): values that differ only in case still pass.
fn normalised_both(old: &str, new: &str) -> bool {
    [
        ".lower()",
        ".casefold()",
        ".toLowerCase()",
        ".to_lowercase()",
        ".ToLower()",
        ".ToLowerInvariant()",
        ".lowercase()",
        ".downcase",
    ]
    .iter()
    .any(|n| {
        // (Only a check that gained the call is rebuilt without it.)
        new.matches(n).count() == 1 && !old.contains(n) && {
            let back = new.replacen(n, "", 1);
            back != old && back.to_lowercase() == old.to_lowercase()
        }
    })
}

/// The normaliser added on the value checked alone, the expected literal unchanged
/// (`assert name == "ada"` → `assert name.lower() == "ada"`).
fn normalised_one(old: &str, head: &str, removed: &str, added: &str) -> bool {
    let top_level = |t: &str| {
        split_top(t).len() == 1 && !["==", "!=", "<", ">"].iter().any(|op| t.contains(op))
    };
    let in_subject = match ["expect(", "assertThat("]
        .iter()
        .find(|w| old.starts_with(*w))
    {
        Some(w) => crate::weakening::source::matching_close(old.as_bytes(), w.len() - 1)
            .is_some_and(|close| head.len() + removed.len() <= close),
        None => head.starts_with("assert ") || head.starts_with("assert_eq!("),
    };
    in_subject
        && super::balanced(added)
        && super::balanced(removed)
        && top_level(added)
        && (removed.is_empty() || added.contains(removed))
        && NORMALISERS
            .iter()
            .any(|n| added.contains(n) && !removed.contains(n) && !head.ends_with(n))
        // (Against a literal written out: `toBe('ada@example.com')`, `assert_eq!("3", …)`.)
        && literals(old)
            .iter()
            .any(|(r, _)| r.end <= head.len() || r.start >= head.len() + removed.len())
}

/// A call expecting an error given more types to accept (`assert_raises(A)` →
/// `assert_raises(A, B)`, `raises(E)` → `raises((E, Other))`), or xUnit's
/// `Assert.Throws<E>` made `Assert.ThrowsAny<…>` (which also takes derived types).
fn more_exceptions(head: &str, removed: &str, added: &str) -> Option<&'static str> {
    let why = "another exception type now passes too";
    if head.ends_with("Throws") && added.starts_with("Any") {
        return Some(why);
    }
    let expecting = [
        "raises(",
        "assert_raises",
        "assertRaises(",
        "raise_error(",
        "rescue",
    ]
    .iter()
    .any(|c| head.contains(c));
    if !expecting {
        return None;
    }
    let types = |t: &str| -> Vec<String> {
        let t = t.trim_start_matches([',', ' ']);
        let t = t
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t);
        t.split(',')
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect()
    };
    // (A new argument, `A` → `A, B`, or a tuple, `E` → `(E, Other)`; not a type renamed
    // or a `match=` changed.)
    let shaped = (removed.is_empty() && added.starts_with(','))
        || (added.starts_with('(') && added.ends_with(')') && !removed.is_empty());
    let type_name = |n: &String| {
        n.starts_with(|c: char| c.is_ascii_alphabetic())
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':'))
            && n.rsplit(['.', ':'])
                .next()
                .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let (was, now) = (types(removed), types(added));
    let grown = shaped
        && now.len() > was.len()
        && was.iter().all(|w| now.contains(w))
        && now.iter().all(type_name);
    grown.then_some(why)
}

/// Calls and keywords whose text or pattern argument is searched for, not compared
/// whole: a part of it lets more through.
const SEARCHES: &[&str] = &[
    "match=",
    "toThrow(",
    "toThrowError(",
    "toMatch(",
    "toContain(",
    "toContainText(",
    "assertRaisesRegex",
    "assertRegex",
    "assertIn(",
    "ErrorContains(",
    "Contains(",
    "include(",
    "assert_match",
    "assert_includes",
    "hasMessageContaining(",
    "containsString(",
    "Does.Contain(",
    "WithMessage(",
    "raise_error(",
    "toHaveURL(",
    "toHaveText(",
    "shouldStartWith ",
    "shouldEndWith ",
    "shouldContain ",
    "StartsWith(",
    "EndsWith(",
    "startsWith(",
    "endsWith(",
    "hasMessageStartingWith(",
    "hasMessageEndingWith(",
    "=~",
    " in ",
    "have_content(",
    "have_content ",
    "have_text(",
    "have_text ",
    "assert_text(",
    "assert_content(",
    "toHaveTextContent(",
    "Contain(",
    "StartWith(",
    "EndWith(",
    "contains(",
];

/// Whether `removed`, cut from a check right after `head`, was a qualifier of its
/// matcher (see [`loosened_in_place`]).
fn qualifier(head: &str, removed: &str) -> bool {
    const CHAINED: &[&str] = &[
        "with",
        "by",
        "by_at_least",
        "by_at_most",
        "from",
        "to",
        "once",
        "twice",
        "thrice",
        "exactly",
        "at_least",
        "at_most",
        "times",
        "WithMessage",
        "WithInnerException",
        "WithInnerExceptionExactly",
        "WithParameterName",
        "Where",
        "withMessage",
        "hasMessage",
        "hasMessageContaining",
        "hasCauseInstanceOf",
        "withCauseInstanceOf",
        "to_stdout",
        "to_stderr",
        "inOrder",
        "andExpect",
    ];
    let name_of = |t: &str| -> String {
        t.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    if let Some(rest) = removed.strip_prefix('.')
        && CHAINED.contains(&name_of(rest).as_str())
    {
        return true;
    }
    // sinon's `calledOnceWithExactly('7')` → `called`.
    if head.ends_with("called")
        && ["Once", "Twice", "Thrice", "With"]
            .iter()
            .any(|q| removed.starts_with(q))
    {
        return true;
    }
    // Arguments of a matcher that narrow it: all of them (`output("…")` → `output`,
    // `toThrowError(E)` → `toThrowError()`) or the value after a name
    // (`toHaveAttribute('type', 'password')` → `toHaveAttribute('type')`).
    const NARROWED_BY_ARGS: &[&str] = &[
        "toThrow",
        "toThrowError",
        "throw",
        "throws",
        "toHaveAttribute",
        "toHaveProperty",
        "toHaveClass",
        "toHaveStyle",
        "output",
        "raise_error",
        "raise_exception",
        "throw_symbol",
        "have_http_status",
        "have_attributes",
        "include",
        "have_enqueued_job",
        "have_been_enqueued",
        "receive",
        // Capybara's options (`have_css(".total", text: "$39.99")`, `have_link("Edit",
        // href: "/e")`).
        "have_css",
        "have_selector",
        "have_xpath",
        "have_link",
        "have_button",
        "have_field",
        "have_select",
        "have_table",
    ];
    let callee = |t: &str| -> String {
        let t = t.trim_end_matches('(');
        t[trailing_word_start(t)..].to_string()
    };
    let whole_args = (removed.starts_with('(') && removed.ends_with(')'))
        || (head.ends_with('(') && !removed.contains([')', '('])
            || removed.ends_with(')') && head.ends_with('('));
    // (The call whose arguments the cut is in: the innermost `(` still open.)
    let unclosed = {
        let mut open = Vec::new();
        for (i, c) in head.bytes().enumerate() {
            match c {
                b'(' => open.push(i),
                b')' => {
                    open.pop();
                }
                _ => {}
            }
        }
        open.pop()
    };
    let value_arg = removed.starts_with(',') && unclosed.is_some();
    if whole_args || value_arg {
        let name = if value_arg {
            unclosed.map(|o| callee(&head[..o])).unwrap_or_default()
        } else {
            callee(head)
        };
        return NARROWED_BY_ARGS.contains(&name.as_str());
    }
    false
}
