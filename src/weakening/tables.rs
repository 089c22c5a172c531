//! The rows a test runs over: the table its loop iterates (`for s in ["1h", "90m"]`,
//! `for text, want in self.CASES[:2]:`, `for _, in := range []string{…}`), or the
//! table a parametrised test names (`parametrize("a, b", CASES)`), read where it is
//! written or where the name is assigned, and sliced as written.

use std::ops::Range;

use super::checks::split_top;
use super::model::{Model, Unit};
use super::source::Source;

impl Model<'_> {
    /// Rows of the table the test's looped checks run over, when it can be read.
    pub(super) fn looped_rows(&self, unit: &Unit) -> Option<usize> {
        // (Cheap first: most tests have no loop.)
        let code = &self.src.b()[unit.span.clone()];
        if !["for", "each", "Each"]
            .iter()
            .any(|w| memchr::memmem::find(code, w.as_bytes()).is_some())
        {
            return None;
        }
        let header = unit
            .checks
            .iter()
            .find_map(|&c| self.loop_header_at(unit, self.checks[c].span.start))?;
        let text = &self.src.code[header.clone()];
        // (A loop counted between literal bounds whose variable a check reads: its
        // counts are the rows.)
        if let Some((var, n)) = counted(text) {
            let reads = unit.checks.iter().any(|&c| {
                let check = &self.checks[c];
                super::checks::mentions(&self.src.code[check.span.clone()], var)
                    && self.loop_header_at(unit, check.span.start).as_ref() == Some(&header)
            });
            return reads.then_some(n);
        }
        // kotest's `forAll(row(…), row(…)) { … }`: a row per `row(…)`.
        if self.language == super::rules::Language::Java && text.trim_start().starts_with("forAll(")
        {
            let rows = kotest_rows(text.as_bytes());
            return (rows > 0).then_some(rows);
        }
        let expr = iterable(text)?;
        // (A generator filters rows: `(n for n in range(5) if not os.environ.get("CI"))`
        // is a condition on the rows, read as such, and no table.)
        if expr.contains(" for ") {
            return None;
        }
        let at = header.start + (expr.as_ptr() as usize - text.as_ptr() as usize);
        table_rows(&self.src, expr, unit.span.start..at)
    }
}

/// The rows of kotest's data tables in `code`: each `row(…)` call (not a method
/// named `row`, `table.row(3)`).
pub(super) fn kotest_rows(code: &[u8]) -> usize {
    memchr::memmem::find_iter(code, b"row(")
        .filter(|&i| {
            i == 0 || !(code[i - 1].is_ascii_alphanumeric() || matches!(code[i - 1], b'_' | b'.'))
        })
        .count()
}

/// The expression a loop header iterates: after `range`, ` of `, ` in ` or ` : ` (up
/// to the header's closing parenthesis or Python's colon), or before `.forEach(` /
/// `.each`.
pub(super) fn iterable(header: &str) -> Option<&str> {
    let h = header.trim();
    for each in [
        ".forEach(",
        ".each(",
        ".each ",
        ".each{",
        ".each_with_index",
    ] {
        if let Some(at) = h.find(each) {
            let start = h[..at]
                .rfind(|c: char| c.is_whitespace() || c == '(' || c == '=')
                .map_or(0, |i| i + 1);
            return Some(h[start..at].trim()).filter(|e| !e.is_empty());
        }
    }
    let rest = h
        .strip_prefix("for")
        .or_else(|| h.strip_prefix("foreach"))?;
    let rest = rest.trim_start();
    let (inner, paren) = match rest.strip_prefix('(') {
        Some(r) => (r.rsplit_once(')').map_or(r, |(i, _)| i), true),
        None => (rest.strip_suffix(':').unwrap_or(rest), false),
    };
    // (Go's `range` first: `for _, in := range xs` names a variable `in`.)
    for sep in ["range ", " of ", " in ", " : "] {
        if paren && sep == "range " {
            continue;
        }
        let mut depth = 0i32;
        for (i, c) in inner.bytes().enumerate() {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ if depth == 0
                    && inner[i..].starts_with(sep)
                    && (sep != "range " || i == 0 || inner.as_bytes()[i - 1] == b' ') =>
                {
                    let expr = inner[i + sep.len()..].trim();
                    return (!expr.is_empty()).then_some(expr);
                }
                _ => {}
            }
        }
    }
    None
}

/// A loop counted between literal bounds, as its variable and how many times it runs
/// (`for i in range(1, 32):`, `for i in 0..=30 {`, `for (let i = 1; i <= 31; i += 1)`,
/// `for i := 0; i < 31; i++`, `for i := range 31`, `foreach (var i in
/// Enumerable.Range(1, 31))`, `for (i in 0 until 31)`): each count is an input to the
/// checks that read the variable, like a table's rows.
pub(super) fn counted(header: &str) -> Option<(&str, usize)> {
    fn word(t: &str) -> Option<&str> {
        let t = t.trim();
        plain(t).then_some(t)
    }
    let int = |t: &str| -> Option<i64> { t.trim().replace('_', "").parse().ok() };
    let span = |lo: i64, hi: i64, step: i64| -> Option<usize> {
        (step > 0).then(|| usize::try_from((hi - lo + step - 1).max(0) / step).ok())?
    };
    let h = header.trim();
    let rest = h
        .strip_prefix("foreach")
        .or_else(|| h.strip_prefix("for"))?
        .trim_start();
    let (inner, paren) = match rest.strip_prefix('(') {
        Some(r) => (r.rsplit_once(')').map_or(r, |(i, _)| i), true),
        None => (rest.trim_end_matches(['{', ':']).trim_end(), false),
    };
    // Three clauses: `init; cond; step`.
    if let [init, cond, step] = inner.split(';').collect::<Vec<_>>()[..] {
        let (name, lo) = init.split_once(":=").or_else(|| init.split_once('='))?;
        let var = word(name.split_whitespace().last()?)?;
        let lo = int(lo)?;
        let cond = cond.trim().strip_prefix(var)?.trim_start();
        let (hi, inclusive) = match cond.strip_prefix("<=") {
            Some(hi) => (int(hi)?, 1),
            None => (int(cond.strip_prefix('<')?)?, 0),
        };
        let step = step.trim();
        let by = if [format!("{var}++"), format!("++{var}")]
            .iter()
            .any(|s| s == step)
        {
            1
        } else {
            int(step.strip_prefix(var)?.trim_start().strip_prefix("+=")?)?
        };
        return Some((var, span(lo, hi + inclusive, by)?));
    }
    let (name, range) = [" in ", " := range "]
        .iter()
        .find_map(|sep| inner.split_once(sep))?;
    let var = word(
        name.trim()
            .trim_start_matches("var ")
            .trim_start_matches("let "),
    )?;
    let range = range.trim().trim_end_matches(".rev()");
    let range = range
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(range);
    let count = if let Some(args) = range
        .strip_prefix("range(")
        .or_else(|| range.strip_prefix("Enumerable.Range("))
        .and_then(|r| r.strip_suffix(')'))
    {
        let args: Vec<i64> = args.split(',').map(int).collect::<Option<_>>()?;
        match (range.starts_with('E'), &args[..]) {
            (true, [_, n]) => usize::try_from(*n).ok()?,
            (false, [n]) => span(0, *n, 1)?,
            (false, [lo, hi]) => span(*lo, *hi, 1)?,
            (false, [lo, hi, step]) => span(*lo, *hi, *step)?,
            _ => return None,
        }
    } else if let Some((lo, hi)) = range
        .split_once(" until ")
        .or_else(|| range.split_once("..<"))
    {
        span(int(lo)?, int(hi)?, 1)?
    } else if let Some((lo, hi)) = range.split_once("..=") {
        span(int(lo)?, int(hi)? + 1, 1)?
    } else if let Some((lo, hi)) = range.split_once("..") {
        // (Kotlin's `for (i in a..b)` is inclusive; Rust's `for i in a..b` is not.)
        span(int(lo)?, int(hi)? + i64::from(paren), 1)?
    } else {
        // Go 1.22's `for i := range 31`.
        usize::try_from(int(range)?).ok()?
    };
    Some((var, count))
}

/// Where the table a loop method is called on starts (`at`: the `.` of `.forEach(` or
/// `.each`): a literal ending just before it in one of `closers` (a Ruby word list with
/// its `%w` sigil), or a name made of `name_char`s.
pub(super) fn receiver_start(
    code: &str,
    at: usize,
    closers: &[char],
    name_char: impl Fn(char) -> bool,
) -> Option<usize> {
    let before = code[..at].trim_end();
    if !before.ends_with(closers) {
        return Some(before.len() - before.chars().rev().take_while(|&c| name_char(c)).count());
    }
    let open = super::source::matching_open(code.as_bytes(), before.len() - 1)?;
    Some(match code[..open].strip_suffix(['w', 'i', 'W', 'I']) {
        Some(sigil) if sigil.ends_with('%') => open - 2,
        _ => open,
    })
}

/// Rows of a table expression: a literal, or a name assigned one (in `before` first,
/// else once at the start of a line of the file: a module, class or package constant),
/// with a slice written after it (`[:2]`, `[..2]`, `.slice(0, 2)`, `.take(2)`) applied.
pub(super) fn table_rows(src: &Source, expr: &str, before: Range<usize>) -> Option<usize> {
    let (expr, slice) = sliced(expr.trim());
    let expr = unwrapped(expr);
    let rows = match literal_rows(expr, true).or_else(|| percent_words(src, expr, true)) {
        Some(rows) => rows,
        None => {
            let name = expr
                .rsplit(['.', ':'])
                .next()
                .filter(|n| plain(n) && expr.len() - n.len() <= 6)?;
            let prefix = &expr[..expr.len() - name.len()];
            if !matches!(prefix, "" | "self." | "cls." | "this." | "Self::") {
                return None;
            }
            let local = assigned(&src.code[before.clone()], name);
            let rows = |one| literal_rows(one, false).or_else(|| percent_words(src, one, false));
            match local[..] {
                [one] => rows(one)?,
                [] => match assigned(&src.code, name)[..] {
                    [one] => rows(one)?,
                    _ => return None,
                },
                _ => return None,
            }
        }
    };
    // (Sliced by position first: a copy past the slice's end is no row of it.)
    let n = rows.len();
    let rows = match slice {
        Some((lo, hi)) => {
            let hi = hi.unwrap_or(n).min(n);
            &rows[lo.min(hi)..hi]
        }
        None => &rows[..],
    };
    Some(super::source::distinct_rows(
        rows.iter().map(|r| src.row_key(r.as_bytes())),
    ))
}

fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The expression without a slice after it, and the slice's bounds.
fn sliced(expr: &str) -> (&str, Option<(usize, Option<usize>)>) {
    let bound = |t: &str| -> Option<Option<usize>> {
        let t = t.trim();
        if t.is_empty() {
            Some(None)
        } else {
            t.parse().ok().map(Some)
        }
    };
    if let Some(inner) = expr.strip_suffix(']')
        && let Some(open) = inner.rfind('[')
        && open > 0
    {
        let range = &inner[open + 1..];
        let split = range
            .split_once("..=")
            .map(|(a, b)| (a, b, 1))
            .or_else(|| range.split_once("..").map(|(a, b)| (a, b, 0)))
            .or_else(|| range.split_once(':').map(|(a, b)| (a, b, 0)));
        if let Some((lo, hi, inclusive)) = split
            && let (Some(lo), Some(hi)) = (bound(lo), bound(hi))
        {
            return (
                &expr[..open],
                Some((lo.unwrap_or(0), hi.map(|h| h + inclusive))),
            );
        }
    }
    for call in [".slice(", ".take("] {
        if let Some(at) = expr.rfind(call)
            && let Some(args) = expr[at + call.len()..].strip_suffix(')')
        {
            let parts = split_top(args);
            let (lo, hi) = match (call, &parts[..]) {
                (".take(", [n]) => (Some(0), bound(n)),
                (".slice(", [a]) => (bound(a).flatten(), Some(None)),
                (".slice(", [a, b]) => (bound(a).flatten(), bound(b)),
                _ => (None, None),
            };
            if let (Some(lo), Some(hi)) = (lo, hi) {
                return (&expr[..at], Some((lo, hi)));
            }
        }
    }
    (expr, None)
}

/// The table under a plain view of it (`&CASES`, `CASES.iter()`, `enumerate(CASES)`,
/// `Object.entries(CASES)`, `CASES.items()`).
fn unwrapped(mut expr: &str) -> &str {
    loop {
        let before = expr;
        expr = expr.trim().trim_start_matches(['&', '*']);
        for suffix in [
            ".iter()",
            ".into_iter()",
            ".items()",
            ".entries()",
            ".copied()",
            ".cloned()",
            ".enumerate()",
            ".keys()",
            ".values()",
        ] {
            if let Some(inner) = expr.strip_suffix(suffix) {
                expr = inner;
            }
        }
        for wrapper in ["enumerate(", "Object.entries(", "list(", "sorted("] {
            if let Some(inner) = expr.strip_prefix(wrapper).and_then(|r| r.strip_suffix(')'))
                && split_top(inner).len() == 1
            {
                expr = inner;
            }
        }
        if expr == before {
            return expr;
        }
    }
}

/// Elements of a literal list (`[…]`, `(…)`, `{…}`, `vec![…]`, `[]string{…}`,
/// `listOf(…)`, `List.of(…)`, `new[] {…}`) that is the whole of `expr`, or (not
/// `whole`) that `expr` starts with.
fn literal_rows(expr: &str, whole: bool) -> Option<Vec<&str>> {
    let e = expr.trim().trim_start_matches('&');
    let b = e.as_bytes();
    let close_of = |open: usize| super::source::matching_close(b, open);
    let open = if e.starts_with(['[', '(', '{']) && !e.starts_with("[]") {
        0
    } else if let Some(r) = e.strip_prefix("vec!") {
        e.len() - r.len()
    } else if e.starts_with("[]") || e.starts_with("map[") || e.starts_with("new") {
        // Go's `[]T{…}` (past a `struct{…}` type), C#'s `new[] {…}`, Java's
        // `new T[] {…}`: the braces.
        let first = e.find('{')?;
        if e[..first].trim_end().ends_with("struct") {
            let end = close_of(first)?;
            end + 1 + e[end + 1..].find('{')?
        } else {
            first
        }
    } else {
        let name = e.split('(').next()?;
        if !matches!(
            name,
            "listOf"
                | "arrayOf"
                | "setOf"
                | "mutableListOf"
                | "List.of"
                | "Set.of"
                | "Arrays.asList"
                | "Stream.of"
                | "tuple"
        ) {
            return None;
        }
        name.len()
    };
    let close = close_of(open)?;
    if whole && close + 1 != e.len() {
        return None;
    }
    // (A block that builds the table, `{ use ns::*; &[…] }`, is no literal.)
    let mut depth = 0i32;
    let statements = e[open + 1..close].bytes().any(|c| {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        c == b';' && depth == 0
    });
    if statements {
        return None;
    }
    Some(
        split_top(&e[open + 1..close])
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .collect(),
    )
}

/// The words of a Ruby word list (`%w[a b]`, `%i(x y)`) that is the whole of `expr` (a
/// slice of `src.code`), or (not `whole`) that `expr` starts with: read raw, as the
/// lexer blanks them.
fn percent_words<'s>(src: &'s Source, expr: &str, whole: bool) -> Option<Vec<&'s str>> {
    let e = expr.trim();
    let rest = e.strip_prefix('%')?;
    let rest = rest.strip_prefix(['w', 'i', 'W', 'I'])?;
    let open = e.len() - rest.len();
    if !rest.starts_with(['[', '(', '{', '<']) {
        return None;
    }
    let close = super::source::matching_close(e.as_bytes(), open)?;
    if whole && close + 1 != e.len() {
        return None;
    }
    let start = (e.as_ptr() as usize).checked_sub(src.code.as_ptr() as usize)?;
    let raw = src.raw.get(start + open + 1..start + close)?;
    Some(std::str::from_utf8(raw).ok()?.split_whitespace().collect())
}

/// The values a name is assigned (`CASES = [`, `const cases = [`, `tests := []T{`,
/// `static CASES: &[&str] = &[`), each from its start to the end of `code`.
fn assigned<'c>(code: &'c str, name: &str) -> Vec<&'c str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = Vec::new();
    for (at, _) in code.match_indices(name) {
        if code[..at].ends_with(|c: char| word(c) || c == '.')
            || code[at + name.len()..].starts_with(word)
        {
            continue;
        }
        // The declaration starts its line (`const`, `let`, `static`, …).
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let declares = code[line_start..at].split_whitespace().all(|w| {
            matches!(
                w,
                "const"
                    | "let"
                    | "var"
                    | "val"
                    | "static"
                    | "final"
                    | "private"
                    | "public"
                    | "export"
                    | "pub"
                    | "readonly"
                    | "mut"
                    | "internal"
                    | "protected"
            )
        });
        if !declares {
            continue;
        }
        let mut rest = code[at + name.len()..].trim_start();
        // A type annotation (`: list[tuple[str, int]]`, `: &[&str]`), up to its `=`.
        if let Some(r) = rest.strip_prefix(':')
            && !r.starts_with('=')
        {
            let Some(eq) = r.find('=') else {
                continue;
            };
            rest = &r[eq..];
        }
        if let Some(value) = rest
            .strip_prefix(":=")
            .or_else(|| rest.strip_prefix('=').filter(|r| !r.starts_with('=')))
        {
            out.push(value.trim_start());
        }
    }
    out
}

/// A row dropped from a parametrised test's table while others arrive (`#[case(1900,
/// false)]` gone beside a new `#[case(-4, true)]`, `("Crème Brûlée", …)` beside two
/// new rows): the count of cases holds, but the input of the dropped row reaches the
/// test no more. The row found is one of at least two kept rows of its shape; a row
/// whose input a line of the test still gives (its expected value edited, a duplicate
/// removed) is no drop.
pub(super) fn row_swapped(
    old: &Model,
    ou: &Unit,
    new: &Model,
    nu: &Unit,
    is_check: impl Fn(&str) -> bool,
) -> Option<String> {
    use std::collections::HashMap;
    if ou.cases < 2 || nu.cases < ou.cases {
        return None;
    }
    let was = super::matching::body_lines(old, ou);
    let now = super::matching::body_lines(new, nu);
    let mut left: HashMap<&str, usize> = HashMap::new();
    for l in &now {
        *left.entry(l.as_str()).or_default() += 1;
    }
    let mut gone = Vec::new();
    let mut kept = Vec::new();
    for l in &was {
        match left.get_mut(l.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                kept.push(l.as_str());
            }
            _ => gone.push(l.as_str()),
        }
    }
    if gone.is_empty() || gone.len() > 2 || left.values().all(|&n| n == 0) {
        return None;
    }
    // (Its punctuation: `#[case::leap(2000, true)]` and `#[case::century(1900,
    // false)]` are one shape.)
    let shape = |l: &str| -> String {
        let mut out = String::new();
        let mut quote = None;
        for c in l.chars() {
            match quote {
                Some(q) if c == q => {
                    quote = None;
                    out.push(c);
                }
                Some(_) => {}
                None if c == '"' || c == '\'' => {
                    quote = Some(c);
                    out.push(c);
                }
                None if !c.is_alphanumeric() && !c.is_whitespace() && c != '_' && c != '.' => {
                    out.push(c)
                }
                None => {}
            }
        }
        out
    };
    // (A whole row: a bracketed tuple, an attribute or a constructor call, not one
    // field of a row written over several lines, `name: "…",`.)
    let whole_row = |row: &str| {
        row.starts_with(['(', '[', '{', '#', '@'])
            || row
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .is_some_and(|end| end > 0 && row[end..].starts_with('('))
    };
    // (Its words and values: a row that shares a third of them, or a value of three
    // characters or more, with an arriving line was edited, not dropped.)
    let tokens = |l: &str| -> Vec<String> {
        let mut out: Vec<String> = super::checks::literal_values(l)
            .into_iter()
            .map(String::from)
            .collect();
        out.extend(
            l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with(|c: char| c.is_alphabetic()))
                .map(String::from),
        );
        out.sort_unstable();
        out.dedup();
        out
    };
    let arrived: Vec<Vec<String>> = left
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(l, _)| tokens(l))
        .collect();
    let edited = |row: &str| {
        let mine = tokens(row);
        let values = super::checks::literal_values(row);
        arrived.iter().any(|theirs| {
            3 * mine.iter().filter(|t| theirs.contains(t)).count() >= mine.len()
                || values
                    .iter()
                    .any(|v| v.len() >= 3 && theirs.iter().any(|t| t == v))
        })
    };
    gone.into_iter()
        .filter(|row| {
            !is_check(row) && row.ends_with([',', ')', ']', '}']) && whole_row(row) && !edited(row)
        })
        .find(|row| {
            let values = super::checks::literal_values(row);
            // (The input: every value but a last one that ends the row, the expected
            // one: `("ru", 11.0, Plural.MANY)` is all input.)
            let ends_row = values.last().is_some_and(|last| {
                row.rfind(last).is_some_and(|at| {
                    row[at + last.len()..]
                        .trim_start_matches([')', ']', '}', ',', ' '])
                        .is_empty()
                })
            });
            let input = match values.len() {
                n if n > 1 && ends_row => &values[..n - 1],
                _ => &values[..],
            };
            let s = shape(row);
            !input.is_empty()
                && kept.iter().filter(|k| shape(k) == s).count() >= 2
                && !now.iter().any(|l| {
                    let have = super::checks::literal_values(l);
                    input.iter().all(|v| have.contains(v))
                })
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loops_table_is_read_from_its_header() {
        assert_eq!(
            iterable("for s in [\"1h\", \"90m\"] "),
            Some("[\"1h\", \"90m\"]")
        );
        assert_eq!(
            iterable("    for text, seconds in self.CASES[:2]:"),
            Some("self.CASES[:2]")
        );
        assert_eq!(
            iterable("for _, in := range []string{\"\", \"x\"} "),
            Some("[]string{\"\", \"x\"}")
        );
        assert_eq!(iterable("for (const c of cases) "), Some("cases"));
        assert_eq!(iterable("for (String s : INPUTS) "), Some("INPUTS"));
        assert_eq!(iterable("CASES.forEach(({ a, b }) => "), Some("CASES"));
    }

    #[test]
    fn a_counted_loop_runs_as_many_times_as_its_literal_bounds_say() {
        assert_eq!(counted("for i in range(1, 32):"), Some(("i", 31)));
        assert_eq!(counted("    for n in range(10):"), Some(("n", 10)));
        assert_eq!(counted("for n in range(0, 10, 3):"), Some(("n", 4)));
        assert_eq!(counted("for i in 0..=30 "), Some(("i", 31)));
        assert_eq!(counted("for i in (0..30).rev() "), Some(("i", 30)));
        assert_eq!(counted("for (i in 0..30) "), Some(("i", 31)));
        assert_eq!(counted("for (i in 0 until 30) "), Some(("i", 30)));
        assert_eq!(
            counted("for (let i = 1; i <= 31; i += 1) "),
            Some(("i", 31))
        );
        assert_eq!(counted("for (int i = 0; i < 8; i++) "), Some(("i", 8)));
        assert_eq!(counted("for i := 0; i < 8; i++ "), Some(("i", 8)));
        assert_eq!(counted("for i := range 8 "), Some(("i", 8)));
        assert_eq!(
            counted("foreach (var i in Enumerable.Range(1, 31)) "),
            Some(("i", 31))
        );
        assert_eq!(counted("for (let i = 0; i < n; i++) "), None);
        assert_eq!(counted("for i in range(len(xs)):"), None);
        assert_eq!(counted("for (let i = 8; i > 0; i--) "), None);
        assert_eq!(counted("for x in [1, 2]:"), None);
    }

    #[test]
    fn rows_of_literals_names_and_slices() {
        assert_eq!(
            literal_rows("[\"a\", \"b\", \"c\"]", true).map(|r| r.len()),
            Some(3)
        );
        assert_eq!(
            literal_rows("[]string{\"\", \"12\",}", true).map(|r| r.len()),
            Some(2)
        );
        assert_eq!(
            literal_rows("[]struct{ a int }{ {1}, {2}, {3} }", true).map(|r| r.len()),
            Some(3)
        );
        assert_eq!(literal_rows("vec![1, 2]", true).map(|r| r.len()), Some(2));
        assert_eq!(
            literal_rows("listOf(1, 2, 3)", true).map(|r| r.len()),
            Some(3)
        );
        assert_eq!(literal_rows("f(1, 2)", true), None);
        assert_eq!(literal_rows("[1, 2].filter(odd)", true), None);
        assert_eq!(
            literal_rows("{ use ns::*; &[(1, 2), (3, 4)] }", false),
            None
        );
        assert_eq!(sliced("CASES[:2]"), ("CASES", Some((0, Some(2)))));
        assert_eq!(sliced("cases.slice(1)"), ("cases", Some((1, None))));
        assert_eq!(sliced("CASES[..=1]"), ("CASES", Some((0, Some(2)))));
        let code = "CASES = [\n  (1, 2),\n  (3, 4),\n  (5, 6),\n]\n";
        assert_eq!(
            literal_rows(assigned(code, "CASES")[0], false).map(|r| r.len()),
            Some(3)
        );
    }
}
