//! Blanks out comments and string literals, keeping every byte's position.
//!
//! The output has the same length as the input and the same newlines, so offsets and
//! line numbers in it are offsets and line numbers in the source. Comment and string
//! bytes become spaces (string quotes stay, so `f("x")` reads `f(" ")`); non-ASCII bytes
//! in code become `_` (they only occur in identifiers), so the output is ASCII.

/// The comment and string syntax of one language family.
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    /// Line comment starters (`#`, `//`).
    pub line_comments: &'static [&'static str],
    /// Block comment delimiters, if any.
    pub block_comment: Option<(&'static str, &'static str)>,
    /// Whether block comments nest (Rust, Kotlin).
    pub nested_blocks: bool,
    /// Delimiters that open and close a string that may span lines (`"""`, `` ` ``).
    pub multiline_strings: &'static [&'static str],
    /// Quote characters of single-line strings, with backslash escapes.
    pub quotes: &'static [u8],
    /// Whether `'` opens a character literal only when it looks like one (Rust
    /// lifetimes, Go runes, Java chars), instead of a string.
    pub char_literals: bool,
    /// Whether `r"…"` / `r#"…"#` raw strings exist (Rust).
    pub rust_raw_strings: bool,
    /// Whether backslash escapes apply inside the multi-line strings.
    pub multiline_escapes: bool,
    /// Whether `%{…}`, `%w[…]`, `%q(…)`… and `/…/` are literals (Ruby). Their `#{…}`
    /// interpolations would otherwise read as comments that swallow closing brackets.
    pub ruby_literals: bool,
    /// Whether a `` ` `` string's `${…}` may hold code with strings of its own (a
    /// nested template, JavaScript), which do not close it.
    pub template_substitutions: bool,
}

/// Python: `#`, `'''`/`"""`, `'`/`"` (prefixes such as `r`, `f`, `b` need no care).
pub const PYTHON: Syntax = Syntax {
    line_comments: &["#"],
    block_comment: None,
    nested_blocks: false,
    multiline_strings: &["\"\"\"", "'''"],
    quotes: b"\"'",
    char_literals: false,
    rust_raw_strings: false,
    multiline_escapes: true,
    ruby_literals: false,
    template_substitutions: false,
};

/// Rust: `//`, nested `/* */`, `"…"` (may span lines), raw strings, chars vs lifetimes.
pub const RUST: Syntax = Syntax {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_blocks: true,
    multiline_strings: &["\""],
    quotes: b"",
    char_literals: true,
    rust_raw_strings: true,
    multiline_escapes: true,
    ruby_literals: false,
    template_substitutions: false,
};

/// JavaScript / TypeScript: `//`, `/* */`, `'`, `"`, template literals.
pub const JAVASCRIPT: Syntax = Syntax {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_blocks: false,
    multiline_strings: &["`"],
    quotes: b"\"'",
    char_literals: false,
    rust_raw_strings: false,
    multiline_escapes: true,
    ruby_literals: false,
    template_substitutions: true,
};

/// Go: `//`, `/* */`, `"…"`, raw `` `…` ``, runes.
pub const GO: Syntax = Syntax {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_blocks: false,
    multiline_strings: &["`"],
    quotes: b"\"",
    char_literals: true,
    rust_raw_strings: false,
    multiline_escapes: false,
    ruby_literals: false,
    template_substitutions: false,
};

/// Java / Kotlin: `//`, `/* */` (nesting in Kotlin is rare enough to ignore), text blocks.
pub const JAVA: Syntax = Syntax {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_blocks: false,
    multiline_strings: &["\"\"\""],
    quotes: b"\"",
    char_literals: true,
    rust_raw_strings: false,
    multiline_escapes: true,
    ruby_literals: false,
    template_substitutions: false,
};

/// Ruby: `#`, `"…"` and `'…'` (over lines, as Ruby reads them), percent literals,
/// regexes and heredocs.
pub const RUBY: Syntax = Syntax {
    line_comments: &["#"],
    block_comment: None,
    nested_blocks: false,
    multiline_strings: &["\"", "'"],
    quotes: b"",
    char_literals: false,
    rust_raw_strings: false,
    multiline_escapes: true,
    ruby_literals: true,
    template_substitutions: false,
};

/// C#: `//`, `/* */`, `"…"`, raw `"""…"""`, chars.
pub const CSHARP: Syntax = Syntax {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_blocks: false,
    multiline_strings: &["\"\"\""],
    quotes: b"\"",
    char_literals: true,
    rust_raw_strings: false,
    multiline_escapes: false,
    ruby_literals: false,
    template_substitutions: false,
};

/// Returns `source` with comments and string contents blanked, as ASCII text.
pub fn strip(source: &[u8], syntax: &Syntax) -> String {
    strip_with_strings(source, syntax).0
}

/// As [`strip`], and also the byte ranges of the string and character literals
/// (delimiters included), in order, so that their text can be read back from `source`.
pub fn strip_with_strings(source: &[u8], syntax: &Syntax) -> (String, Vec<std::ops::Range<usize>>) {
    let mut strings = Vec::new();
    let mut out = Vec::with_capacity(source.len());
    let starts = start_bytes(syntax);
    let mut heredoc_starts = starts;
    heredoc_starts[usize::from(b'\n')] = true;
    let mut i = 0;
    let n = source.len();
    // Ruby heredocs opened on the current line: their bodies start at its end.
    let mut heredocs: Vec<Heredoc> = Vec::new();
    while i < n {
        // Most bytes cannot start a comment or literal: copy them in one run.
        // (A newline stops the run only when a heredoc's body starts there.)
        let run = i;
        let table = if heredocs.is_empty() {
            &starts
        } else {
            &heredoc_starts
        };
        while i < n && !table[usize::from(source[i])] {
            i += 1;
        }
        push_code(&mut out, &source[run..i]);
        if i == n {
            break;
        }
        let rest = &source[i..];
        if syntax.ruby_literals && source[i] == b'\n' && !heredocs.is_empty() {
            push_code(&mut out, b"\n");
            let body = i + 1;
            let end = heredocs
                .drain(..)
                .fold(body, |from, h| heredoc_end(source, from, &h));
            blank(&mut out, &source[body..end]);
            if end > body {
                strings.push(body..end);
            }
            i = end;
            continue;
        }
        if syntax.ruby_literals
            && let Some((end, heredoc)) = heredoc_opener(source, i)
        {
            push_code(&mut out, &source[i..end]);
            heredocs.push(heredoc);
            i = end;
            continue;
        }
        if syntax.ruby_literals
            && let Some((end, open)) = ruby_literal(source, i)
        {
            keep_delimited(&mut out, &source[i..end], open, usize::from(end > i + open));
            strings.push(i..end);
            i = end;
            continue;
        }
        if syntax
            .line_comments
            .iter()
            .any(|p| rest.starts_with(p.as_bytes()))
        {
            let end = memchr::memchr(b'\n', rest).map_or(n, |j| i + j);
            blank(&mut out, &source[i..end]);
            i = end;
            continue;
        }
        if let Some((open, close)) = syntax.block_comment
            && rest.starts_with(open.as_bytes())
        {
            let end = block_end(
                source,
                i,
                open.as_bytes(),
                close.as_bytes(),
                syntax.nested_blocks,
            );
            blank(&mut out, &source[i..end]);
            i = end;
            continue;
        }
        if syntax.rust_raw_strings
            && let Some((end, open, close)) = rust_raw_string(source, i)
        {
            keep_delimited(&mut out, &source[i..end], open, close);
            strings.push(i..end);
            i = end;
            continue;
        }
        if let Some(delim) = syntax
            .multiline_strings
            .iter()
            .find(|d| rest.starts_with(d.as_bytes()))
        {
            let d = delim.as_bytes();
            let end = if syntax.template_substitutions && d == b"`" {
                template_end(source, i + 1)
            } else {
                string_end(source, i + d.len(), d, syntax.multiline_escapes, true)
            };
            keep_delimited(&mut out, &source[i..end], d.len(), d.len());
            strings.push(i..end);
            i = end;
            continue;
        }
        let byte = source[i];
        if syntax.quotes.contains(&byte) {
            let end = string_end(source, i + 1, &[byte], true, false);
            keep_delimited(&mut out, &source[i..end], 1, 1);
            strings.push(i..end);
            i = end;
            continue;
        }
        if syntax.char_literals
            && byte == b'\''
            && let Some(end) = char_literal_end(source, i)
        {
            keep_delimited(&mut out, &source[i..end], 1, 1);
            strings.push(i..end);
            i = end;
            continue;
        }
        push_code(&mut out, &source[i..i + 1]);
        i += 1;
    }
    // Every byte pushed is ASCII, so this never fails.
    (String::from_utf8(out).unwrap_or_default(), strings)
}

/// The bytes that may start a comment or a literal in this syntax.
fn start_bytes(syntax: &Syntax) -> [bool; 256] {
    let mut table = [false; 256];
    let mut mark = |text: &str| {
        if let Some(&b) = text.as_bytes().first() {
            table[usize::from(b)] = true;
        }
    };
    syntax.line_comments.iter().for_each(|p| mark(p));
    syntax.multiline_strings.iter().for_each(|d| mark(d));
    if let Some((open, _)) = syntax.block_comment {
        mark(open);
    }
    for &q in syntax.quotes {
        table[usize::from(q)] = true;
    }
    if syntax.char_literals {
        table[usize::from(b'\'')] = true;
    }
    if syntax.ruby_literals {
        table[usize::from(b'%')] = true;
        table[usize::from(b'/')] = true;
        table[usize::from(b'<')] = true;
    }
    if syntax.rust_raw_strings {
        table[usize::from(b'r')] = true;
        table[usize::from(b'b')] = true;
    }
    table
}

/// Appends code bytes, non-ASCII ones as `_` (they only occur in identifiers).
fn push_code(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.is_ascii() {
        out.extend_from_slice(bytes);
    } else {
        out.extend(bytes.iter().map(|&b| if b.is_ascii() { b } else { b'_' }));
    }
}

/// Appends spaces for `bytes`, keeping newlines.
fn blank(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend(bytes.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
}

/// Appends a literal: its opening and closing delimiters kept, the inside blanked. A
/// literal cut short by the end of input keeps only what it has.
fn keep_delimited(out: &mut Vec<u8>, literal: &[u8], open: usize, close: usize) {
    let open = open.min(literal.len());
    out.extend(
        literal[..open]
            .iter()
            .map(|&b| if b.is_ascii() { b } else { b'_' }),
    );
    let inner_end = literal.len().saturating_sub(close).max(open);
    blank(out, &literal[open..inner_end]);
    out.extend(
        literal[inner_end..]
            .iter()
            .map(|&b| if b.is_ascii() { b } else { b'_' }),
    );
}

/// The end (exclusive) of a block comment starting at `start`.
fn block_end(source: &[u8], start: usize, open: &[u8], close: &[u8], nested: bool) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < source.len() {
        if source[i..].starts_with(open) && (nested || depth == 0) {
            depth += 1;
            i += open.len();
        } else if source[i..].starts_with(close) {
            depth = depth.saturating_sub(1);
            i += close.len();
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    source.len()
}

/// The end (exclusive, after the closing delimiter) of a string whose content starts at
/// `from`. A single-line string ends at a newline if unterminated.
fn string_end(source: &[u8], from: usize, delim: &[u8], escapes: bool, multiline: bool) -> usize {
    let mut i = from;
    while i < source.len() {
        let b = source[i];
        if escapes && b == b'\\' {
            i += 2;
            continue;
        }
        if !multiline && b == b'\n' {
            return i;
        }
        if source[i..].starts_with(delim) {
            return i + delim.len();
        }
        i += 1;
    }
    source.len()
}

/// The end of a JavaScript template literal whose text starts at `from`: past its
/// closing `` ` ``, its `${…}` substitutions (strings and templates nested in them
/// included) skipped.
fn template_end(source: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < source.len() {
        match source[i] {
            b'\\' => i += 2,
            b'`' => return i + 1,
            b'$' if source.get(i + 1) == Some(&b'{') => {
                let mut depth = 0usize;
                i += 1;
                while i < source.len() {
                    match source[i] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'`' => {
                            i = template_end(source, i + 1);
                            continue;
                        }
                        q @ (b'\'' | b'"') => {
                            i = string_end(source, i + 1, &[q], true, false);
                            continue;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    source.len()
}

/// `r"…"`, `r#"…"#`, `br"…"` at `i` (not inside an identifier): its end and the lengths
/// of its opening and closing delimiters, if it is one.
fn rust_raw_string(source: &[u8], i: usize) -> Option<(usize, usize, usize)> {
    if i > 0 && (source[i - 1].is_ascii_alphanumeric() || source[i - 1] == b'_') {
        return None;
    }
    let mut j = i;
    if source.get(j) == Some(&b'b') {
        j += 1;
    }
    if source.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = source[j..].iter().take_while(|&&b| b == b'#').count();
    j += hashes;
    if source.get(j) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = j + 1;
    let end = memchr::memmem::find(&source[body..], &close)
        .map_or(source.len(), |k| body + k + close.len());
    Some((end, body - i, close.len()))
}

/// A Ruby heredoc's terminator, and whether it may be indented (`<<~`, `<<-`).
struct Heredoc {
    id: Vec<u8>,
    indented: bool,
}

/// A Ruby heredoc opener at `i` (`<<~EOS`, `<<-SQL`, `<<EOS`, `<<~'EOS'`): where the
/// opener ends and its terminator. An unquoted name starts with a capital letter (not
/// `x <<y`, a shift; nor `class << self`).
fn heredoc_opener(source: &[u8], i: usize) -> Option<(usize, Heredoc)> {
    let rest = source.get(i..)?.strip_prefix(b"<<")?;
    let (indented, rest) = match rest.first() {
        Some(b'~' | b'-') => (true, &rest[1..]),
        _ => (false, rest),
    };
    let (id, len) = match rest.first()? {
        &q @ (b'\'' | b'"' | b'`') => {
            let close = memchr::memchr(q, &rest[1..])?;
            let id = &rest[1..1 + close];
            if id.is_empty() || id.contains(&b'\n') {
                return None;
            }
            (id, close + 2)
        }
        b'A'..=b'Z' | b'_' => {
            let len = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            (&rest[..len], len)
        }
        _ => return None,
    };
    let end = source.len() - rest.len() + len;
    Some((
        end,
        Heredoc {
            id: id.to_vec(),
            indented,
        },
    ))
}

/// The end of a heredoc's body starting at `from`: after its terminator line (before
/// that line's newline), or `from` if it has none (then it was no heredoc).
fn heredoc_end(source: &[u8], from: usize, heredoc: &Heredoc) -> usize {
    let mut at = from;
    while at < source.len() {
        let end = memchr::memchr(b'\n', &source[at..]).map_or(source.len(), |k| at + k);
        let line = &source[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = if heredoc.indented {
            line.trim_ascii_start()
        } else {
            line
        };
        if line == heredoc.id.as_slice() {
            return end;
        }
        at = end + 1;
    }
    from
}

/// A Ruby percent literal (`%{…}`, `%w[…]`, `%q(…)`, `%r|…|`) or regular expression
/// (`/…/`) at `i`: its end and the length of its opening delimiter.
fn ruby_literal(source: &[u8], i: usize) -> Option<(usize, usize)> {
    if !matches!(source[i], b'%' | b'/') || !literal_may_start(source, i) {
        return None;
    }
    if source[i] == b'/' {
        // A regular expression stays on its line; one that does not close there was
        // a division after all.
        // (Nor does it hold a `;`: `w /h; skip; x = y/2` is a division whatever `w` is.)
        let mut k = i + 1;
        while k < source.len() {
            match source[k] {
                b'\\' => k += 2,
                b'\n' | b';' => return None,
                b'/' => return Some((k + 1, 1)),
                _ => k += 1,
            }
        }
        return None;
    }
    let mut j = i + 1;
    if source.get(j).is_some_and(|b| b"qQwWiIrsx".contains(b)) {
        j += 1;
    }
    let open = *source.get(j)?;
    let close = match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        b'|' | b'!' | b'/' => open,
        _ => return None,
    };
    let mut depth = 0usize;
    let mut k = j + 1;
    while k < source.len() {
        let b = source[k];
        if b == b'\\' {
            k += 2;
            continue;
        }
        if b == close && open != close && depth > 0 {
            depth -= 1;
        } else if b == close {
            return Some((k + 1, j + 1 - i));
        } else if b == open && open != close {
            depth += 1;
        }
        k += 1;
    }
    Some((source.len(), j + 1 - i))
}

/// Whether the `%` or `/` at `i` starts a literal rather than being an operator, read
/// as Ruby does: right after an operand (`a/b`, `x%(y)`) or with a space on both sides
/// (`a / b`) it is the operator; after a method name and a space with none following
/// (`must_match /x/`, `sh %{cmd}`), or after `(`, `,`, `=`… it starts a literal.
fn literal_may_start(source: &[u8], i: usize) -> bool {
    let operand = |b: u8| b.is_ascii_alphanumeric() || b"_)]}\"'".contains(&b);
    match i.checked_sub(1).map(|k| source[k]) {
        Some(b) if operand(b) => false,
        Some(b' ' | b'\t') => {
            if source
                .get(i + 1)
                .is_none_or(|b| b.is_ascii_whitespace() || *b == b'=')
            {
                return false;
            }
            let head = source[..i].trim_ascii_end();
            // First on its line, it starts a literal (Ruby reads a new statement).
            if source[head.len()..i].contains(&b'\n') {
                return true;
            }
            let before = head.last();
            // After a value that cannot be a method name it is the operator.
            if before.is_some_and(|&b| b")]}\"'".contains(&b) || b.is_ascii_digit()) {
                return false;
            }
            // After a local variable too (`n /2`, `n %(k)` divide): Ruby knows its
            // locals, and so must we, or `n /2; skip; x = 1/` hides the `skip`.
            let word = head.len()
                - head
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
            let name = &head[word..];
            if word > 0 && matches!(head[word - 1], b'@' | b'$') {
                return false; // `@width /2`: an instance or global variable
            }
            // (Looked for in the 16 KiB before: a method's locals, and no quadratic cost.)
            name.is_empty() || !assigned_before(&source[word.saturating_sub(16 << 10)..word], name)
        }
        _ => true,
    }
}

/// Whether `name` is a local variable in `code`: assigned (`name = …`, `name ||= …`,
/// `name, other = …`), or a parameter (`|name|`, `def f(name)`), or passed on
/// (`f(name, …)`) — a method taking a literal (`must_match /x/`) is none of these.
fn assigned_before(code: &[u8], name: &[u8]) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(code, name).any(|at| {
        let end = at + name.len();
        if at > 0 && word(code[at - 1]) || code.get(end).is_some_and(|&b| word(b)) {
            return false;
        }
        let rest = code[end..].trim_ascii_start();
        let op = rest
            .iter()
            .take_while(|b| b"+-*/%|&^<>".contains(b))
            .count();
        let assigns = rest.get(op) == Some(&b'=')
            && !matches!(rest.get(op + 1), Some(b'=' | b'~' | b'>'))
            && (op > 0 || !matches!(rest.get(1), Some(b'=')));
        assigns || matches!(rest.first(), Some(b',' | b'|' | b')'))
    })
}

/// A character literal at `i` (`'a'`, `'\n'`, `'\u{1F600}'`, `'é'`); `None` for a
/// lifetime or label (`'a`, `'static`).
fn char_literal_end(source: &[u8], i: usize) -> Option<usize> {
    let next = *source.get(i + 1)?;
    if next == b'\\' {
        let close = source[i + 2..].iter().take(12).position(|&b| b == b'\'')?;
        return Some(i + 2 + close + 1);
    }
    let width = match next {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (source.get(i + 1 + width) == Some(&b'\'') && next != b'\'').then_some(i + 2 + width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_comments_and_strings_are_blanked_positions_kept() {
        let src =
            "x = 1  # assert x\ns = \"@pytest.mark.skip\" + 'a#b'\n\"\"\"doc\nassert 1\"\"\"\ny\n";
        let out = strip(src.as_bytes(), &PYTHON);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(!out.contains("assert"), "{out}");
        assert!(!out.contains("skip"), "{out}");
        assert!(out.starts_with("x = 1  "));
        assert!(out.contains("s = \"                 \" + '   '"), "{out}");
        assert!(out.ends_with("\"\"\"\ny\n"), "{out}");
    }

    #[test]
    fn rust_nested_comments_raw_strings_chars_and_lifetimes() {
        let src = "/* a /* #[ignore] */ b */ fn f<'a>(x: &'a str) { let c = '\"'; let r = r#\"assert!(\"x\")\"#; }";
        let out = strip(src.as_bytes(), &RUST);
        assert_eq!(out.len(), src.len());
        assert!(!out.contains("ignore") && !out.contains("assert"), "{out}");
        assert!(out.contains("fn f<'a>(x: &'a str)"), "{out}");
        assert!(out.contains("let c = ' ';"), "{out}");
    }

    #[test]
    fn javascript_template_literals_and_line_comments() {
        let src = "// it.skip('x')\nconst s = `it.skip(\n)`; expect(a).toBe(1); // it.only\n";
        let out = strip(src.as_bytes(), &JAVASCRIPT);
        assert!(!out.contains("skip") && !out.contains("only"), "{out}");
        assert!(out.contains("expect(a).toBe(1);"), "{out}");
    }

    #[test]
    fn javascript_templates_nested_in_substitutions_stay_one_string() {
        let src = "const t = `a ${`${'x'.repeat(2)}@b`} it.skip(${\"}\"})`; expect(a).toBe(1);\n";
        let out = strip(src.as_bytes(), &JAVASCRIPT);
        assert!(!out.contains("skip") && !out.contains("repeat"), "{out}");
        assert!(out.contains("; expect(a).toBe(1);"), "{out}");
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn go_raw_strings_and_runes() {
        let src = "s := `t.Skip(\"x\")`\nr := '\\''\nt.Skip()\n";
        let out = strip(src.as_bytes(), &GO);
        assert_eq!(out.matches("Skip").count(), 1, "{out}");
    }

    #[test]
    fn java_text_blocks_and_unicode_identifiers() {
        let src = "String s = \"\"\"\n@Disabled\n\"\"\"; int größe = 1; char c = 'ä';";
        let out = strip(src.as_bytes(), &JAVA);
        assert!(!out.contains("Disabled"), "{out}");
        assert!(out.is_ascii());
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn ruby_percent_literals_and_regexes_with_interpolation_keep_brackets_balanced() {
        let src = "verbose(false) { sh %{#{RUBY} x.rb 1} }\nassert_equal %w[a b], y\nz = a % (b)\nw = c %[d]\nlog.must_match(/\"GET\" #{n} /)\nq = x / 2 + y/3\nr = s.split(/,/)\nget(\"/\")\n";
        let out = strip(src.as_bytes(), &RUBY);
        assert_eq!(out.len(), src.len());
        let first = out.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("verbose(false) { sh %{ ") && first.ends_with(" } }"),
            "{out}"
        );
        assert!(!first.contains("RUBY"), "{out}");
        assert!(out.contains("assert_equal %w[   ], y"), "{out}");
        assert!(out.contains("z = a % (b)"), "{out}");
        assert!(out.contains("w = c %[ ]"), "{out}");
        assert!(out.contains("log.must_match(/           /)"), "{out}");
        assert!(out.contains("q = x / 2 + y/3"), "{out}");
        assert!(out.contains("r = s.split(/ /)"), "{out}");
        assert!(out.contains("get(\" \")"), "{out}");
    }

    #[test]
    fn ruby_quotes_span_lines_and_heredocs_hold_quotes() {
        // A single-quoted string over two lines, holding double quotes.
        let src = "check %w(a), 'ERROR: \"a\"\nUsage: \"b\"'\nexpect(x).to eq(1)\n";
        let out = strip(src.as_bytes(), &RUBY);
        assert_eq!(out.lines().nth(2), Some("expect(x).to eq(1)"), "{out}");
        assert!(!out.contains("Usage"), "{out}");
        // A heredoc body (an apostrophe in it opens nothing), then code again; a shift
        // (`list << x`) and `class << self` are no heredocs.
        let src = "msg = <<~EOS.strip\n  it's done\nEOS\nexpect(msg).to eq(1)\nlist << x\nclass << self\nend\n";
        let out = strip(src.as_bytes(), &RUBY);
        assert!(!out.contains("done"), "{out}");
        assert!(
            out.contains("expect(msg).to eq(1)\nlist << x\nclass << self"),
            "{out}"
        );
        let (_, strings) = strip_with_strings(src.as_bytes(), &RUBY);
        assert!(
            strings
                .iter()
                .any(|r| &src[r.clone()] == "  it's done\nEOS"),
            "{strings:?}"
        );
        // A heredoc whose terminator never comes is read as code.
        let src = "x = <<EOS\nexpect(a).to eq(1)\n";
        assert_eq!(strip(src.as_bytes(), &RUBY), src);
    }

    #[test]
    fn ruby_percent_literal_first_on_its_line_after_a_call() {
        // After `)` on the line before, `%r{…}` starts a statement: a literal.
        let src = "if v <= f('3.2')\n  %r{method `x' for}\nelse\n  'y'\nend\nskip\n";
        let out = strip(src.as_bytes(), &RUBY);
        assert!(
            !out.contains("method") && out.ends_with("end\nskip\n"),
            "{out}"
        );
    }

    #[test]
    fn ruby_division_by_a_local_is_not_a_literal_hiding_code() {
        let src = "n = 4\nm = n /2; skip; x = 3/1\nk = n %(2); pending; y = (1)\n";
        let out = strip(src.as_bytes(), &RUBY);
        assert!(out.contains("skip") && out.contains("pending"), "{out}");
        // A multiple or compound assignment, an instance variable, a `;` in the "regex".
        for src in [
            "w, h = size\nr = w /h; skip; q = r/2\n",
            "@w ||= 1920\nh = @w /2; skip; t = @w/3\n",
            "n ||= 2\nh = n /2; skip; t = n/3\n",
            "h = width /2; skip; t = width/3\n",
        ] {
            let out = strip(src.as_bytes(), &RUBY);
            assert!(out.contains("skip"), "{out}");
        }
    }

    #[test]
    fn unterminated_and_binary_input_never_panics() {
        for syntax in [PYTHON, RUST, JAVASCRIPT, GO, JAVA, RUBY, CSHARP] {
            for src in [
                &b"\"abc"[..],
                b"/* open",
                b"r#\"x",
                b"'",
                b"'\\",
                b"\xff\xfe\x00'\xc3",
                b"`",
                b"x = %w[a",
                b"%",
                b"%q",
                b"x(/a",
            ] {
                let out = strip(src, &syntax);
                assert_eq!(out.len(), src.len());
            }
        }
    }
}
