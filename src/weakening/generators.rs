//! Property tests whose generators were narrowed: `cap in 1usize..64` → `1usize..4`,
//! `Arb.int(1..64)` → `Arb.int(1..5)`, `st.integers(max_value=1000)` → `max_value=9`,
//! `st.text()` → `st.text(alphabet="abc")`. The test and its checks read the same;
//! the inputs it tries are fewer, and a bug outside them passes.
//!
//! Read only in tests that generate their inputs (proptest, quickcheck, Hypothesis,
//! kotest's `Arb`/`checkAll`, fast-check), and only when the two versions differ in
//! nothing but those bounds, or a Hypothesis strategy's constraining arguments.

/// Words that say a test generates its inputs.
const PROPERTY: &[&str] = &[
    "prop::",
    "proptest",
    "any::<",
    "quickcheck",
    "@given(",
    "hypothesis",
    "checkAll(",
    "forAll(",
    "Arb.",
    "fc.assert(",
    "fc.property(",
    "Gen.",
];

/// Hypothesis arguments that keep a strategy to a part of what it generated.
const CONSTRAINING: &[&str] = &[
    "alphabet=",
    "min_codepoint=",
    "max_codepoint=",
    "categories=",
    "whitelist_categories=",
    "blacklist_categories=",
    "exclude_categories=",
    "exclude_characters=",
    "min_value=",
    "max_value=",
    "min_size=",
    "max_size=",
    "allow_nan=False",
    "allow_infinity=False",
    "allow_subnormal=False",
];

/// A bound read in a generator: a range `lo..hi`, or a named minimum or maximum.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    Range(f64, f64),
    Min(f64),
    Max(f64),
}

/// Where the first bound narrowed is written, old and new, when `new` is `old` with
/// generator bounds narrowed (none widened) or constraints added to a strategy.
pub(super) fn narrowed(old: &str, new: &str) -> Option<(Span, Span)> {
    if old == new {
        return None;
    }
    if old.contains("any::<")
        && let Some(spans) = any_to_range(old, new)
    {
        return Some(spans);
    }
    if !PROPERTY.iter().any(|p| new.contains(p)) {
        return None;
    }
    let (a, b) = (bounds(old), bounds(new));
    if blanked(old, &a) == blanked(new, &b) && a.len() == b.len() {
        let mut first = None;
        for ((ra, ba), (rb, bb)) in a.iter().zip(&b) {
            if ba == bb {
                continue;
            }
            let narrower = match (ba, bb) {
                (Bound::Range(lo, hi), Bound::Range(l2, h2)) => l2 >= lo && h2 <= hi,
                (Bound::Min(m), Bound::Min(m2)) => m2 > m,
                (Bound::Max(m), Bound::Max(m2)) => m2 < m,
                _ => false,
            };
            if !narrower {
                return None;
            }
            first.get_or_insert((ra.clone(), rb.clone()));
        }
        return first;
    }
    constrained(old, new)
}

/// proptest's `any::<u64>()` (every value of the type) become a range (`0..128u64`),
/// the one difference between the two: where each is written.
fn any_to_range(old: &str, new: &str) -> Option<(Span, Span)> {
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let start = prefix;
    if !old[start..].starts_with("any::<") {
        return None;
    }
    let close = start + old[start..].find(">()")? + ">()".len();
    let ty = &old[start + "any::<".len()..close - ">()".len()];
    if !matches!(
        ty,
        "u8" | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
    ) {
        return None;
    }
    let rest = &old[close..];
    let new_end = new.len().checked_sub(rest.len())?;
    if new_end < start || &new[new_end..] != rest {
        return None;
    }
    let range = new[start..new_end].trim();
    let (lo, hi) = range.split_once("..")?;
    let number = |t: &str| {
        let t = t.trim_start_matches('=').trim().trim_start_matches('-');
        !t.is_empty()
            && t.starts_with(|c: char| c.is_ascii_digit())
            && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    (number(lo) && number(hi)).then_some((start..close, start..new_end))
}

type Span = std::ops::Range<usize>;
type Read = (Span, Bound);

/// The bounds of `text`, in order, with where each is written.
fn bounds(text: &str) -> Vec<Read> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let number = |at: usize| -> Option<(f64, usize)> {
        let mut end = at;
        if b.get(end) == Some(&b'-') {
            end += 1;
        }
        let digits = end;
        while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'_' || b[end] == b'.') {
            if b[end] == b'.' && b.get(end + 1) == Some(&b'.') {
                break;
            }
            end += 1;
        }
        if end == digits {
            return None;
        }
        let value = text[at..end].replace('_', "").parse().ok()?;
        // (A type suffix: `1usize`, `0u8`, `10L`.)
        while end < b.len() && b[end].is_ascii_alphanumeric() {
            end += 1;
        }
        Some((value, end))
    };
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit()
            || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let Some((lo, end)) = number(i) else {
            i += 1;
            continue;
        };
        let rest = &text[end..];
        let op = ["..=", "..<", "..", " until "]
            .into_iter()
            .find(|op| rest.trim_start().starts_with(op));
        if let Some(op) = op {
            let after = end + (rest.len() - rest.trim_start().len()) + op.len();
            let skip = text[after..].len() - text[after..].trim_start().len();
            if let Some((hi, stop)) = number(after + skip) {
                let hi = if op == "..=" { hi + 1.0 } else { hi };
                out.push((i..stop, Bound::Range(lo, hi)));
                i = stop;
                continue;
            }
        }
        // A named minimum or maximum just before: `max_value=1000`, `maxLength: 8`.
        let before = text[..i].trim_end();
        let before = before
            .strip_suffix('=')
            .or_else(|| before.strip_suffix(':'))
            .map(str::trim_end);
        if let Some(name) = before.map(|s| {
            let start = s
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |p| p + 1);
            &s[start..]
        }) {
            // (A generator's bounds, not a run's settings: `max_examples=500` is how
            // many cases run, read elsewhere.)
            let kind = name
                .to_ascii_lowercase()
                .replace('_', "")
                .replace("codepoint", "value");
            match kind.as_str() {
                "min" | "minvalue" | "minsize" | "minlength" => {
                    out.push((i..end, Bound::Min(lo)));
                }
                "max" | "maxvalue" | "maxsize" | "maxlength" => {
                    out.push((i..end, Bound::Max(lo)));
                }
                _ => {}
            }
        }
        i = end;
    }
    out
}

/// `text` with its bounds blanked.
fn blanked(text: &str, bounds: &[Read]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (r, _) in bounds {
        out.push_str(&text[at..r.start]);
        out.push('#');
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// A Hypothesis strategy given arguments that constrain it (`st.text()` →
/// `st.text(alphabet=…)`), the rest of the test as it was: the strategy as written,
/// old and new.
fn constrained(old: &str, new: &str) -> Option<(Span, Span)> {
    let calls = |t: &str| -> Vec<(usize, usize)> {
        t.match_indices("st.")
            .filter(|(at, _)| *at == 0 || !t.as_bytes()[at - 1].is_ascii_alphanumeric())
            .filter_map(|(at, _)| {
                let open = at + t[at..].find('(')?;
                if !t[at + 3..open]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    return None;
                }
                let close = super::source::matching_close(t.as_bytes(), open)?;
                Some((at, close + 1))
            })
            .collect()
    };
    let (a, b) = (calls(old), calls(new));
    // (Outermost calls only, in order: a strategy nested in another is a part of it.)
    let outer = |v: Vec<(usize, usize)>| -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for c in v {
            if out.last().is_none_or(|l| c.0 >= l.1) {
                out.push(c);
            }
        }
        out
    };
    let (a, b) = (outer(a), outer(b));
    if a.len() != b.len() {
        return None;
    }
    // The rest of the text the same.
    let rest = |t: &str, v: &[(usize, usize)]| -> String {
        let mut out = String::new();
        let mut at = 0;
        for &(s, e) in v {
            out.push_str(&t[at..s]);
            out.push('#');
            at = e;
        }
        out.push_str(&t[at..]);
        out
    };
    if rest(old, &a) != rest(new, &b) {
        return None;
    }
    a.iter().zip(&b).find_map(|(&(s, e), &(s2, e2))| {
        let (was, now) = (&old[s..e], &new[s2..e2]);
        let name = |c: &str| c[..c.find('(').unwrap_or(c.len())].to_string();
        let squeeze = |c: &str| c.split_whitespace().collect::<String>();
        (name(was) == name(now)
            && CONSTRAINING
                .iter()
                .any(|k| squeeze(now).contains(k) && !squeeze(was).contains(k)))
        .then_some((s..e, s2..e2))
    })
}

#[cfg(test)]
mod tests {
    fn narrowed(old: &str, new: &str) -> Option<(String, String)> {
        super::narrowed(old, new).map(|(a, b)| (old[a].to_string(), new[b].to_string()))
    }

    #[test]
    fn narrowed_ranges_and_constraints_are_read() {
        assert_eq!(
            narrowed(
                "fn f(cap in 1usize..64, ops in prop::collection::vec(any::<u16>(), 0..200)) {",
                "fn f(cap in 1usize..4, ops in prop::collection::vec(any::<u16>(), 0..200)) {"
            ),
            Some(("1usize..64".into(), "1usize..4".into()))
        );
        assert_eq!(
            narrowed(
                "checkAll(Arb.int(1..64)) { a ->",
                "checkAll(Arb.int(1..5)) { a ->"
            ),
            Some(("1..64".into(), "1..5".into()))
        );
        assert_eq!(
            narrowed(
                "@given(st.integers(min_value=0, max_value=1000))",
                "@given(st.integers(min_value=0, max_value=9))"
            ),
            Some(("1000".into(), "9".into()))
        );
        assert_eq!(
            narrowed("@given(st.text())", "@given(st.text(alphabet=\"abc\"))"),
            Some(("st.text()".into(), "st.text(alphabet=\"abc\")".into()))
        );
        // Widened, or narrowed and widened, or something else changed too: no.
        assert_eq!(
            narrowed("checkAll(Arb.int(1..64)) {", "checkAll(Arb.int(1..640)) {"),
            None
        );
        assert_eq!(
            narrowed(
                "checkAll(Arb.int(1..64), Arb.int(0..9)) {",
                "checkAll(Arb.int(1..6), Arb.int(0..90)) {"
            ),
            None
        );
        assert_eq!(
            narrowed(
                "checkAll(Arb.int(1..64)) { f(a) }",
                "checkAll(Arb.int(1..6)) { g(a) }"
            ),
            None
        );
        // Not a property test: a plain loop is read elsewhere.
        assert_eq!(narrowed("for i in 0..64 {", "for i in 0..4 {"), None);
    }
}
