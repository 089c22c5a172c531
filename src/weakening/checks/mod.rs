//! One check's text brought to a canonical form, and how strong it is.
//!
//! A check's text (comments dropped, strings kept) is squeezed (spacing normalised),
//! rewritten by the language's equivalence table until no row applies, its symmetric
//! operands ordered; then classified: equality, weaker than equality, neither, or void
//! (it cannot fail).

mod about;
mod differ;

pub use about::*;
pub use differ::*;

use super::rules::{Language, Piece, Rules, Template};

/// How strong a check is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// It can never fail (`assert x == x`, `assert … or True`).
    Void,
    /// Order, truthiness, presence, containment, a loose tolerance.
    Weak,
    /// Exceptions, mocks, failures in a branch: not comparable by strength.
    Other,
    /// An exact value.
    Equality,
}

/// Spacing normalised: whitespace runs are dropped, except one space between two word
/// characters; a comma before a closing bracket is dropped; a trailing `;` is dropped.
pub fn squeeze(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    // Quotes count as word characters here, so `assert "a"` keeps its space.
    let word =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'"' | b'\'' | b'`') || b >= 0x80;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || (b == b'\\' && bytes.get(i + 1) == Some(&b'\n')) {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_whitespace()
                    || (bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n')))
            {
                i += 1;
            }
            let before = out.last().copied();
            let after = bytes.get(i).copied();
            if let (Some(a), Some(c)) = (before, after)
                && word(a)
                && word(c)
                && start > 0
            {
                out.push(b' ');
            }
            continue;
        }
        if matches!(b, b')' | b']' | b'}') && out.last() == Some(&b',') {
            out.pop();
        }
        out.push(b);
        i += 1;
    }
    while out.last() == Some(&b';') {
        out.pop();
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Bindings of a template's holes: (letter, start, end) in the matched text.
type Bindings = Vec<(u8, usize, usize)>;

/// Matches `text` against `template` as a whole; the holes' bindings if it matches.
pub fn match_template(template: &Template, text: &str) -> Option<Bindings> {
    if let Some(Piece::Lit(first)) = template.0.first()
        && !text.starts_with(first.as_str())
    {
        return None;
    }
    let mut binds = Vec::new();
    go(&template.0, text.as_bytes(), 0, false, &mut binds).then_some(binds)
}

fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn go(pieces: &[Piece], text: &[u8], pos: usize, after_hole: bool, binds: &mut Bindings) -> bool {
    let Some(piece) = pieces.first() else {
        return pos == text.len() || (after_hole && pos + 1 == text.len() && text[pos] == b' ');
    };
    let rest = &pieces[1..];
    // Spacing around a hole is not part of it: skip one space before a hole and
    // before a literal that follows one; two words must not run together.
    let mut p = pos;
    if (after_hole || !matches!(piece, Piece::Lit(_))) && text.get(p) == Some(&b' ') {
        p += 1;
    } else if p > 0
        && p < text.len()
        && word(text[p - 1])
        && word(text[p])
        && (after_hole || !matches!(piece, Piece::Lit(_)))
    {
        let starts_word = match piece {
            Piece::Lit(l) => l.bytes().next().is_some_and(word),
            _ => true,
        };
        if starts_word {
            return false;
        }
    }
    match piece {
        Piece::Lit(lit) => {
            text[p..].starts_with(lit.as_bytes()) && go(rest, text, p + lit.len(), false, binds)
        }
        Piece::Tail => {
            // Nothing, or `,` and balanced arguments up to the next literal.
            if go(rest, text, pos, false, binds) {
                return true;
            }
            if text.get(pos) != Some(&b',') {
                return false;
            }
            span_ends(text, pos + 1, true, rest, binds, b'.')
        }
        Piece::Hole(_) | Piece::Rest if bound(binds, piece).is_some() => {
            let (s, e) = bound(binds, piece).unwrap_or((0, 0));
            let len = e - s;
            text.len() >= p + len
                && text[p..p + len] == text[s..e]
                && go(rest, text, p + len, true, binds)
        }
        Piece::Hole(letter) => span_ends(text, p, false, rest, binds, *letter),
        Piece::Rest => span_ends(text, p, true, rest, binds, b'.'),
    }
}

/// Tries every balanced end for a hole starting at `pos`.
fn span_ends(
    text: &[u8],
    pos: usize,
    commas: bool,
    rest: &[Piece],
    binds: &mut Bindings,
    letter: u8,
) -> bool {
    let next_lit = match rest.first() {
        Some(Piece::Lit(l)) => Some(l.as_bytes()),
        _ => None,
    };
    let mut depth = 0i32;
    let mut e = pos;
    loop {
        let lit_here = next_lit.is_none_or(|l| {
            text[e..].starts_with(l) || (text.get(e) == Some(&b' ') && text[e + 1..].starts_with(l))
        });
        // (`N`: a number, `0.01`, `1e-6`, `5m`.)
        let fits = letter != b'N' || numeric(&text[pos..e]);
        if e > pos && depth == 0 && text[e - 1] != b' ' && lit_here && fits {
            binds.push((letter, pos, e));
            if go(rest, text, e, true, binds) {
                return true;
            }
            binds.pop();
        }
        let Some(&b) = text.get(e) else {
            return false;
        };
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            b',' if depth == 0 && !commas => return false,
            // `P`, `Q`: a plain operand, no operator at its top level (in
            // `assertTrue(P.equals(Q))`, not `x == null || "a".equals(x)`).
            b' ' | b'|' | b'&' | b'=' | b'!' | b'<' | b'>' | b'?' | b':' | b'+' | b'-' | b'*'
            | b'/' | b'%' | b'^'
                if depth == 0 && matches!(letter, b'P' | b'Q') =>
            {
                return false;
            }
            _ => {}
        }
        e += 1;
    }
}

/// Whether a hole's text is a number literal (a template's `N`).
fn numeric(text: &[u8]) -> bool {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    digits.first().is_some_and(u8::is_ascii_digit)
        && digits
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+'))
}

fn bound(binds: &Bindings, piece: &Piece) -> Option<(usize, usize)> {
    let letter = match piece {
        Piece::Hole(l) => *l,
        Piece::Rest => b'.',
        Piece::Lit(_) | Piece::Tail => return None,
    };
    binds
        .iter()
        .find(|(l, _, _)| *l == letter)
        .map(|&(_, s, e)| (s, e))
}

/// The text of `template` with its holes filled from `binds` (taken from `source`).
fn fill(template: &Template, source: &str, binds: &Bindings, swap: bool) -> String {
    let mut out = String::new();
    for piece in &template.0 {
        match piece {
            Piece::Lit(l) => {
                if !out.is_empty()
                    && l.bytes().next().is_some_and(word)
                    && out.bytes().last().is_some_and(word)
                {
                    out.push(' ');
                }
                out.push_str(l);
            }
            // In a target, `, ..` carries the arguments the source's `..` matched.
            Piece::Tail => {
                if let Some(&(_, s, e)) = binds.iter().find(|(l, _, _)| *l == b'.')
                    && s < e
                {
                    out.push_str(", ");
                    out.push_str(&source[s..e]);
                }
            }
            Piece::Hole(_) | Piece::Rest => {
                if out.bytes().last().is_some_and(word) {
                    out.push(' ');
                }
                let mut letter = match piece {
                    Piece::Hole(l) => *l,
                    _ => b'.',
                };
                if swap {
                    letter = match letter {
                        b'A' => b'B',
                        b'B' => b'A',
                        l => l,
                    };
                }
                if let Some(&(_, s, e)) = binds.iter().find(|(l, _, _)| *l == letter) {
                    out.push_str(&source[s..e]);
                }
            }
        }
    }
    squeeze(&out)
}

/// The canonical text of a check: squeezed, rewritten by the equivalence table, its
/// symmetric operands ordered.
pub fn canonical(text: &str, rules: &Rules) -> String {
    let mut text = unwrap_groups(&squeeze(text));
    if rules.language == Language::Python {
        text = without_unicode_prefix(&text);
    }
    for _ in 0..8 {
        let mut changed = false;
        for (from, to) in &rules.equivalences {
            if let Some(binds) = match_template(from, &text) {
                let next = fill(to, &text, &binds, false);
                if next != text && next.len() <= text.len() + 32 && !only_rewrapped(&next, &text) {
                    text = next;
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Testing Library's `getBy…` queries fail when nothing matches: the query alone
    // checks what `expect(screen.getByText(x)).toBeInTheDocument()` checks.
    if rules.language == Language::JavaScript {
        let inner = text
            .strip_prefix("expect(")
            .and_then(|t| t.strip_suffix(").toBeInTheDocument()"))
            .unwrap_or(&text);
        let inner = inner.strip_prefix("await ").unwrap_or(inner);
        if query_call(inner) {
            text = inner.to_string();
        }
    }
    for template in &rules.symmetric {
        if let Some(binds) = match_template(template, &text) {
            let a = bound(&binds, &Piece::Hole(b'A')).map(|(s, e)| &text[s..e]);
            let b = bound(&binds, &Piece::Hole(b'B')).map(|(s, e)| &text[s..e]);
            // Only plain operands: `a == b or c` is not `b or c == a`.
            let plain = |x: &str| !x.contains(' ');
            if let (Some(a), Some(b)) = (a, b)
                && a > b
                && plain(a)
                && plain(b)
            {
                text = fill(template, &text, &binds, true);
            }
            break;
        }
    }
    text
}

/// Whether `text` is one call of a Testing Library query that fails when nothing
/// matches (`screen.getByText("a")`, `findAllByRole(…)`).
fn query_call(text: &str) -> bool {
    let name = text.strip_prefix("screen.").unwrap_or(text);
    ["getBy", "findBy", "getAllBy", "findAllBy"]
        .iter()
        .any(|p| {
            name.strip_prefix(p)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
        })
        && text.find('(').is_some_and(|open| {
            super::source::matching_close(text.as_bytes(), open) == Some(text.len() - 1)
        })
}

/// Whether `next` is `text` with one group's brackets doubled (`assert(x)` read by
/// `assert A, ..` as `assert((x))`): no rewrite, or the rule would apply forever.
fn only_rewrapped(next: &str, text: &str) -> bool {
    if next.len() != text.len() + 2 {
        return false;
    }
    let b = next.as_bytes();
    let Some(open) = next.find("((") else {
        return false;
    };
    let Some(close) = super::source::matching_close(b, open + 1) else {
        return false;
    };
    b.get(close + 1) == Some(&b')')
        && format!(
            "{}{}{}",
            &next[..open],
            &next[open + 1..close + 1],
            &next[close + 2..]
        ) == text
}

/// Python's `u"…"` is `"…"` (the prefix is a no-op since Python 3; pyupgrade drops
/// it): the prefix is dropped outside strings.
fn without_unicode_prefix(text: &str) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut quote: Option<u8> = None;
    for (i, &c) in b.iter().enumerate() {
        match quote {
            Some(q)
                if c == q && b[..i].iter().rev().take_while(|&&x| x == b'\\').count() % 2 == 0 =>
            {
                quote = None;
            }
            Some(_) => {}
            None if matches!(c, b'"' | b'\'') => quote = Some(c),
            None if matches!(c, b'u' | b'U')
                && matches!(b.get(i + 1), Some(b'"' | b'\''))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    // (Only ASCII bytes were dropped: still UTF-8.)
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Grouping parentheses around an atom dropped (`== ("…" "…")` is `== "…" "…"`,
/// `assert (x)` is `assert x`): a reformatter adds and removes them freely. Call
/// parentheses (after a name, `)`, `]`, `!` or `>`) and tuples stay.
pub fn unwrap_groups(text: &str) -> String {
    let b = text.as_bytes();
    let mut drop = vec![false; b.len()];
    let mut stack: Vec<(usize, bool)> = Vec::new();
    let mut quote: Option<u8> = None;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if c == q && (i == 0 || b[i - 1] != b'\\') {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' => {
                let prev = text[..i].bytes().next_back();
                let grouping = prev.is_none_or(|p| {
                    !(p.is_ascii_alphanumeric()
                        || matches!(p, b'_' | b')' | b']' | b'!' | b'>' | b'$' | b'.'))
                        && p < 0x80
                });
                stack.push((i, grouping));
            }
            b')' => {
                if let Some((open, grouping)) = stack.pop()
                    && grouping
                    && i > open + 1
                    && atomic(&text[open + 1..i])
                {
                    drop[open] = true;
                    drop[i] = true;
                }
            }
            _ => {}
        }
    }
    if !drop.contains(&true) {
        return text.to_string();
    }
    let kept: Vec<u8> = b
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(c, _)| *c)
        .collect();
    squeeze(&String::from_utf8_lossy(&kept))
}

/// An exact check of several values written as one, a tuple or list compared with
/// another of the same length (`assert (a, b) == (1, 2)`) or an object literal with
/// another of the same keys (`expect({ n: a, m: b }).toEqual({ n: 1, m: 2 })`): the
/// check of each value, canonical (`assert a == 1`, `expect(a).toBe(1)`). `None` when
/// the check is not so written.
pub fn components(key: &str, rules: &Rules) -> Option<Vec<String>> {
    // (Most checks are not: a look for the shape before any parsing, as this runs on
    // every check of the commit hook.)
    let shaped = match rules.language {
        Language::Python => key.contains(")==(") || key.contains("]==["),
        Language::JavaScript => key.starts_with("expect({"),
        Language::Ruby => key.contains(" have_attributes("),
        Language::Java => key.contains("to ") && key.starts_with("assertThat("),
        _ => false,
    };
    if !shaped {
        return None;
    }
    // The items of a bracketed literal `(…)`, `[…]` or `{…}` that is all of `text`.
    let items = |text: &str, open: u8| -> Option<Vec<String>> {
        let b = text.as_bytes();
        if b.first() != Some(&open) || super::source::matching_close(b, 0) != Some(text.len() - 1) {
            return None;
        }
        let parts = split_top(&text[1..text.len() - 1]);
        (parts.len() >= 2).then(|| parts.into_iter().map(str::to_string).collect())
    };
    let pairs: Vec<(String, String)> = match rules.language {
        Language::Python => {
            // (Squeezed, `assert (a, b) == …` reads `assert(a,b)==…`.)
            let body = key.strip_prefix("assert ").or_else(|| {
                key.strip_prefix("assert")
                    .filter(|b| b.starts_with(['(', '[']))
            })?;
            let [left, right] = compared(body)[..] else {
                return None;
            };
            // (The two sides of one `==`, nothing else.)
            if body.len() != left.len() + 2 + right.len()
                || !body.starts_with(left)
                || !body[left.len()..].starts_with("==")
            {
                return None;
            }
            let open = left.as_bytes()[0];
            if !matches!(open, b'(' | b'[') {
                return None;
            }
            let (l, r) = (items(left, open)?, items(right, open)?);
            if l.len() != r.len() {
                return None;
            }
            l.into_iter().zip(r).collect()
        }
        Language::JavaScript => {
            if !key.starts_with("expect(") {
                return None;
            }
            let close = super::source::matching_close(key.as_bytes(), "expect".len())?;
            let actual = &key["expect(".len()..close];
            let expected = [").toEqual(", ").toStrictEqual("]
                .iter()
                .find_map(|m| key[close..].strip_prefix(m))?
                .strip_suffix(')')?;
            let fields = |text: &str| -> Option<Vec<(String, String)>> {
                let mut out: Vec<(String, String)> = items(text, b'{')?
                    .into_iter()
                    .map(|f| {
                        let (name, value) = f.split_once(':')?;
                        let name = name.trim().trim_matches(['"', '\'']).to_string();
                        (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                            .then(|| (name, value.trim().to_string()))
                    })
                    .collect::<Option<_>>()?;
                out.sort();
                Some(out)
            };
            let (a, e) = (fields(actual)?, fields(expected)?);
            if a.len() != e.len() || a.iter().zip(&e).any(|(x, y)| x.0 != y.0) {
                return None;
            }
            a.into_iter().zip(e).map(|(x, y)| (x.1, y.1)).collect()
        }
        Language::Ruby => {
            // RSpec's `expect(x).to have_attributes(a: 1, "b" => 2)`: `x.a` is 1, `x.b` 2.
            let rest = key.strip_prefix("expect(")?;
            let close = super::source::matching_close(key.as_bytes(), "expect".len())?;
            let actual = &rest[..close - "expect(".len()];
            let args = key[close..]
                .strip_prefix(").to have_attributes(")?
                .strip_suffix(')')?;
            let name_ok =
                |n: &str| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_');
            split_top(args)
                .into_iter()
                .map(|f| {
                    let f = f.trim();
                    let (name, value) = match f.split_once("=>") {
                        Some((n, v)) => (
                            n.trim().trim_start_matches(':').trim_matches(['"', '\'']),
                            v,
                        ),
                        None => f.split_once(':')?,
                    };
                    name_ok(name.trim()).then(|| {
                        (
                            format!("{actual}.{}", name.trim()),
                            value.trim().to_string(),
                        )
                    })
                })
                .collect::<Option<Vec<_>>>()
                .filter(|p| !p.is_empty())?
        }
        Language::Java => {
            // Kotlin's `assertEquals(a to b, x to y)`: a pair of checks made as one.
            let close = super::source::matching_close(key.as_bytes(), "assertThat".len())?;
            let actual = &key["assertThat(".len()..close];
            let expected = key[close..]
                .strip_prefix(").isEqualTo(")?
                .strip_suffix(')')?;
            let (a, e) = (kotlin_pair(actual)?, kotlin_pair(expected)?);
            vec![
                (a.0.to_string(), e.0.to_string()),
                (a.1.to_string(), e.1.to_string()),
            ]
        }
        _ => return None,
    };
    Some(
        pairs
            .into_iter()
            .map(|(actual, expected)| {
                let text = match rules.language {
                    Language::Python => format!("assert {actual} == {expected}"),
                    Language::Java => format!("assertThat({actual}).isEqualTo({expected})"),
                    // (A value given as a matcher, `a_string_starting_with("x")`, is that
                    // matcher's check.)
                    Language::Ruby => {
                        let matcher = expected.starts_with(|c: char| c.is_ascii_lowercase())
                            && expected.ends_with(')')
                            && expected.find('(').is_some_and(|open| {
                                expected[..open]
                                    .chars()
                                    .all(|c| c.is_ascii_lowercase() || c == '_')
                            });
                        match matcher {
                            true => format!("expect({actual}).to {expected}"),
                            false => format!("expect({actual}).to eq({expected})"),
                        }
                    }
                    // (A value compared with a primitive: `toBe` is `toEqual`.)
                    _ if literal(&expected) => format!("expect({actual}).toBe({expected})"),
                    _ => format!("expect({actual}).toEqual({expected})"),
                };
                canonical(&text, rules)
            })
            .collect(),
    )
}

/// The two sides of a Kotlin pair written with the infix `to` (`a to b`), at the top
/// level of `text` (squeezed, `f(x)to 3`).
fn kotlin_pair(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let at = top_level(text).find(|&i| {
        bytes[i..].starts_with(b"to ")
            && i > 0
            && (bytes[i - 1] == b' ' || matches!(bytes[i - 1], b')' | b']' | b'"'))
    })?;
    let (left, right) = (text[..at].trim(), text[at + 2..].trim());
    (!left.is_empty() && !right.is_empty() && !right.contains(" to ")).then_some((left, right))
}

/// The fallback a value is read with: the last argument of `unwrap_or(…)`,
/// `.get(k, …)`, `getattr(o, a, …)`, `.fetch(k, …)`, `getOrDefault(k, …)`,
/// `orElse(…)`, `getOrElse(…)`, `GetValueOrDefault(k, …)`, or what follows a top-level
/// `??`, `||` or ` or `.
fn fallback(side: &str) -> Option<&str> {
    let bytes = side.as_bytes();
    let last_op = top_level(side)
        .filter_map(|i| {
            ["??", "||", " or "]
                .iter()
                .find(|op| bytes[i..].starts_with(op.as_bytes()))
                .map(|op| i + op.len())
        })
        .last();
    if let Some(at) = last_op {
        return Some(side[at..].trim()).filter(|f| !f.is_empty());
    }
    let body = side.strip_suffix(')')?;
    let open = super::source::matching_open(bytes, side.len() - 1)?;
    let name = &side[..open];
    let args = split_top(&body[open + 1..]);
    let wanted = [
        (".unwrap_or", 1),
        (".orElse", 1),
        (".getOrElse", 1),
        (".get", 2),
        ("getattr", 3),
        (".fetch", 2),
        (".getOrDefault", 2),
        (".GetValueOrDefault", 2),
    ];
    wanted
        .iter()
        .any(|(m, n)| name.ends_with(m) && args.len() == *n)
        .then(|| args.last().copied())
        .flatten()
}

/// Whether squeezed text is one operand: no top-level operator, comma or word gap
/// (string literals side by side are one).
fn atomic(text: &str) -> bool {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if c == q && b[i - 1] != b'\\' {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth > 0 => {}
            b' ' => {
                let quoted = |x: Option<&u8>| x.is_some_and(|q| matches!(q, b'"' | b'\''));
                if !(quoted(b.get(i.wrapping_sub(1))) && quoted(b.get(i + 1))) {
                    return false;
                }
            }
            b',' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|'
            | b'^' | b'?' | b':' | b';' => return false,
            _ => {}
        }
    }
    true
}

/// A mockall expectation's chain from its `.expect_…()` on (`sender.expect_send().with(…)`
/// → `.expect_send().with(…)`), when the check is one.
pub fn mockall_expectation(key: &str) -> Option<&str> {
    let at = key.find(".expect_")?;
    key[..at]
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        .then(|| &key[at..])
}

/// How strong a canonical check is.
pub fn strength(key: &str, rules: &Rules) -> Strength {
    if rules
        .tautologies
        .iter()
        .any(|t| match_template(t, key).is_some())
    {
        return Strength::Void;
    }
    // A Testing Library `findBy…` query not awaited is a promise, and a promise is
    // always truthy (`expect(screen.findByText('Saved')).toBeTruthy()`).
    if rules.language == Language::JavaScript
        && let Some(query) = key.strip_prefix("expect(")
        && [
            ".toBeTruthy()",
            ".toBeDefined()",
            ".not.toBeNull()",
            ".not.toBeUndefined()",
        ]
        .iter()
        .any(|m| key.ends_with(m))
        && query
            .strip_prefix("screen.")
            .unwrap_or(query)
            .starts_with("findBy")
    {
        return Strength::Void;
    }
    // Literals compared with literals (`assert_same false, true`, `assert 1 == 1`)
    // check no code: they always pass or always fail.
    let sides = subjects(key);
    if sides.len() >= 2 && sides.iter().all(|s| constant(s)) {
        return Strength::Void;
    }
    // A call compared with the same call (`assertEquals(f(a, b), f(a, b))`) says only
    // that it answers the same twice.
    if sides.len() >= 2 && sides[0] == sides[1] && sides[0].contains('(') {
        return Strength::Weak;
    }
    // A value read with a fallback, compared with that fallback
    // (`assert_eq!(parse("2m").unwrap_or(120), 120)`, `d.get("k", 0) == 0`): it passes
    // when the value is missing.
    if sides
        .iter()
        .any(|a| fallback(a).is_some_and(|f| sides.contains(&f)))
    {
        return Strength::Weak;
    }
    // A matcher named but not called (`expect(x).toBeTruthy`) never runs. (chai's
    // `expect(x).to.be.true` is a property that does run.)
    if rules.language == Language::JavaScript
        && key.starts_with("expect")
        && key.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        && key.rsplit('.').next().is_some_and(|last| {
            last.strip_prefix("to")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
        })
    {
        return Strength::Void;
    }
    // A Testing Library `queryBy…` answers `null`, never `undefined`, and `queryAllBy…`
    // an array: said to be defined, it always is.
    if rules.language == Language::JavaScript
        && (key.contains("queryBy") || key.contains("queryAllBy"))
        && [").not.toBeUndefined()", ").toBeDefined()"]
            .iter()
            .any(|end| key.ends_with(end))
    {
        return Strength::Void;
    }
    // `assert (x > 0 for x in xs)`: a generator object is always true.
    if rules.language == Language::Python
        && let Some(expr) = key.strip_prefix("assert ")
        && top_level_generator(expr)
    {
        return Strength::Void;
    }
    // AssertJ's `assertThat(x)` with no assertion after it checks nothing.
    if rules.language == Language::Java
        && let Some(rest) = key.strip_prefix("assertThat(")
        && super::source::matching_close(key.as_bytes(), "assertThat".len()) == Some(key.len() - 1)
        && split_top(&rest[..rest.len() - 1]).len() == 1
    {
        return Strength::Void;
    }
    if loose_tolerance(rules.language, key) {
        return Strength::Weak;
    }
    // The type of a value, not the value (`expect(typeof f(x)).toBe("number")`,
    // `assert type(x) is float`).
    if rules.language == Language::Python
        && key.starts_with("assert ")
        && sides.len() == 2
        && sides.iter().any(|s| s.starts_with("type("))
    {
        return Strength::Weak;
    }
    if rules.language == Language::JavaScript
        && (key.starts_with("expect(typeof ")
            || (key.starts_with("assert") && key.contains("(typeof ")))
    {
        return Strength::Weak;
    }
    // A mockall expectation (checked when the mock drops): an exact count of calls
    // (`.times(1)`, `.never()`) is exact; arguments matched or a range of counts
    // (`.with(eq(a))`, `.times(1..)`) is weak; saying nothing of its calls
    // (`.expect_send().returning(…)`) it is a stub, which passes however it is called.
    if rules.language == Language::Rust
        && let Some(key) = mockall_expectation(key)
    {
        let exact_times = key.match_indices(".times(").any(|(at, m)| {
            let args = &key[at + m.len()..];
            let n = args.bytes().take_while(u8::is_ascii_digit).count();
            n > 0 && args[n..].starts_with(')')
        });
        return if exact_times || key.contains(".never()") {
            Strength::Equality
        } else if [".times(", ".with(", ".withf(", ".withf_st("]
            .iter()
            .any(|m| key.contains(m))
        {
            Strength::Weak
        } else {
            Strength::Void
        };
    }
    // pandas' `assert_frame_equal(a, b, check_exact=False, …)` (and its kin): values
    // compared with a tolerance, or parts of the frames left out.
    if rules.language == Language::Python
        && key.starts_with("assert_")
        && [
            "check_exact=False",
            "check_dtype=False",
            "check_names=False",
            "check_index_type=False",
            "check_column_type=False",
            "check_categorical=False",
            "check_freq=False",
            "check_order=False",
            "check_like=True",
        ]
        .iter()
        .any(|k| key.contains(k))
    {
        return Strength::Weak;
    }
    // `expectTypeOf(x)…` (vitest, expect-type) checks the type at compile time: no
    // value is ever compared.
    if rules.language == Language::JavaScript && key.starts_with("expectTypeOf(") {
        return Strength::Weak;
    }
    // A text matcher given a regular expression (`toHaveURL(/\/(dashboard|login)/)`)
    // matches a pattern, as `toMatch` does, not the exact text.
    if rules.language == Language::JavaScript
        && [
            ".toHaveURL(",
            ".toHaveText(",
            ".toHaveTitle(",
            ".toHaveValue(",
            ".toHaveTextContent(",
            ".toHaveAttribute(",
        ]
        .iter()
        .any(|m| {
            key.rfind(m).is_some_and(|at| {
                let args = &key[at + m.len()..];
                split_top(args.strip_suffix(')').unwrap_or(args))
                    .last()
                    .is_some_and(|a| a.starts_with('/') && a.len() > 2)
            })
        })
    {
        return Strength::Weak;
    }
    // AssertJ's `assertThatThrownBy(f).isInstanceOf(E.class)` is JUnit's
    // `assertThrows(E.class, f)` (a subclass passes both): the type of the expected
    // error pinned, unless it is any exception.
    if rules.language == Language::Java
        && key.starts_with("assertThatThrownBy(")
        && let Some(at) = key.find(").isInstanceOf(")
        && let Some(close) =
            super::source::matching_close(key.as_bytes(), at + ").isInstanceOf".len())
    {
        let kind = &key[at + ").isInstanceOf(".len()..close];
        let any = ["Exception", "Throwable", "RuntimeException"]
            .iter()
            .any(|e| kind.trim_start_matches("java.lang.") == format!("{e}.class"));
        let rest = format!("{}{}", &key[..at + 1], &key[close + 1..]);
        if !any && !rules.weak.is_match(rest.as_bytes()) {
            return Strength::Equality;
        }
    }
    // (The matcher read, not the value it is given: `expect(s.match(re))…`,
    // `assert.deepStrictEqual(router.match(…), {…})` use no `match` matcher.)
    let shape = matcher_shape(rules.language, key);
    let bytes = shape.as_deref().unwrap_or(key).as_bytes();
    let equality_first = matches!(rules.language, Language::Python | Language::Go);
    if equality_first {
        if rules.equality.is_match(bytes) {
            return Strength::Equality;
        }
        if rules.weak.is_match(bytes) {
            return Strength::Weak;
        }
    } else {
        if rules.weak.is_match(bytes) {
            return Strength::Weak;
        }
        if rules.equality.is_match(bytes) {
            return Strength::Equality;
        }
    }
    Strength::Other
}

/// A JavaScript or Java check with the value it is about blanked (`expect(_)…`,
/// `assertThat(_)…`, `assert.equal(_, 3)`), when it is so written.
fn matcher_shape(language: Language, key: &str) -> Option<String> {
    let open = match language {
        Language::JavaScript if key.starts_with("expect(") => "expect".len(),
        Language::JavaScript if key.starts_with("assert.") => {
            let name =
                key["assert.".len()..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            "assert.".len() + name
        }
        Language::Java if key.starts_with("assertThat(") => "assertThat".len(),
        _ => return None,
    };
    if key.as_bytes().get(open) != Some(&b'(') {
        return None;
    }
    let close = super::source::matching_close(key.as_bytes(), open)?;
    let args = &key[open + 1..close];
    // (The first argument only: what it is compared with may be a matcher,
    // `assert.throws(f, /bad/)`.)
    let first = split_top(args).first().map_or(0, |a| a.len());
    if !args[first..].is_empty() && !args[first..].starts_with(',') {
        return None;
    }
    Some(format!("{}_{}", &key[..open + 1], &key[open + 1 + first..]))
}

/// Whether a Python expression is a bare generator (`x > 0 for x in xs`).
fn top_level_generator(expr: &str) -> bool {
    top_level(expr)
        .find(|&i| expr[i..].starts_with(" for "))
        .is_some_and(|i| expr[i + 5..].contains(" in ") && !expr[..i].contains(" if "))
}

/// The byte offsets of `text` outside any bracket and string literal.
pub(in crate::weakening) fn top_level(text: &str) -> impl Iterator<Item = usize> + '_ {
    let b = text.as_bytes();
    let (mut depth, mut quote) = (0i32, None::<u8>);
    (0..b.len()).filter(move |&i| {
        let c = b[i];
        if let Some(q) = quote {
            if c == q && b[i - 1] != b'\\' {
                quote = None;
            }
            return false;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => return depth == 0,
        }
        false
    })
}

/// Whether a numeric tolerance makes an equality check loose: `pytest.approx(x, rel=1)`,
/// `assertAlmostEqual(…, places=0)`, a large `delta`, JUnit's third `assertEquals`
/// argument, testify's `InDelta` with a delta of 1 or more, `toBeCloseTo(x, 0)`.
fn loose_tolerance(language: Language, key: &str) -> bool {
    // (The literal as written, and its value.)
    let literal_after = |marker: &str| -> Option<&str> {
        let at = key.find(marker)? + marker.len();
        let len = key[at..]
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+' | '_')))
            .unwrap_or(key.len() - at);
        Some(&key[at..at + len]).filter(|l| !l.is_empty())
    };
    let number_after = |marker: &str| -> Option<f64> { number_in(literal_after(marker)?) };
    match language {
        Language::Python => {
            // (`approx(3.998, abs=0.5)`: a tolerance of a twentieth or more of the
            // expected value is loose whatever its size.)
            let expected = literal_after("approx(");
            number_after("rel=").is_some_and(|v| v >= 0.1)
                || number_after("abs=").is_some_and(|v| v >= 1.0 || relative(v, expected))
                || number_after("places=").is_some_and(|v| v <= 1.0)
                || number_after("delta=").is_some_and(|v| v >= 1.0)
        }
        Language::Java => {
            if let Some(args) = key
                .strip_prefix("assertEquals(")
                .and_then(|a| a.strip_suffix(')'))
            {
                let parts = split_top(args);
                if parts.len() == 3
                    && let Ok(delta) = parts[2]
                        .trim_end_matches(['d', 'f', 'D', 'F'])
                        .parse::<f64>()
                {
                    return delta >= 0.01;
                }
            }
            // (AssertJ's `within(new BigDecimal("0.50"))`, `withinPercentage(10)`.)
            let group_after = |marker: &str| -> Option<f64> {
                let at = key.find(marker)? + marker.len();
                let end = super::source::matching_close(key.as_bytes(), at - 1)?;
                number_in(&key[at..end])
            };
            number_after("within(").is_some_and(|v| v >= 0.01)
                || number_after("offset(").is_some_and(|v| v >= 0.01)
                || group_after("within(").is_some_and(|v| v >= 0.01)
                || group_after("withinPercentage(").is_some_and(|v| v >= 5.0)
        }
        Language::Go => {
            if let Some(args) = key
                .strip_prefix("assert.InDelta(")
                .and_then(|a| a.strip_suffix(')'))
            {
                let parts = split_top(args);
                return parts
                    .get(3)
                    .and_then(|d| d.parse::<f64>().ok())
                    .is_some_and(|d| d >= 1.0);
            }
            // A time within a second or more of the expected one.
            if let Some(args) = key
                .strip_prefix("assert.WithinDuration(")
                .and_then(|a| a.strip_suffix(')'))
            {
                return split_top(args)
                    .get(3)
                    .and_then(|d| go_seconds(d))
                    .is_some_and(|d| d >= 1.0);
            }
            false
        }
        Language::JavaScript => {
            // chai's `closeTo(750, 300)`: a tolerance of a twentieth or more.
            for marker in [".closeTo(", ".approximately("] {
                if let Some(at) = key.find(marker) {
                    let args = &key[at + marker.len()..];
                    let parts = split_top(args.strip_suffix(')').unwrap_or(args));
                    return parts
                        .get(1)
                        .and_then(|d| number_in(d))
                        .is_some_and(|d| relative(d, parts.first().copied()));
                }
            }
            if let Some(at) = key.find(".toBeCloseTo(") {
                let args = &key[at + ".toBeCloseTo(".len()..];
                let args = args.strip_suffix(')').unwrap_or(args);
                let parts = split_top(args);
                return parts
                    .get(1)
                    .and_then(|d| d.parse::<f64>().ok())
                    .is_some_and(|d| d <= 0.0);
            }
            false
        }
        // `be_within(50).of(90)`, minitest's `assert_in_delta(90, x, 50)`.
        Language::Ruby => {
            if let Some(args) = key
                .strip_prefix("assert_in_delta(")
                .and_then(|a| a.strip_suffix(')'))
            {
                let parts = split_top(args);
                let number = |i: usize| parts.get(i).and_then(|d| d.trim().parse::<f64>().ok());
                return number(2).is_some_and(|d| relative(d, parts.first().copied()));
            }
            number_after("be_within(").is_some_and(|d| {
                relative(d, literal_after(").of("))
                    // (A time within a minute or more: `be_within(1.day).of(Time.current)`.)
                    || ruby_seconds(key, "be_within(").is_some_and(|s| s * d >= 60.0)
            })
        }
        // FluentAssertions' `BeApproximately(343.5, 50)`.
        Language::CSharp => {
            if let Some(at) = key.find(".BeApproximately(") {
                let args = &key[at + ".BeApproximately(".len()..];
                let args = args.strip_suffix(')').unwrap_or(args);
                let parts = split_top(args);
                let number = |i: usize| parts.get(i).and_then(|d| number_in(d));
                return number(1).is_some_and(|d| relative(d, parts.first().copied()));
            }
            // NUnit's `Is.EqualTo(x).Within(10).Percent`: 5% or more is loose; a plain
            // `.Within(d)` as loose as FluentAssertions' tolerance.
            if let Some(at) = key.find(".Within(")
                && let Some(close) =
                    super::source::matching_close(key.as_bytes(), at + ".Within".len())
                && let Some(d) = number_in(&key[at + ".Within(".len()..close])
            {
                if key[close + 1..].starts_with(".Percent") {
                    return d >= 5.0;
                }
                let expected = key[..at]
                    .rfind("EqualTo(")
                    .map(|i| &key[i + "EqualTo(".len()..at])
                    .and_then(|e| e.strip_suffix(')'));
                return relative(d, expected);
            }
            false
        }
        _ => false,
    }
}

/// The unit, in seconds, of a Ruby duration written right after `marker`
/// (`be_within(1.day)`: 86400).
fn ruby_seconds(key: &str, marker: &str) -> Option<f64> {
    let at = key.find(marker)? + marker.len();
    let rest = &key[at..];
    let dot = rest.find('.')?;
    let unit: String = rest[dot + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    Some(match unit.trim_end_matches('s') {
        "second" => 1.0,
        "minute" => 60.0,
        "hour" => 3600.0,
        "day" => 86400.0,
        "week" => 604800.0,
        "month" => 2_592_000.0,
        "year" => 31_536_000.0,
        _ => return None,
    })
}

/// A Go duration written as a product of numbers and `time` units, in seconds
/// (`24*time.Hour`, `500 * time.Millisecond`).
fn go_seconds(text: &str) -> Option<f64> {
    text.split('*').try_fold(1.0, |product, factor| {
        let factor = factor.trim();
        let unit = match factor.strip_prefix("time.") {
            Some("Nanosecond") => 1e-9,
            Some("Microsecond") => 1e-6,
            Some("Millisecond") => 1e-3,
            Some("Second") => 1.0,
            Some("Minute") => 60.0,
            Some("Hour") => 3600.0,
            Some(_) => return None,
            None => factor.parse::<f64>().ok()?,
        };
        Some(product * unit)
    })
}

/// A number written as a literal, typed (`7.99m`, `0.5f`, `10L`) or as a decimal
/// (`new BigDecimal("0.50")`, `BigDecimal.valueOf(5)`).
fn number_in(text: &str) -> Option<f64> {
    bare_number(text).replace('_', "").parse().ok()
}

/// A number's literal without its type or decimal wrapper (`"0.50"` for
/// `new BigDecimal("0.50")`, `7.99` for `7.99m`).
fn bare_number(text: &str) -> &str {
    let t = text.trim();
    ["new BigDecimal(", "BigDecimal.valueOf(", "Decimal("]
        .iter()
        .find_map(|p| t.strip_prefix(p).and_then(|r| r.strip_suffix(')')))
        .unwrap_or(t)
        .trim()
        .trim_matches(['"', '\''])
        .trim_end_matches(['m', 'M', 'f', 'F', 'd', 'D', 'l', 'L'])
}

/// Whether a tolerance is loose for the expected value it is about, when that value is
/// a literal: a twentieth or more of it (1 or more about zero), or, for a value written
/// with at most two decimals (an amount, a count), at least one unit of its last digit,
/// which the check then no longer tells (`approx(40.48, abs=0.01)`,
/// `be_within(50).of(2800)`: a whole number is exact to 1). (A value written with
/// many digits is a float's approximation: `approx(0.22360679, abs=1e-5)`.)
fn relative(tolerance: f64, expected: Option<&str>) -> bool {
    let Some(text) = expected else {
        return false;
    };
    let Some(value) = number_in(text).map(f64::abs) else {
        return false;
    };
    let digits = bare_number(text);
    let unit = if digits.contains(['e', 'E']) {
        None
    } else {
        let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
        (decimals <= 2).then(|| 10f64.powi(-(decimals as i32)))
    };
    (value > 0.0 && tolerance >= value / 20.0)
        || (value == 0.0 && tolerance >= 1.0)
        || unit.is_some_and(|u| tolerance >= u * (1.0 - 1e-9))
}

/// Where a literal opened by `quote` at `start` ends (after its closing quote).
pub(super) fn quoted_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// Top-level comma-separated parts of an argument list.
pub fn split_top(args: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, b) in args.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(args[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !args[start..].trim().is_empty() {
        parts.push(args[start..].trim());
    }
    parts
}

#[cfg(test)]
mod tests;
