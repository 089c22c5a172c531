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
    narrowed_generator(old, new)
}

/// Hypothesis told not to generate (`@settings(phases=[Phase.explicit])`): only the
/// `@example`s run. Where the `phases=` setting is in `new`, when `old` generated.
pub(super) fn generation_turned_off(old: &str, new: &str) -> Option<usize> {
    let phases = |t: &str| -> Option<(usize, bool)> {
        let at = t.find("phases=")?;
        let list = &t[at..];
        let end = list.find([')', ']']).unwrap_or(list.len());
        Some((at, list[..end].contains("Phase.generate")))
    };
    match (phases(old), phases(new)) {
        (None | Some((_, true)), Some((at, false))) => Some(at),
        _ => None,
    }
}

/// Whether a file's tests generate their inputs.
pub(super) fn generates_inputs(file: &str) -> bool {
    PROPERTY.iter().any(|p| file.contains(p))
}

/// Where a strategy shared by a file's property tests (`words = st.text(…)` at the top
/// of the file) is narrowed, old and new: one line, read as a test's generators are.
pub(super) fn shared_narrowed(old: &str, new: &str) -> Option<(Span, Span)> {
    let generator = |t: &str| GENERATOR.iter().any(|g| t.contains(g));
    if old == new || !generator(old) || !generator(new) {
        return None;
    }
    narrowed_generator(old, new)
}

/// Words that start a generator outside a test (`st.`, `fc.`, `Arb.`…).
const GENERATOR: &[&str] = &[
    "st.",
    "fc.",
    "Arb.",
    "Gen.",
    "prop::",
    "any::<",
    "Arbitraries.",
];

/// Generators that give one value: a property over them tries one input.
const CONSTANT: &[&str] = &[
    "fc.constant(",
    "st.just(",
    "Just(",
    "Arb.constant(",
    "Gen.constant(",
    "Gen.const(",
    "Arbitraries.just(",
];

/// A property test's inputs narrowed: bounds, a strategy's constraints, or a
/// generator made a constant.
fn narrowed_generator(old: &str, new: &str) -> Option<(Span, Span)> {
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
        .or_else(|| made_constant(old, new))
        .or_else(|| filtered(old, new))
        .or_else(|| unbounded_made_bounded(old, new))
}

/// A strategy given a filter, on one line (`st.text()` → `st.text().filter(lambda s:
/// s.isascii())`): the inputs that fail it are never tried.
fn filtered(old: &str, new: &str) -> Option<(Span, Span)> {
    let (ra, rb) = super::source::difference(old, new);
    let now = &new[rb.clone()];
    (old[ra.clone()].trim().is_empty()
        && !now.contains('\n')
        && [".filter(", ".filter {", ".filter{"]
            .iter()
            .any(|f| now.starts_with(f)))
    .then_some((ra, rb))
}

/// Names of a type's largest or smallest value, read as a bound that is none.
const UNBOUNDED: &[(&str, &str)] = &[
    ("Number.MAX_SAFE_INTEGER", "9007199254740991"),
    ("Number.MIN_SAFE_INTEGER", "-9007199254740991"),
    ("Number.MAX_VALUE", "1e308"),
    ("sys.maxsize", "9223372036854775807"),
    ("Integer.MAX_VALUE", "2147483647"),
    ("Integer.MIN_VALUE", "-2147483648"),
    ("Long.MAX_VALUE", "9223372036854775807"),
    ("Long.MIN_VALUE", "-9223372036854775808"),
    ("Int.MAX_VALUE", "2147483647"),
    ("Int.MIN_VALUE", "-2147483648"),
    ("i32::MAX", "2147483647"),
    ("i64::MAX", "9223372036854775807"),
    ("u32::MAX", "4294967295"),
    ("u64::MAX", "18446744073709551615"),
    ("usize::MAX", "18446744073709551615"),
];

/// A bound written as a type's largest value (`max: Number.MAX_SAFE_INTEGER`) made a
/// number below it (`max: 999`): the texts where they differ.
fn unbounded_made_bounded(old: &str, new: &str) -> Option<(Span, Span)> {
    let named = UNBOUNDED
        .iter()
        .filter(|(n, _)| old.contains(n))
        .collect::<Vec<_>>();
    if named.is_empty() {
        return None;
    }
    let read = |t: &str| {
        named
            .iter()
            .fold(t.to_string(), |t, (name, value)| t.replace(name, value))
    };
    let (a, b) = (read(old), read(new));
    let (ba, bb) = (bounds(&a), bounds(&b));
    if a == b || ba.len() != bb.len() || blanked(&a, &ba) != blanked(&b, &bb) {
        return None;
    }
    narrowed_generator(&a, &b).map(|_| super::source::difference(old, new))
}

/// A generator replaced by one that gives a single value, on one line
/// (`fc.property(cents, currency, …)` → `fc.property(cents, fc.constant('USD'), …)`,
/// `vec(any::<u8>(), …)` → `vec(Just(b'a'), …)`): where, old and new.
fn made_constant(old: &str, new: &str) -> Option<(Span, Span)> {
    let (ra, rb) = super::source::difference(old, new);
    let (was, now) = (&old[ra.clone()], &new[rb.clone()]);
    let constants = |t: &str| CONSTANT.iter().map(|c| t.matches(c).count()).sum::<usize>();
    (!was.trim().is_empty()
        && !was.contains('\n')
        && !now.contains('\n')
        && constants(now) > constants(was))
    .then_some((ra, rb))
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
            && (CONSTRAINING
                .iter()
                .any(|k| squeeze(now).contains(k) && !squeeze(was).contains(k))
                || alphabet(was)
                    .zip(alphabet(now))
                    .is_some_and(|(a, b)| b.len() < a.len() && b.is_subset(&a))))
        .then_some((s..e, s2..e2))
    })
}

/// The characters a Hypothesis `alphabet=` argument allows, when it is written with
/// `string` constants and literals joined by `+`.
fn alphabet(call: &str) -> Option<std::collections::BTreeSet<char>> {
    let at = call.find("alphabet=")? + "alphabet=".len();
    let b = call.as_bytes();
    let mut depth = 0i32;
    let mut end = at;
    let mut quote = None;
    while end < b.len() {
        match (quote, b[end]) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), b'\\') => end += 1,
            (Some(_), _) => {}
            (None, c @ (b'"' | b'\'')) => quote = Some(c),
            (None, b'(' | b'[') => depth += 1,
            (None, b')' | b']') if depth == 0 => break,
            (None, b')' | b']') => depth -= 1,
            (None, b',') if depth == 0 => break,
            _ => {}
        }
        end += 1;
    }
    let mut out = std::collections::BTreeSet::new();
    for part in call.get(at..end)?.split('+') {
        let part = part.trim();
        let named = part.strip_prefix("string.").unwrap_or(part);
        let chars: String = match named {
            "ascii_lowercase" => ('a'..='z').collect(),
            "ascii_uppercase" => ('A'..='Z').collect(),
            "ascii_letters" => ('a'..='z').chain('A'..='Z').collect(),
            "digits" => ('0'..='9').collect(),
            "hexdigits" => "0123456789abcdefABCDEF".into(),
            "octdigits" => "01234567".into(),
            "punctuation" => PUNCTUATION.into(),
            "whitespace" => WHITESPACE.into(),
            "printable" => ('0'..='9')
                .chain('a'..='z')
                .chain('A'..='Z')
                .chain(PUNCTUATION.chars())
                .chain(WHITESPACE.chars())
                .collect(),
            _ => literal(part)?,
        };
        out.extend(chars.chars());
    }
    Some(out)
}

const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const WHITESPACE: &str = " \t\n\r\x0b\x0c";

/// A plain Python string literal's characters (`"abc"`, `'-_'`, `"\u00e9"`); `None`
/// for anything else.
fn literal(text: &str) -> Option<String> {
    let q = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = text.strip_prefix(q)?.strip_suffix(q)?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == q {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            c @ ('\\' | '\'' | '"') => out.push(c),
            _ => return None,
        }
    }
    Some(out)
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

    #[test]
    fn a_generator_made_constant_is_narrowed() {
        assert_eq!(
            narrowed(
                "fc.property(cents, currency, (a, c) => {",
                "fc.property(cents, fc.constant('USD'), (a, c) => {"
            ),
            Some(("currency".into(), "fc.constant('USD')".into()))
        );
        assert_eq!(
            narrowed(
                "@given(st.text(), st.integers())",
                "@given(st.just(\"\"), st.integers())"
            ),
            Some(("st.text()".into(), "st.just(\"\")".into()))
        );
        // A constant made a generator, or a constant one changed: no.
        assert_eq!(
            narrowed(
                "@given(st.just(1), st.integers())",
                "@given(st.integers(), st.integers())"
            ),
            None
        );
        assert_eq!(narrowed("@given(st.just(1))", "@given(st.just(2))"), None);
    }

    #[test]
    fn an_alphabet_narrowed_to_a_part_is_read() {
        let shared = |a: &str, b: &str| super::shared_narrowed(a, b).is_some();
        assert!(shared(
            "w = st.text(alphabet=string.ascii_letters + \"-_\\u00e9\", max_size=9)",
            "w = st.text(alphabet=string.ascii_lowercase + \"-\", max_size=9)"
        ));
        assert!(!shared(
            "w = st.text(alphabet=string.ascii_lowercase)",
            "w = st.text(alphabet=string.ascii_letters)"
        ));
        // Another alphabet, neither a part of the other, or one not read: no.
        assert!(!shared(
            "w = st.text(alphabet=\"abc\")",
            "w = st.text(alphabet=\"abd\")"
        ));
        assert!(!shared(
            "w = st.text(alphabet=CHARS)",
            "w = st.text(alphabet=\"a\")"
        ));
    }
}
