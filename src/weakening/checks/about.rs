//! What a check is about: the values it compares (its subjects), the wholes an exact
//! check fixes, the names a test assigns and reads through, and whether two checks
//! look at the same thing.

use super::*;

/// A check's key without its repeat mark (`bags::Repeats`: the same check on a value
/// assigned again), and which repeat it is (`K #2` → `K`, 2;
/// `K` → `K`, 0).
pub fn repeat_of(key: &str) -> (&str, usize) {
    key.rsplit_once(" #")
        .and_then(|(base, n)| Some((base, n.parse().ok()?)))
        .unwrap_or((key, 0))
}

/// A check's key without its repeat mark (`K #2` → `K`): a check moved to another
/// test may be its first occurrence there.
pub fn unrepeated(key: &str) -> &str {
    repeat_of(key).0
}

/// What a canonical check is about: the value under `expect(…)`/`assertThat(…)`,
/// the operands of `assert a == b` or `assert_eq!(a, b)`, the receiver of
/// `x.must_equal`/`x.Should()`. Used to see that one exact check of a whole value
/// covers several checks of its parts.
pub fn subjects(key: &str) -> Vec<&str> {
    let key = unrepeated(key);
    let group = |from: usize| -> Option<&str> {
        let b = key.as_bytes();
        let mut depth = 0i32;
        for (i, &c) in b.iter().enumerate().skip(from) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&key[from + 1..i]);
                    }
                }
                _ => {}
            }
        }
        None
    };
    for prefix in [
        "expect.poll(",
        "expect.soft(",
        "expectTypeOf(",
        "expect(",
        "assertThat(",
        "_(",
    ] {
        if key.starts_with(prefix) {
            let Some(args) = group(prefix.len() - 1) else {
                return Vec::new();
            };
            // A thunk of one expression (`expect(() => f(x)).not.toThrow()`) is about
            // the call it wraps, as `expect(f(x)).toBe(1)` is.
            let args = args
                .strip_prefix("()=>")
                .or_else(|| args.strip_prefix("async()=>"))
                .filter(|body| !body.starts_with('{'))
                .unwrap_or(args);
            // Hamcrest: `assertThat(actual, matcher)`, `assertThat(reason, actual, matcher)`.
            let parts = split_top(args);
            return match (prefix, parts.len()) {
                ("assertThat(", 2) => compared(parts[0]),
                ("assertThat(", 3) => compared(parts[1]),
                _ => compared(args),
            };
        }
    }
    for marker in [".must_", ".wont_", ".should", ".Should", ".to "] {
        if let Some(i) = key.find(marker) {
            return vec![&key[..i]];
        }
    }
    // Kotlin's infix matchers (`x shouldBe 1`, squeezed `f(x)shouldBe 1`).
    if let Some((i, _)) = key.match_indices("should").find(|&(i, _)| {
        i > 0
            && matches!(key.as_bytes()[i - 1], b')' | b']' | b' ')
            && key
                .as_bytes()
                .get(i + 6)
                .is_some_and(u8::is_ascii_uppercase)
    }) {
        // (A comparison checked true, `(total > 0) shouldBe true`, is about its sides.)
        let subject = key[..i].trim_end();
        if subject.starts_with('(') && group(0).is_some_and(|g| g.len() + 2 == subject.len()) {
            return compared(&subject[1..subject.len() - 1]);
        }
        return vec![subject];
    }
    // A mock's own check (`send.assert_called_once_with(…)`) is about the mock.
    if let Some(open) = key.find('(')
        && let Some(dot) = key[..open].rfind('.')
        && key[dot + 1..open].starts_with("assert_")
        && key[..dot] != *"self"
        && key[..dot]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
    {
        return vec![&key[..dot]];
    }
    // Moq's `mailer.Verify(m => m.Send(…), Times.Once())` is about the mock.
    if let Some(dot) = key.find(".Verify(")
        && dot > 0
        && key[..dot]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
    {
        return vec![&key[..dot]];
    }
    fn operands(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for part in split_top(text) {
            if matches!(part, "t" | "tb" | "T" | "self") {
                continue;
            }
            out.extend(compared(part));
        }
        out
    }
    // (Squeezed, `assert [1, 2] == x` loses its space: `assert[1,2]==x`.)
    if let Some(body) = key.strip_prefix("assert ").or_else(|| {
        key.strip_prefix("assert")
            .filter(|rest| rest.starts_with(['[', '{']))
    }) {
        return operands(body);
    }
    // Ruby's `assert_equal a, b` without parentheses.
    if let Some(space) = key.find(' ')
        && !key[..space].is_empty()
        && key[..space]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && key[..space].starts_with("assert")
    {
        return operands(&key[space + 1..]);
    }
    if let Some(open) = key.find('(')
        && key.ends_with(')')
        && key[..open]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'!'))
        && let Some(args) = group(open)
        && args.len() + open + 2 == key.len()
    {
        return operands(args);
    }
    Vec::new()
}

/// The sides of a comparison at the top level (`a == b`, `a is not None`, `x in xs`,
/// `n > 0`, as written or squeezed), each without a leading negation; the text itself
/// when it compares nothing.
pub(super) fn compared(text: &str) -> Vec<&str> {
    const SYMBOLS: &[&str] = &["===", "!==", "==", "!=", "<=", ">=", "<", ">"];
    const WORDS: &[&str] = &["is not ", "not in ", "is ", "in "];
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            // (No operator inside a string: `"<nil>" != got`.)
            b'"' => {
                i = quoted_end(bytes, i, b'"');
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && text.is_char_boundary(i) => {
                let rest = &text[i..];
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                // Not an arrow (`->`, `=>`) or a shift (`<<`).
                let symbol = SYMBOLS
                    .iter()
                    .find(|op| rest.starts_with(**op))
                    .filter(|op| {
                        let arrow = op.starts_with(['<', '>'])
                            && matches!(prev, Some(b'-' | b'=' | b'<' | b'>'));
                        !(arrow || rest[op.len()..].starts_with(['<', '>', '=']))
                    });
                // (Squeezed, `x in (a, b)` reads `x in(a,b)`.)
                let op = symbol.or_else(|| {
                    WORDS
                        .iter()
                        .find(|op| rest.starts_with(**op) && i > 0 && !prev.is_some_and(word))
                        .or_else(|| {
                            ["not in", "in"].iter().find(|op| {
                                rest.starts_with(**op)
                                    && rest[op.len()..].starts_with(['(', '[', '{'])
                                    && i > 0
                                    && matches!(prev, Some(b' ' | b')' | b']' | b'}'))
                            })
                        })
                });
                if let Some(op) = op {
                    out.push(text[start..i].trim());
                    i += op.len();
                    start = i;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(text[start..].trim());
    out.into_iter()
        .map(|side| {
            let side = side
                .strip_prefix("not ")
                .or_else(|| side.strip_prefix('!'))
                .or_else(|| side.strip_prefix("typeof "))
                .unwrap_or(side)
                .trim();
            searched(side).unwrap_or(side)
        })
        .filter(|side| !side.is_empty())
        .collect()
}

/// The value a search function looks in (`strings.Contains(s, "x")` → `s`,
/// `re.search(p, s)` → `s`, `errors.Is(err, ErrX)` → `err`, `isinstance(x, T)` → `x`): a check that it holds
/// something is about that value, which an exact check of it covers, as it covers
/// `s.includes("x")`.
fn searched(call: &str) -> Option<&str> {
    const FIRST: &[&str] = &[
        "strings.Contains(",
        "strings.ContainsAny(",
        "strings.ContainsRune(",
        "strings.HasPrefix(",
        "strings.HasSuffix(",
        "bytes.Contains(",
        "bytes.HasPrefix(",
        "bytes.HasSuffix(",
        "errors.Is(",
        "errors.As(",
        "isinstance(",
    ];
    const SECOND: &[&str] = &["re.search(", "re.match(", "re.fullmatch(", "re.findall("];
    let (at, nth) = FIRST
        .iter()
        .map(|f| (f, 0))
        .chain(SECOND.iter().map(|f| (f, 1)))
        .find(|(f, _)| call.starts_with(**f))?;
    let open = at.len() - 1;
    if super::super::source::matching_close(call.as_bytes(), open) != Some(call.len() - 1) {
        return None;
    }
    let args = split_top(&call[open + 1..call.len() - 1]);
    (args.len() == 2).then(|| args[nth].trim())
}

/// The value a check says no more than exists of (`assert x is not None` → `x`,
/// [`rules::NON_NULL`](crate::weakening::rules::NON_NULL)), if that is all it says.
pub fn exists_only<'k>(key: &'k str, rules: &Rules) -> Option<&'k str> {
    rules.non_null.iter().find_map(|t| {
        let binds = match_template(t, key)?;
        let (s, e) = bound(&binds, &Piece::Hole(b'A'))?;
        Some(&key[s..e]).filter(|v| !literal(v))
    })
}

/// The value `key` only says is not empty ([`rules::NON_EMPTY`](crate::weakening::rules::NON_EMPTY)).
pub fn nonempty_only<'k>(key: &'k str, rules: &Rules) -> Option<&'k str> {
    rules.non_empty.iter().find_map(|t| {
        let binds = match_template(t, key)?;
        let (s, e) = bound(&binds, &Piece::Hole(b'A'))?;
        Some(&key[s..e]).filter(|v| !literal(v))
    })
}

/// Whether `key` checks that `value` has an exact size above zero (`assert_eq!(3,
/// map.len())`, `toHaveLength(2)`, `assert.Len(t, xs, 1)`).
pub fn pins_nonzero_size(key: &str, value: &str) -> bool {
    super::differ::size_subject(key) == Some(value)
        && super::differ::numbers(key)
            .iter()
            .any(|&(s, e)| key[s..e].parse::<u64>().is_ok_and(|n| n > 0))
}

/// Whether the check `key` fails when `value` is missing: it reads through the value
/// (`value.name`, `value[0]`, `value.Error()`; not `value?.name`, and not a check
/// method called on it, `value.ShouldBe(…)`, `value.must_equal …`, which a missing value
/// can pass) or is a check that needs its operand ([`rules::NEEDS_VALUE`](crate::weakening::rules::NEEDS_VALUE)).
pub fn needs(key: &str, value: &str, rules: &Rules) -> bool {
    // Not a check that may not look at the value (`x.a == 1 if x else True`,
    // `expect(res && res.error)`).
    if ["||", "&&", " or ", " and ", " if ", "?"]
        .iter()
        .any(|op| key.contains(op))
    {
        return false;
    }
    let before = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '@' | '.' | '?');
    // Methods a missing value answers (Ruby's `nil.to_s` is `""`): no read through it.
    let check_method = [
        "Should",
        "should",
        "must_",
        "wont_",
        "Must",
        "to_s",
        "to_a",
        "to_h",
        "to_i",
        "to_f",
        "inspect",
        "nil?",
        "class",
        "frozen?",
        "then",
        "tap",
        "is_a?",
        "respond_to?",
    ];
    // A Go map read from nil is the zero value, not a panic.
    let index = rules.language != Language::Go;
    let reads = key.match_indices(value).any(|(at, _)| {
        let rest = &key[at + value.len()..];
        !key[..at].ends_with(before)
            && ((index && rest.starts_with('['))
                || rest.strip_prefix('.').is_some_and(|member| {
                    member.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                        && !check_method.iter().any(|m| member.starts_with(m))
                }))
    });
    reads
        || rules.needs_value.iter().any(|t| {
            match_template(t, key)
                .and_then(|binds| bound(&binds, &Piece::Hole(b'A')))
                .is_some_and(|(s, e)| &key[s..e] == value)
        })
}

/// How many lines of `text` assign `name` (`name = …`, `name := …`, `x, name := …`).
pub fn assignments(text: &str, name: &str) -> usize {
    text.lines()
        .filter(|line| {
            let Some(eq) = top_level_assignment(line.trim()) else {
                return false;
            };
            let lhs = line.trim()[..eq].trim_end_matches(':');
            lhs.split(',').any(|target| {
                target
                    .split_whitespace()
                    .last()
                    .is_some_and(|t| t.trim_start_matches(['*', '&']) == name)
            })
        })
        .count()
}

/// Whether a subject is a literal (a number, string, collection or constant): two
/// checks naming the same literal are not thereby about the same value.
pub fn literal(subject: &str) -> bool {
    subject.is_empty()
        || subject
            .starts_with(|c: char| c.is_ascii_digit() || matches!(c, '"' | '\'' | '-' | '[' | '{'))
        || matches!(
            subject,
            "true" | "false" | "nil" | "None" | "null" | "undefined" | "True" | "False"
        )
}

/// Whether a value is written out in full: numbers, strings, `true`/`nil`/`None`…, and
/// collections of those (no name, no call).
pub(super) fn constant(value: &str) -> bool {
    let blanked = shape(value);
    let mut rest = blanked.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_alphabetic()) {
        let word_len = rest[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - at);
        let word = &rest[at..at + word_len];
        if !matches!(
            word,
            "true" | "false" | "nil" | "None" | "null" | "undefined" | "True" | "False"
        ) {
            return false;
        }
        rest = &rest[at + word_len..];
    }
    !value.trim().is_empty()
}

/// Whether two checks are about the same value, or one about a part of the other's
/// (`x` and `x.len()`): only then can a weaker check stand in for a lost exact one.
/// Checks whose subject cannot be read are taken as related.
pub fn related(a: &str, b: &str) -> bool {
    related_subjects(&subjects(a), &subjects(b))
}

/// [`related`] on subjects already read (and perhaps resolved through a test's local
/// names: `s = m.to_string()` makes `s.contains('.')` a check of `m.to_string()`).
pub fn related_subjects<S: AsRef<str>>(a: &[S], b: &[S]) -> bool {
    // `len(x)`, `String(x)`, `sorted(x)` are about `x` too.
    let values = |subjects: &[S]| -> Vec<String> {
        let mut out: Vec<&str> = Vec::new();
        for subject in subjects.iter().map(AsRef::as_ref) {
            // (`Math.abs(x - 3)`, `kotlin.math.abs(…)` are about `x` too.)
            if let Some(open) = subject.find('(')
                && subject.ends_with(')')
                && (subject[..open]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    || ["abs", "fabs", "Abs"]
                        .contains(&subject[..open].rsplit('.').next().unwrap_or("")))
                && let [arg] = split_top(&subject[open + 1..subject.len() - 1])[..]
            {
                out.push(arg);
            }
            // (Rust's `(x - 3).abs()` too.)
            if let Some(inner) = subject
                .strip_suffix(".abs()")
                .and_then(|r| r.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
            {
                out.push(inner);
            }
            // `matches!(x, P)` is about `x`, and Go's `strings.Contains(x, "a")` too.
            for call in ["matches!(", "strings.", "bytes."] {
                if let Some(args) = subject.strip_prefix(call).and_then(|r| {
                    let r = if call.ends_with('(') {
                        r
                    } else {
                        let open = r.find('(')?;
                        r[..open]
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric())
                            .then_some(&r[open + 1..])?
                    };
                    r.strip_suffix(')')
                }) && let Some(first) = split_top(args).first()
                {
                    out.push(first);
                }
            }
            // `x.len()`, `x.is_empty()` are about `x`; so are Rust's `x.unwrap_err()` and
            // `x.is_err()`.
            for size in [
                ".len()",
                ".is_empty()",
                ".size()",
                ".length",
                ".count()",
                ".unwrap()",
                ".unwrap_err()",
                ".is_ok()",
                ".is_err()",
                ".is_some()",
                ".is_none()",
            ] {
                if let Some(receiver) = subject.strip_suffix(size) {
                    out.push(receiver);
                }
            }
            out.push(subject);
        }
        out.retain(|s| !literal(s));
        let mut out: Vec<String> = out.into_iter().map(str::to_string).collect();
        // A key read with a fallback (`d.get("k", 3)`, `h.fetch(:k, 3)`) is the entry
        // `d["k"]` too.
        for subject in subjects.iter().map(AsRef::as_ref) {
            for read in [".get(", ".fetch(", ".getOrDefault("] {
                if let Some((map, rest)) = subject.split_once(read)
                    && let Some(args) = rest.strip_suffix(')')
                    && let Some(key) = split_top(args).first()
                    && !map.is_empty()
                {
                    out.push(format!("{map}[{key}]"));
                }
            }
        }
        out
    };
    let (sa, sb) = (values(a), values(b));
    if sa.is_empty() || sb.is_empty() {
        return true;
    }
    sa.iter()
        .any(|x| sb.iter().any(|y| covers(x, y) || covers(y, x)))
}

/// Whether a check looks at one element or a slice of what another looked at
/// (`names[0]`, `sorted(names)[:2]`, `names.count("a")`, `out.first`): an exact check
/// of a part fixes that part only, not the whole the other checks searched.
pub fn narrows(part: &str, whole: &str) -> bool {
    const ELEMENT: [&str; 22] = [
        "[",
        ".count(",
        ".first",
        ".last",
        ".get(",
        ".at(",
        ".nth(",
        ".slice(",
        ".take(",
        ".skip(",
        ".substring(",
        ".substr(",
        ".Substring(",
        ".First",
        ".Last",
        ".ElementAt(",
        ".Skip(",
        ".Take(",
        ".head",
        ".index(",
        ".find(",
        ".charAt(",
    ];
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let wholes: Vec<&str> = subjects(whole)
        .into_iter()
        .filter(|s| !literal(s))
        .collect();
    subjects(part).into_iter().filter(|s| !literal(s)).any(|s| {
        wholes.iter().any(|w| {
            s != *w
                && s.match_indices(w).any(|(at, _)| {
                    let rest = s[at + w.len()..].trim_start_matches(')');
                    (at == 0 || !word(s.as_bytes()[at - 1]))
                        && ELEMENT.iter().any(|e| rest.starts_with(e))
                })
        })
    })
}

/// Whether two checks look at the same object: a subject of each starts with the same
/// name (`caplog.text` and `caplog.record_tuples`, `help` and `help.contains(…)`).
/// Looser than [`related`]: used to see that one exact check replaces several weaker
/// ones of the same object. Read from the checks' subjects with local names resolved
/// (`Item::parts`). Checks whose subject cannot be read are taken as alike.
pub fn same_root(a: &[String], b: &[String]) -> bool {
    fn roots(parts: &[String]) -> Vec<&str> {
        parts
            .iter()
            .map(String::as_str)
            .filter(|s| !literal(s))
            .map(|s| {
                let end = s
                    .find(|c: char| {
                        !(c.is_alphanumeric() || c == '_' || c == '$' || c == '@' || c == ':')
                    })
                    .unwrap_or(s.len());
                &s[..end]
            })
            .filter(|r| !r.is_empty() && !matches!(*r, "self" | "this" | "t" | "s"))
            .collect()
    }
    let (ra, rb) = (roots(a), roots(b));
    ra.is_empty() || rb.is_empty() || ra.iter().any(|x| rb.contains(x))
}

/// Whether a check about `lost` is covered by an exact check about `whole`: the same
/// value, or a part of it (`x.a`, `x[0]`, `x.len()` under `x`).
pub fn covers(whole: &str, lost: &str) -> bool {
    !literal(whole)
        && (lost == whole
            || (lost.starts_with(whole) && lost[whole.len()..].starts_with(['.', '[', '('])))
}

/// Local names a test assigns once from a plain expression (`params = parse(env)`,
/// `x := f()`, `const x = a.b`, `Type x = f(y);`, `let x = …;`), with that expression
/// squeezed: a check of `params["a"]` is a check of `parse(env)["a"]`. A name assigned
/// twice, with a compound operator or among several targets is left out, and so is an
/// expression that is more than a chain of names, calls and indexes.
pub fn aliases(text: &str) -> std::collections::HashMap<String, String> {
    use std::collections::HashMap;
    let ident = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    let mut times: HashMap<String, usize> = HashMap::new();
    let mut value: HashMap<String, String> = HashMap::new();
    for line in text.lines() {
        let t = line.trim().trim_end_matches(';').trim_end();
        let Some(eq) = top_level_assignment(t) else {
            continue;
        };
        // The operator: `=`, `:=`, or compound (`+=`, `||=`, `<<=`).
        let op_start = t[..eq]
            .trim_end_matches([
                '+', '-', '*', '/', '%', '|', '&', '^', '<', '>', '?', ':', '!',
            ])
            .len();
        let op = &t[op_start..eq];
        let mut lhs = t[..op_start].trim();
        for word in ["const ", "let ", "var ", "val ", "final ", "mut ", "auto "] {
            while let Some(rest) = lhs.strip_prefix(word) {
                lhs = rest.trim_start();
            }
        }
        // `x: Type` (an annotation), else `Type x` (a declaration): the name.
        let lhs = lhs.split_once(':').map_or(lhs, |(name, _)| name.trim());
        let mut angle = 0i32;
        let several = lhs.bytes().any(|b| {
            match b {
                b'<' => angle += 1,
                b'>' => angle -= 1,
                _ => {}
            }
            b == b',' && angle == 0
        });
        if several {
            for name in lhs.split(',').map(str::trim).filter(|n| ident(n)) {
                *times.entry(name.to_string()).or_default() += 2;
            }
            continue;
        }
        let name = lhs.rsplit([' ', '\t']).next().unwrap_or("");
        let typed = lhs.len() > name.len();
        if !ident(name)
            || (typed
                && !lhs[..lhs.len() - name.len()]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b" _.<>[]?,\t".contains(&b)))
        {
            continue;
        }
        // (Rust's `let c = c.unwrap();` only unwraps the value it named: still that value.)
        let rhs = t[eq + 1..].trim();
        let unwraps = rhs == format!("{name}.unwrap()")
            || rhs == format!("{name}?")
            || (rhs.starts_with(&format!("{name}.expect(")) && rhs.ends_with(')'));
        if unwraps && matches!(op, "" | ":") && times.contains_key(name) {
            continue;
        }
        *times.entry(name.to_string()).or_default() += 1;
        if !matches!(op, "" | ":") {
            *times.entry(name.to_string()).or_default() += 1; // compound: changed again
            continue;
        }
        let rhs = squeeze(t[eq + 1..].trim());
        // Not from itself (`x = x.strip`); a member of that name (`a.total`) is not it.
        let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$');
        let itself = rhs.match_indices(name).any(|(at, _)| {
            !rhs[..at].ends_with(|c| word(c) || matches!(c, '.' | ':'))
                && !rhs[at + name.len()..].starts_with(word)
        });
        if chain(&rhs) && !itself {
            value.insert(name.to_string(), rhs);
        }
    }
    value.retain(|name, _| times.get(name) == Some(&1));
    value
}

/// Whether `name` is an error's (`err`, `e`, `readErr`): scaffolding more than a value.
fn error_like(name: &str) -> bool {
    matches!(name, "err" | "e" | "error" | "exc") || name.ends_with("Err")
}

/// Whether `code` assigns a name that `check` reads (`_, ok = m["b"]` before a
/// second `assert.False(t, ok)`): the same check text after it checks a new value.
/// An error variable does not count: `err = setup(); require.NoError(t, err)` again
/// and again is scaffolding, and setup steps come and go with refactors.
pub fn reassigns(code: &str, check: &str) -> bool {
    let mentions = |check: &str, name: &str| !error_like(name) && mentions(check, name);
    code.lines().any(|line| {
        let t = line.trim();
        // `with open(p) as f:`, `for row in rows:` bind a name too.
        let bound = |word: &str| {
            t.match_indices(word).any(|(at, _)| {
                t[at + word.len()..]
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .is_some_and(|name| !name.is_empty() && mentions(check, name))
            })
        };
        if bound(" as ") || t.strip_prefix("for ").is_some_and(|_| bound("for ")) {
            return true;
        }
        top_level_assignment(t).is_some_and(|eq| {
            let lhs = t[..eq].trim_end_matches([
                '+', '-', '*', '/', '%', '|', '&', '^', '<', '>', '?', ':', '!',
            ]);
            lhs.split(',')
                .filter_map(|part| part.split_whitespace().next_back())
                .any(|name| name != "_" && mentions(check, name))
        })
    })
}

/// Whether a statement of `code` (checks left out) calls a method on a value `check`
/// reads (`v.MergeConfig(src)` between two `Len(t, v.GetStringSlice(k), 4)`): it may
/// change what the check sees, so the same text after it checks a new state.
pub fn calls_on(code: &str, check: &str) -> bool {
    code.lines().any(|line| {
        let t = line.trim();
        let call = top_level_assignment(t).map_or(t, |eq| t[eq + 1..].trim_start());
        let call = call.strip_prefix("await ").unwrap_or(call);
        let chain = call
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.'))
            .filter(|&end| call[end..].starts_with('('))
            .map(|end| &call[..end]);
        chain
            .and_then(|chain| chain.rsplit_once('.'))
            .is_some_and(|(receiver, _)| !error_like(receiver) && reads_from(check, receiver))
    })
}

/// The `=` of a statement that assigns (not `==`, `=>`, `=~`, `<=`, `>=`, `!=`), at the
/// top level of a line.
pub(super) fn top_level_assignment(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 => {
                let next = b.get(i + 1).copied();
                let prev = i.checked_sub(1).map(|p| b[p]);
                if matches!(next, Some(b'=' | b'>' | b'~')) {
                    return None;
                }
                // `<=`, `>=`, `!=` compare (a compound `<<=`/`>>=` has two).
                let doubled = i >= 2 && b[i - 2] == b[i - 1];
                if matches!(prev, Some(b'<' | b'>' | b'!')) && !doubled {
                    return None;
                }
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// Whether a squeezed expression is a plain chain of names, calls and indexes
/// (`A::B.read(env)["x"]`), with its brackets balanced and nothing else at the top.
pub(super) fn chain(text: &str) -> bool {
    let mut depth = 0i32;
    let starts =
        text.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '@'));
    starts
        && text.bytes().all(|b| {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
            depth > 0
                || b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'$' | b'@' | b'.' | b':' | b'?' | b'!' | b')' | b']' | b'}'
                )
        })
        && depth == 0
        && !text.ends_with(['.', ':'])
}

/// Whether `text` holds a string literal with a letter or digit in it (a message it
/// can tell apart; `""` and `".*"` match anything).
pub(in crate::weakening) fn has_text_literal(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b'"' | b'\'') {
            let end = super::quoted_end(b, i, b[i]);
            if b[i + 1..end.saturating_sub(1).max(i + 1)]
                .iter()
                .any(|&c| c.is_ascii_alphanumeric() || c >= 0x80)
            {
                return true;
            }
            i = end;
        } else {
            i += 1;
        }
    }
    false
}

/// Whether `name` occurs in `text` as a whole word.
/// Whether `check` reads something of `value` (`value.x`, `value[k]`) past its own
/// callee (`self.assertEqual(self.cache.size(), 1)` reads `self.cache`).
fn reads_from(check: &str, value: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    !value.is_empty()
        && check.match_indices(value).any(|(at, _)| {
            at > 0
                && !check[..at].ends_with(|c: char| word(c) || c == '.')
                && check[at + value.len()..].starts_with(['.', '['])
        })
}

pub(in crate::weakening) fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name)
        .any(|(at, _)| !text[..at].ends_with(word) && !text[at + name.len()..].starts_with(word))
}

/// A subject with its root name replaced by what the test assigned to it
/// (`params["a"]` → `parse(env)["a"]`); `None` when its root is no such name.
pub fn resolve(
    subject: &str,
    aliases: &std::collections::HashMap<String, String>,
) -> Option<String> {
    let end = subject
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(subject.len());
    let rest = &subject[end..];
    if !(rest.is_empty() || rest.starts_with(['.', '['])) {
        return None;
    }
    aliases
        .get(&subject[..end])
        .map(|value| format!("{value}{rest}"))
}

/// A whole value without a plain conversion of it (`x.to_h`, `list(x)`): comparing the
/// converted value exactly still fixes every part of it.
pub fn unconverted(whole: &str) -> &str {
    let mut w = whole;
    loop {
        let before = w;
        for suffix in [
            ".to_h",
            ".to_a",
            ".to_hash",
            ".to_ary",
            ".to_vec()",
            ".toList()",
            ".toArray()",
            ".ToList()",
            ".ToArray()",
        ] {
            if let Some(inner) = w.strip_suffix(suffix) {
                w = inner;
            }
        }
        for wrapper in ["list(", "dict(", "tuple(", "Array.from("] {
            if let Some(inner) = w.strip_prefix(wrapper).and_then(|r| r.strip_suffix(')'))
                && split_top(inner).len() == 1
                && balanced(inner)
            {
                w = inner;
            }
        }
        if w == before {
            return w;
        }
    }
}

/// Whether the brackets of a text balance without closing below the top.
pub(super) fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for b in text.bytes() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// The two sides an exact check compares (`assert a == b`, `assert_equal(b, a)`,
/// `expect(a).toEqual(b)`), when they can be read.
pub fn sides(key: &str) -> Option<(&str, &str)> {
    let subjects = subjects(key);
    // `assert_equal((x), y)`: an argument in parentheses is the value inside.
    fn bare(mut s: &str) -> &str {
        while s.starts_with('(') && s.ends_with(')') && matching_paren(s, s.len() - 1) == Some(0) {
            s = &s[1..s.len() - 1];
        }
        s
    }
    match subjects[..] {
        [a, b] => Some((bare(a), bare(b))),
        [a] if key.ends_with(')') => {
            let open = matching_paren(key, key.len() - 1)?;
            let expected = key[open + 1..key.len() - 1].trim();
            (!expected.is_empty() && expected != a && !key[..open].ends_with(a))
                .then_some((bare(a), bare(expected)))
        }
        _ => None,
    }
}

/// The `(` that the `)` at `close` closes.
pub(super) fn matching_paren(text: &str, close: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in text.as_bytes()[..=close].iter().enumerate().rev() {
        match b {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return (b == b'(').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether an exact check compares a value with itself once the test's local names
/// are read through (`expected = total(cart)` … `assert total(cart) == expected`, Go's
/// `want := got`): the expected value is computed by the code under test, and the
/// check cannot fail. (Written inline, `f(x) == f(x)` is a tautology of the rules.)
/// Returns the names read through, for [`only_assignments_since`].
pub fn self_compared(
    key: &str,
    aliases: &std::collections::HashMap<String, String>,
) -> Option<Vec<String>> {
    let (a, b) = sides(key)?;
    if aliases.is_empty() || literal(a) || literal(b) || constant(a) || constant(b) {
        return None;
    }
    let mut read = Vec::new();
    let (x, y) = (
        expanded(a, aliases, &mut read),
        expanded(b, aliases, &mut read),
    );
    // (Computed: a value built from literals, `val := map[string]string{…}`, may be
    // changed through a pointer before the check.)
    (copied(&x) == copied(&y) && (x != a || y != b) && !literal(&x) && x.contains('('))
        .then_some(read)
}

/// Whether only assignments come between the first assignment of one of `names` in
/// `text` (a test's code up to a check, the check last) and the check: else the names
/// hold a value from before an action the check compares with (`count = len(log)`,
/// `log.flush()`, `assert len(log) == count`).
pub fn only_assignments_since(text: &str, names: &[String]) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|line| {
        let t = line.trim().trim_end_matches(';');
        top_level_assignment(t).is_some_and(|eq| {
            let lhs = t[..eq].trim_end_matches(':');
            names.iter().any(|name| mentions(lhs, name))
        })
    });
    let Some(first) = first else {
        return false;
    };
    lines[first..lines.len().saturating_sub(1)]
        .iter()
        .all(|line| {
            let t = line.trim().trim_end_matches(';');
            t.is_empty()
                || top_level_assignment(t).is_some()
                || t.chars().all(|c| matches!(c, '}' | ')' | ']' | ',' | ' '))
                || (t.starts_with("if ") && t.ends_with('{')) // (Go's check under its `if`)
        })
}

/// `text` with every local name of `aliases` replaced by its value, a few levels deep
/// (`want` → `got` → `format(d)` → `format(ofSeconds(5))`); the name `text` starts
/// with, if replaced, is added to `read`.
fn expanded(
    text: &str,
    aliases: &std::collections::HashMap<String, String>,
    read: &mut Vec<String>,
) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = text.to_string();
    for round in 0..4 {
        let mut next = String::with_capacity(out.len());
        let mut rest = out.as_str();
        let mut changed = false;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
        {
            let end = rest[start..]
                .find(|c: char| !word(c))
                .map_or(rest.len(), |e| start + e);
            let (before, name) = (&rest[..start], &rest[start..end]);
            let root = round == 0 && next.is_empty() && before.is_empty();
            next.push_str(before);
            let member = before.ends_with(['.', ':']) || next.ends_with(word);
            match aliases.get(name).filter(|_| !member) {
                Some(value) => {
                    next.push_str(value);
                    // (A side's root name: `expected`, `want` of `want.Name`.)
                    if root {
                        read.push(name.to_string());
                    }
                    changed = true;
                }
                None => next.push_str(name),
            }
            rest = &rest[end..];
        }
        next.push_str(rest);
        out = next;
        if !changed {
            break;
        }
    }
    out
}

/// A value without a copy or plain conversion of it (`v.clone()`, `x.dup`): a copy
/// compared with its original is the value compared with itself.
fn copied(value: &str) -> &str {
    let mut v = unconverted(value);
    while let Some(inner) = [".clone()", ".to_owned()", ".dup", ".copy()"]
        .iter()
        .find_map(|s| v.strip_suffix(s))
    {
        v = unconverted(inner);
    }
    v
}

/// The values an exact check fixes as a whole, each with a local alias resolved
/// through `aliases` and plain conversions dropped: every side compared with something
/// that is not computed by the same code (a literal, or another value), so that
/// `x.must_equal x.dup` or `x.to_h.must_equal y.to_h` with `y = x` fixes nothing.
pub fn wholes(key: &str, aliases: &std::collections::HashMap<String, String>) -> Vec<String> {
    let Some((a, b)) = sides(key) else {
        return subjects(key).into_iter().map(String::from).collect();
    };
    // go-cmp's `cmp.Diff(want, got) == ""`, with no options, compares the two whole.
    let (a, b) = match (a, b) {
        ("\"\"", diff) | (diff, "\"\"") => diff
            .strip_prefix("cmp.Diff(")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|args| match split_top(args)[..] {
                [x, y] => Some((x.trim(), y.trim())),
                _ => None,
            })
            .unwrap_or((a, b)),
        _ => (a, b),
    };
    let plain = |s: &str| -> String {
        let s = resolve(s, aliases).unwrap_or_else(|| s.to_string());
        unconverted(&s).to_string()
    };
    let (pa, pb) = (plain(a), plain(b));
    let apart = |x: &str, y: &str| constant(y) || (x != y && !mentions(x, y) && !mentions(y, x));
    let mut out = Vec::new();
    for (raw, p, other) in [(a, &pa, &pb), (b, &pb, &pa)] {
        if !literal(raw) && apart(p, other) {
            out.push(raw.to_string());
            if p != raw {
                out.push(p.clone());
            }
        }
    }
    out
}

/// The error name and the call of a Go error check made in its own `if`
/// (`assert.NoError(t,err:=f(x);err)`, `…_,err=f(x);err)` → `err`, `f(x)`).
pub fn inline_error_check(key: &str) -> Option<(&str, &str)> {
    let key = unrepeated(key);
    // (Several targets keep the `t.Error(…)` form: `if x, err := f(); err != nil {`.)
    let arg = match key.strip_prefix("t.Error(") {
        Some(rest) => rest.strip_suffix("!=nil)")?,
        None => {
            let rest = ["assert.NoError(", "assert.Nil("]
                .iter()
                .find_map(|p| key.strip_prefix(p))?
                .strip_suffix(')')?;
            rest.split_once(',')?.1
        }
    };
    let (targets, rest) = arg.split_once('=')?;
    let targets = targets.strip_suffix(':').unwrap_or(targets);
    let (call, name) = rest.rsplit_once(';')?;
    (targets.rsplit(',').next() == Some(name) && !name.is_empty()).then_some((name, call))
}

/// The error name a Go check says is nil (`assert.NoError(t,err)` → `err`).
pub fn checked_error(key: &str) -> Option<&str> {
    ["assert.NoError(", "assert.Nil("]
        .iter()
        .find_map(|p| unrepeated(key).strip_prefix(p))
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|rest| rest.split_once(','))
        .map(|(_, arg)| arg)
}

/// Whether the Go error check `key`, made in its own `if` (`if err := f(x); err != nil
/// {`), is made in `code` (squeezed) as the call assigned and then its error checked
/// (`err = f(x)` … `require.NoError(t, err)`, a key of `checked`): the same check
/// written in two statements.
pub fn error_check_split(key: &str, code: &str, checked: &[&str]) -> bool {
    let Some((name, call)) = inline_error_check(key) else {
        return false;
    };
    let checks_name = checked.iter().any(|k| checked_error(k) == Some(name));
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let b = code.as_bytes();
    // The name read before it is assigned again (`err = f(x)` … `NoError(t, err)`, not
    // `err = f(x)` then `err = g()`).
    let checked_next = |from: usize| {
        let mut at = from;
        while let Some(found) = code[at..].find(name) {
            let (start, end) = (at + found, at + found + name.len());
            at = end;
            if start > 0 && ident(b[start - 1]) || b.get(end).is_some_and(|&c| ident(c)) {
                continue;
            }
            let rest = &code[end..];
            if rest.starts_with(":=") || (rest.starts_with('=') && !rest.starts_with("==")) {
                return false;
            }
            if start > 0
                && b[start - 1] == b','
                && (rest.starts_with(')') || rest.starts_with(','))
                && checking_call(&code[..start])
                || fails_if_set(rest)
            {
                return true;
            }
        }
        false
    };
    checks_name
        && code.match_indices(call).any(|(at, _)| {
            // (Squeezed, the next statement may follow at once: `f(x)require.…`.)
            let after_ok = b.get(at + call.len()).is_none_or(|&c| {
                !matches!(c, b'.' | b'(' | b'[') && (call.ends_with(')') || !ident(c))
            }) && checked_next(at + call.len());
            let lhs = code[..at]
                .strip_suffix('=')
                .map(|l| l.strip_suffix(':').unwrap_or(l));
            after_ok
                && lhs.is_some_and(|l| {
                    let start = l
                        .bytes()
                        .rposition(|c| !(ident(c) || c == b','))
                        .map_or(0, |p| p + 1);
                    l[start..].rsplit(',').next() == Some(name)
                })
        })
}

/// Whether the call whose arguments `before` ends in checks them (`require.NoError(t,`,
/// `t.Fatal(`), not only logs or prints them (`t.Logf("…",`).
fn checking_call(before: &str) -> bool {
    let b = before.as_bytes();
    let mut depth = 0usize;
    let Some(open) = (0..b.len()).rev().find(|&i| {
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => return true,
            _ => {}
        }
        false
    }) else {
        return false;
    };
    let name_start = b[..open]
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.'))
        .map_or(0, |p| p + 1);
    let callee = &before[name_start..open];
    failing_receiver(callee)
        && [
            "NoError", "Nil", "Fatal", "Error", "Fail", "Assert", "Check", "Equal", "Must", "Ok",
        ]
        .iter()
        .any(|w| callee.contains(w))
}

/// Whether a call (`require.NoError`, `t.Fatal`, `checkErr`) is made on the test, a
/// checker or nothing: a logger's `slog.Error(…)` or `fmt.Errorf(…)` fails no test.
fn failing_receiver(callee: &str) -> bool {
    callee.rsplit_once('.').is_none_or(|(receiver, _)| {
        let receiver = receiver.rsplit('.').next().unwrap_or(receiver);
        matches!(
            receiver,
            "t" | "tb"
                | "b"
                | "tt"
                | "f"
                | "c"
                | "s"
                | "suite"
                | "r"
                | "is"
                | "require"
                | "assert"
                | "qt"
        ) || receiver.ends_with("T()")
            || receiver.ends_with("Require()")
            || receiver.ends_with("Assert()")
    })
}

/// Whether `!=nil{…}` follows, its block failing the test (`t.Fatal(err)`), not only
/// logging it (`t.Logf("…", err)` checks nothing).
fn fails_if_set(rest: &str) -> bool {
    let Some(block) = rest.strip_prefix("!=nil{") else {
        return false;
    };
    let mut depth = 1;
    let end = block
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map_or(block.len(), |(at, _)| at);
    let block = &block[..end];
    // A call that fails the test (`t.Fatal(err)`, `require.NoError(t, err)`,
    // `panic(err)`), by name and receiver: not a word of a logged message
    // (`t.Logf("Failed …")`), nor a logger's `slog.Error(…)`.
    block.match_indices('(').any(|(open, _)| {
        let name_start = block[..open]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |p| p + 1);
        let callee = &block[name_start..open];
        let method = callee.rsplit('.').next().unwrap_or(callee);
        callee == "panic"
            || (callee.contains('.')
                && failing_receiver(callee)
                && ["Fatal", "Error", "Fail", "NoError", "Nil"]
                    .iter()
                    .any(|w| method.starts_with(w)))
    })
}

/// A Go condition with its own statement read as one expression: `pop:=v.GetInt("a");
/// pop!=3` → `v.GetInt("a")!=3`, as `assert.Equal(t, 3, v.GetInt("a"))` checks it;
/// `got,want:=f(),"x";got!=want` → `f()!="x"`. An error keeps its statement
/// (`err:=f();err!=nil`: see [`error_check_split`]).
pub fn inline_value(cond: &str) -> String {
    let Some((names, rest)) = cond.split_once(":=") else {
        return cond.to_string();
    };
    let Some((values, test)) = rest.split_once(';') else {
        return cond.to_string();
    };
    let plain =
        |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let names: Vec<&str> = names.split(',').map(str::trim).collect();
    let values = split_top(values);
    if names.len() != values.len()
        || test.contains(';')
        || names.iter().any(|n| !plain(n) || error_like(n))
        || !names.iter().all(|n| mentions(test, n))
    {
        return cond.to_string();
    }
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut text = test.to_string();
    for (name, value) in names.iter().zip(values) {
        let (b, mut out, mut at) = (text.as_bytes(), String::new(), 0);
        while let Some(found) = text[at..].find(name) {
            let (start, end) = (at + found, at + found + name.len());
            out.push_str(&text[at..start]);
            let whole = (start == 0 || !ident(b[start - 1]) && b[start - 1] != b'.')
                && b.get(end).is_none_or(|&c| !ident(c));
            out.push_str(if whole { value } else { name });
            at = end;
        }
        out.push_str(&text[at..]);
        text = out;
    }
    text
}
