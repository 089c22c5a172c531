//! The text of one version of a file: its code with comments and strings blanked
//! (`lexer`), its lines, and the literal strings read back; and the walks over blanked
//! code the model and the unit finders share (brackets, blocks, a statement's end,
//! tables).

use std::ops::Range;

use super::lexer;
use super::rules::Language;

/// The source and its blanked code, with line offsets.
pub struct Source<'a> {
    /// The file as committed.
    pub raw: &'a [u8],
    /// Comments and strings blanked (same length, same lines).
    pub code: String,
    strings: Vec<Range<usize>>,
    lines: Vec<usize>,
}

impl<'a> Source<'a> {
    /// Lexes `raw`.
    pub fn new(raw: &'a [u8], language: Language) -> Source<'a> {
        let (code, strings) = lexer::strip_with_strings(raw, language.syntax());
        let lines = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', code.as_bytes()).map(|i| i + 1))
            .collect();
        Source {
            raw,
            code,
            strings,
            lines,
        }
    }

    /// How a row of a table reads, to tell copies apart: `part` (a slice of `code`)
    /// with its spacing squeezed, then each of its string literals exactly as written
    /// (`"a, b"` and `"a,b"` are different rows; `(1,2)` and `(1, 2)` are not).
    pub(super) fn row_key(&self, part: &[u8]) -> String {
        let Some(start) = (part.as_ptr() as usize)
            .checked_sub(self.code.as_ptr() as usize)
            .filter(|s| s + part.len() <= self.code.len())
        else {
            return String::from_utf8_lossy(part).into_owned();
        };
        let end = start + part.len();
        let mut key = super::checks::squeeze(&self.code[start..end]);
        let first = self.strings.partition_point(|s| s.end <= start);
        for s in self.strings[first..].iter().take_while(|s| s.start < end) {
            key.push('\u{0}');
            key.push_str(&String::from_utf8_lossy(
                &self.raw[s.start.max(start)..s.end.min(end)],
            ));
        }
        key
    }

    pub(super) fn b(&self) -> &[u8] {
        self.code.as_bytes()
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, pos: usize) -> usize {
        self.lines.partition_point(|&s| s <= pos).saturating_sub(1)
    }

    pub(super) fn line_start(&self, line: usize) -> usize {
        self.lines.get(line).copied().unwrap_or(self.code.len())
    }

    /// The offset of the newline ending `line` (or the end of the text).
    pub fn line_end(&self, line: usize) -> usize {
        self.lines
            .get(line + 1)
            .map_or(self.code.len(), |&s| s.saturating_sub(1))
    }

    /// The number of lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The code of `line`.
    pub fn line_text(&self, line: usize) -> &str {
        let (s, e) = (self.line_start(line), self.line_end(line));
        self.code.get(s..e.max(s)).unwrap_or("")
    }

    /// The indentation of a line in columns (a tab to the next multiple of 8, as
    /// Python reads it: a tab-indented line inside a space-indented block stays in
    /// it), `None` for a blank one.
    pub(super) fn indent(&self, line: usize) -> Option<usize> {
        let t = self.line_text(line);
        let trimmed = t.trim_start();
        (!trimmed.trim_end().is_empty()).then(|| {
            t[..t.len() - trimmed.len()].bytes().fold(0, |col, c| {
                if c == b'\t' { col / 8 * 8 + 8 } else { col + 1 }
            })
        })
    }

    /// The code in `r` with string literals read back from the source (their brackets
    /// and commas replaced, so that bracket matching on the result stays right).
    pub fn text(&self, r: Range<usize>) -> String {
        let mut out = String::with_capacity(r.len());
        let mut pos = r.start;
        let first = self.strings.partition_point(|s| s.end <= r.start);
        for s in &self.strings[first..] {
            if s.start >= r.end {
                break;
            }
            let (a, b) = (s.start.max(r.start), s.end.min(r.end));
            out.push_str(&self.code[pos.min(a)..a]);
            for ch in String::from_utf8_lossy(&self.raw[a..b]).chars() {
                out.push(match ch {
                    '(' => '❨',
                    ')' => '❩',
                    '[' => '⟦',
                    ']' => '⟧',
                    '{' => '❴',
                    '}' => '❵',
                    ',' => '‚',
                    c => c,
                });
            }
            pos = b;
        }
        if pos < r.end {
            out.push_str(&self.code[pos..r.end]);
        }
        out
    }

    /// The source line `line`, trimmed and shortened for a message.
    pub fn shown(&self, line: usize) -> String {
        let Some(text) = self.raw.split(|&b| b == b'\n').nth(line) else {
            return String::new();
        };
        let text = String::from_utf8_lossy(text);
        let text = text.trim();
        let mut shown: String = text.chars().take(80).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        shown
    }

    /// The literal starting at `pos`, if one does.
    pub(super) fn string_at(&self, pos: usize) -> Option<Range<usize>> {
        let i = self.strings.partition_point(|s| s.start < pos);
        self.strings.get(i).filter(|s| s.start == pos).cloned()
    }

    /// The `//` and `/* */` comments that start in `r`, in order, each from its marker
    /// to its end (a line comment without its newline): read where a comment is a check
    /// (a Go example's `// Output:`).
    pub(super) fn comments_in(&self, r: Range<usize>) -> Vec<Range<usize>> {
        let (raw, code) = (self.raw, self.b());
        let end = r.end.min(code.len());
        let mut s = self.strings.partition_point(|x| x.end <= r.start);
        let mut out = Vec::new();
        let mut i = r.start;
        while let Some(at) = memchr::memchr(b'/', &raw[i.min(end)..end]).map(|p| p + i) {
            i = at + 1;
            let next = raw.get(at + 1).copied();
            // Blanked and outside any literal: a comment opens here.
            if code[at] != b' ' || !matches!(next, Some(b'/' | b'*')) {
                continue;
            }
            while self.strings.get(s).is_some_and(|x| x.end <= at) {
                s += 1;
            }
            if self.strings.get(s).is_some_and(|x| x.start <= at) {
                continue;
            }
            let close = if next == Some(b'/') {
                memchr::memchr(b'\n', &raw[at..]).map_or(raw.len(), |n| at + n)
            } else {
                memchr::memmem::find(&raw[at + 2..], b"*/").map_or(raw.len(), |n| at + n + 4)
            };
            out.push(at..close);
            i = close;
        }
        out
    }

    /// The end (exclusive) of the bracket group opening at `open`.
    pub(super) fn close_of(&self, open: usize) -> usize {
        let b = self.b();
        matching_close(b, open).map_or(b.len(), |close| close + 1)
    }

    /// The innermost unclosed `{` before `pos`, if any.
    pub(super) fn enclosing_brace(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let mut depth = 0usize;
        for i in (0..pos.min(b.len())).rev() {
            match b[i] {
                b'}' | b')' | b']' => depth += 1,
                b'{' | b'(' | b'[' => {
                    if depth == 0 {
                        if b[i] == b'{' {
                            return Some(i);
                        }
                    } else {
                        depth -= 1;
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The region of the indented block whose header is `line` (header included).
    pub(super) fn indent_block(&self, line: usize) -> Range<usize> {
        let Some(indent) = self.indent(line) else {
            return self.line_start(line)..self.line_end(line);
        };
        // The header may continue over several lines (an open bracket).
        let mut depth = 0i32;
        let mut l = line;
        loop {
            for &c in self.line_text(l).as_bytes() {
                match c {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 || l + 1 >= self.line_count() {
                break;
            }
            l += 1;
        }
        let mut last = l;
        for next in l + 1..self.line_count() {
            match self.indent(next) {
                None => continue,
                Some(i) if i > indent => last = next,
                Some(i) => {
                    let t = self.line_text(next).trim();
                    // A Ruby block's own `rescue`/`ensure`/`else` clause at its indent
                    // continues it (`it "…" do … rescue E => e … skip … end`).
                    let word = t.split([' ', '(']).next().unwrap_or("");
                    if i == indent
                        && matches!(word, "rescue" | "ensure" | "else" | "elsif" | "when" | "in")
                    {
                        last = next;
                        continue;
                    }
                    // Ruby's `end` and a closing bracket belong to the block.
                    if t == "end"
                        || t.starts_with("end ")
                        || t.starts_with('}')
                        || t.starts_with(')')
                    {
                        last = next;
                    }
                    break;
                }
            }
        }
        self.line_start(line)..self.line_end(last)
    }
}

/// The indented block holding `line` (its header is the nearest line above indented
/// less), if `line` is not blank.
pub(super) fn enclosing_indent_block(src: &Source, line: usize) -> Option<Range<usize>> {
    let indent = src.indent(line)?;
    let header = (0..line)
        .rev()
        .find(|&l| src.indent(l).is_some_and(|i| i < indent))?;
    Some(src.indent_block(header))
}

/// Kotlin's calls that run their block only on a value that is there
/// (`System.getenv("CI")?.let { return }`).
pub(super) const KOTLIN_SCOPE_CALLS: &[&str] = &["?.let", "?.run", "?.also", "?.apply"];

/// Whether `text` starts with the word `w`.
pub(super) fn starts_with_word(text: &str, w: &str) -> bool {
    text.strip_prefix(w)
        .is_some_and(|r| r.is_empty() || !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// The words (identifiers) of a text.
pub(super) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

/// The bracket opening the group that closes at `close`.
pub(super) fn matching_open(code: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..=close.min(code.len().saturating_sub(1))).rev() {
        match code[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether only spaces or tabs (and an optional `await `, `export ` or `async `) come
/// before `pos` on its line: patterns find words anywhere (so that a literal prefix
/// makes them fast) and this keeps the ones that must start a line.
pub(super) fn at_line_start(code: &[u8], pos: usize) -> bool {
    let line_start = code[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = code[line_start..pos].trim_ascii();
    before.is_empty() || matches!(before, b"await" | b"export" | b"async")
}

/// Where a check starting at `start` (its pattern matched up to `matched`) ends.
pub(super) fn extent(code: &[u8], start: usize, matched: usize, language: Language) -> usize {
    let limit = code.len().min(start + 4096);
    let statement = language.indented();
    let mut depth = 0i32;
    let mut i = matched.max(start);
    // Ruby's `expect do … end.to raise_error(E)`: the block is part of the check.
    if language == Language::Ruby
        && let Some(end) = ruby_block_end(&code[..limit], start)
    {
        i = end;
    }
    // The matched prefix may have opened brackets.
    for &c in &code[start..i.min(limit)] {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    while i < limit {
        let c = code[i];
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return i;
                }
            }
            b';' if depth == 0 => return i,
            // (A Rust match arm's check ends at its comma: `Err(_) => assert!(…),`; a
            // check in a call's arguments, as JUnit's `assertAll(() -> assertEquals(…),
            // () -> …)`, at its own. Python's `assert x, "why"` and Ruby's bare
            // `assert_equal 1, x` go on.)
            b',' if depth == 0 && !statement => return i,
            b'\n' if depth <= 0 => {
                if statement {
                    if i > 0 && code[i - 1] == b'\\' {
                        i += 1;
                        continue;
                    }
                    // Ruby's leading-dot chain (`expect { … }` then `.to raise_error(E)`
                    // on the next line) is one statement.
                    let rest = code[i + 1..limit].trim_ascii_start();
                    if language == Language::Ruby
                        && rest.starts_with(b".")
                        && !rest.starts_with(b"..")
                    {
                        i += 1;
                        continue;
                    }
                    return i;
                }
                // A chain may continue on the next line (`.toBe(…)`).
                let next = code[i + 1..limit]
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .copied();
                let prev = code[start..i]
                    .iter()
                    .rev()
                    .find(|b| !b.is_ascii_whitespace())
                    .copied();
                let continues = next == Some(b'.')
                    || prev.is_some_and(|p| {
                        matches!(p, b'.' | b'(' | b',' | b'+' | b'&' | b'|' | b'=')
                    });
                if !continues {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    limit
}

/// For an `expect do` line at `start`: where the block's `end` ends. (Only `expect`:
/// the block of `assert_raises(E) do` may hold checks of its own.)
fn ruby_block_end(code: &[u8], start: usize) -> Option<usize> {
    let eol = memchr::memchr(b'\n', &code[start..]).map_or(code.len(), |e| start + e);
    let first = code[start..eol].trim_ascii_end();
    let words: Vec<&[u8]> = first
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words != [b"expect".as_slice(), b"do".as_slice()] {
        return None;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut depth = 1usize;
    let mut line_start = true;
    let mut i = eol;
    while i < code.len() {
        let c = code[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if word(c) && (i == 0 || !word(code[i - 1])) {
            let w_end = i + code[i..].iter().take_while(|&&b| word(b)).count();
            match &code[i..w_end] {
                b"do" => depth += 1,
                b"if" | b"unless" | b"while" | b"until" | b"case" | b"begin" | b"def"
                | b"class" | b"module"
                    if line_start =>
                {
                    depth += 1
                }
                b"end" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(w_end);
                    }
                }
                _ => {}
            }
            line_start = false;
            i = w_end;
            continue;
        }
        line_start = false;
        i += 1;
    }
    None
}

/// Rows of the table a Go test ranges over to check each row (`for _, tc := range
/// tests {` with a check or a `t.Run(` in the loop, which `checks` tells from the
/// loop's block), where `tests` is a literal in the function (`tests :=
/// []struct{…}{ {…}, {…} }`, a map literal) or the literal itself follows `range`.
/// `None` when there is no such loop or its table is not a literal here: the largest
/// list in the function ([`rows_in`]) may be an argument list (`cmd.Run(ctx,
/// []string{"app", "-v"})`), not the table.
///
/// Without subtests (`rows_only`), only a table of rows counts (`{…}` struct literals,
/// or map entries `"name": {…}`): a loop over plain values (`for _, h := range
/// headers { assert.NotContains(t, h, secret) }`) checks one input's parts.
pub(super) fn go_table_rows(
    src: &Source,
    function: &[u8],
    checks: &dyn Fn(&[u8]) -> bool,
    rows_only: bool,
) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = find(&function[from..], b"range ").map(|i| from + i) {
        from = at + 6;
        let word_before = at > 0 && is_word(function[at - 1]);
        if word_before {
            continue;
        }
        let rest = &function[from..];
        let skip = rest.len() - rest.trim_ascii_start().len();
        let start = from + skip;
        let name_len = function[start..]
            .iter()
            .take_while(|&&b| is_word(b))
            .count();
        // `range tests[:2] {`: only a slice of the table's rows runs.
        let slice = (name_len > 0)
            .then(|| function[start + name_len..].strip_prefix(b"["))
            .flatten()
            .and_then(|rest| {
                let close = rest.iter().position(|&b| b == b']')?;
                let (lo, hi) = std::str::from_utf8(&rest[..close]).ok()?.split_once(':')?;
                let bound = |t: &str| -> Option<Option<usize>> {
                    let t = t.trim();
                    if t.is_empty() {
                        Some(None)
                    } else {
                        t.parse().ok().map(Some)
                    }
                };
                let (lo, hi) = (bound(lo)?, bound(hi)?);
                rest[close + 1..]
                    .trim_ascii_start()
                    .starts_with(b"{")
                    .then_some((lo.unwrap_or(0), hi, close + 2))
            });
        let sliced = |rows: usize| match slice {
            Some((lo, hi, _)) => hi.unwrap_or(rows).min(rows).saturating_sub(lo),
            None => rows,
        };
        let (literal, body_open) = if name_len > 0
            && (slice.is_some()
                || function[start + name_len..]
                    .trim_ascii_start()
                    .starts_with(b"{"))
        {
            // `range tests {`: the table is assigned in the function.
            let name = &function[start..start + name_len];
            let open = start
                + name_len
                + function[start + name_len..]
                    .iter()
                    .position(|&b| b == b'{')?;
            (assigned_literal(&function[..at], name), open)
        } else {
            // `range []struct{…}{…} {`: the literal, then the loop's block.
            match value_group(&function[start..]) {
                Some((open, close)) => {
                    let after = start + close + 1;
                    let block = after + function[after..].iter().position(|&b| b == b'{')?;
                    (Some(&function[start + open..=start + close]), block)
                }
                None => (None, start),
            }
        };
        let body_end = matching_close(function, body_open).unwrap_or(function.len());
        let body = &function[body_open..body_end];
        if !checks(body) {
            continue;
        }
        let group = literal?;
        if rows_only && !rows_of_structs(group) {
            return None;
        }
        return Some(sliced(elements(src, group)));
    }
    None
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// The value braces of the literal assigned to `name` (`name := T{…}`, `name = T{…}`,
/// `var name = T{…}`), the last assignment before the loop.
fn assigned_literal<'c>(code: &'c [u8], name: &[u8]) -> Option<&'c [u8]> {
    let mut found = None;
    let mut from = 0;
    while let Some(at) = find(&code[from..], name).map(|i| from + i) {
        from = at + name.len();
        if (at > 0 && (is_word(code[at - 1]) || code[at - 1] == b'.'))
            || code.get(from).is_some_and(|&b| is_word(b))
        {
            continue;
        }
        let rest = code[from..].trim_ascii_start();
        let value = rest
            .strip_prefix(b":=")
            .or_else(|| rest.strip_prefix(b"=").filter(|r| !r.starts_with(b"=")));
        if let Some(value) = value {
            let offset = code.len() - value.len();
            found = value_group(value).map(|(o, c)| &code[offset + o..=offset + c]);
        }
    }
    found
}

/// The value braces of the composite literal `text` starts with (`[]struct{…}{…}` →
/// the second group; `struct` and `interface` braces belong to the type), as
/// (open, close) offsets; `None` when `text` does not start with a literal.
fn value_group(text: &[u8]) -> Option<(usize, usize)> {
    let text_start = text.len() - text.trim_ascii_start().len();
    let t = &text[text_start..];
    if !(t.starts_with(b"[]")
        || t.starts_with(b"map[")
        || t.first().is_some_and(|b| b.is_ascii_alphabetic()))
    {
        return None;
    }
    let mut i = text_start;
    while i < text.len() {
        match text[i] {
            b'{' => {
                let head = text[..i].trim_ascii_end();
                let close = matching_close(text, i)?;
                if head.ends_with(b"struct") || head.ends_with(b"interface") {
                    i = close + 1;
                    continue;
                }
                return Some((i, close));
            }
            b'[' => i = matching_close(text, i)? + 1,
            b'\n' | b';' | b'(' | b')' | b'=' => return None,
            _ => i += 1,
        }
    }
    None
}

/// The one part of `old` and `new` that differs, widened to whole words (`st.text()`
/// → `st.just("")` differs in `st.text()`, not in `text()`): where it is, old and new.
pub(super) fn difference(old: &str, new: &str) -> (Range<usize>, Range<usize>) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let most = a.len().min(b.len()) - start;
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':');
    while start > 0 && word(a[start - 1]) {
        start -= 1;
    }
    let (mut end_a, mut end_b) = (a.len() - tail, b.len() - tail);
    // (And whole calls: `st.text()` → `st.just("")` share their last `)`.)
    let open = |t: &[u8]| {
        let count = |c| t.iter().filter(|&&x| x == c).count();
        count(b'(') > count(b')')
    };
    while end_a < a.len()
        && end_b < b.len()
        && (word(a[end_a]) || open(&a[start..end_a]) || open(&b[start..end_b]))
    {
        end_a += 1;
        end_b += 1;
    }
    // (Whole characters: the bytes compared may stop inside one.)
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    while !old.is_char_boundary(end_a) || !new.is_char_boundary(end_b) {
        end_a += 1;
        end_b += 1;
    }
    (start..end_a, start..end_b)
}

/// The bracket closing the group that opens at `open` (the counterpart of
/// [`matching_open`]).
pub(super) fn matching_close(code: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in code.iter().enumerate().skip(open) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether every element of a bracket group is a struct literal (`{…}`, `&T{…}`,
/// `T{…}`) or a map entry (`"name": {…}`, `DebugLevel: "debug"`): a map ranged over
/// is a table whatever its values.
fn rows_of_structs(group: &[u8]) -> bool {
    let inner = &group[1..group.len().saturating_sub(1)];
    let mut depth = 0i32;
    let mut element: Vec<u8> = Vec::new();
    let mut all = true;
    let mut any = false;
    let mut judge = |e: &[u8]| {
        let e = e.trim_ascii();
        if e.is_empty() {
            return;
        }
        any = true;
        // A map entry: a `:` outside the key's brackets (`Level(-42): "Level(-42)"`).
        let mut nesting = 0i32;
        let entry = e.iter().any(|&b| {
            match b {
                b'(' | b'[' | b'{' => nesting += 1,
                b')' | b']' | b'}' => nesting -= 1,
                _ => {}
            }
            b == b':' && nesting == 0
        });
        if entry {
            return;
        }
        let value = e.strip_prefix(b"&").unwrap_or(e);
        let head = value.iter().take_while(|&&b| b != b'{').count();
        all &= head < value.len()
            && value[..head]
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    };
    for &b in inner {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                judge(&element);
                element.clear();
                continue;
            }
            _ => {}
        }
        element.push(b);
    }
    judge(&element);
    any && all
}

/// Elements of a bracket group (`{a, b, c,}` → 3).
pub(super) fn elements(src: &Source, group: &[u8]) -> usize {
    let inner = &group[1..group.len().saturating_sub(1)];
    let mut depth = 0i32;
    let mut rows: Vec<&[u8]> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &b) in inner.iter().enumerate() {
        if start.is_none() && !b.is_ascii_whitespace() && !(depth == 0 && b == b',') {
            start = Some(i);
        }
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => rows.extend(start.take().map(|s| &inner[s..i])),
            _ => {}
        }
    }
    rows.extend(start.map(|s| &inner[s..]));
    distinct_rows(rows.iter().map(|r| src.row_key(r)))
}

/// Rows of the largest literal table in `code`: a bracket group of two or more
/// elements that are all themselves bracketed or quoted.
pub(super) fn rows_in(code: &[u8]) -> usize {
    // (elements so far, all compound so far, expecting an element start)
    let mut stack: Vec<(usize, bool, bool)> = Vec::new();
    let mut best = 0;
    for &c in code {
        if let Some(top) = stack.last_mut()
            && top.2
            && !c.is_ascii_whitespace()
        {
            top.2 = false;
            if !matches!(c, b')' | b']' | b'}') {
                top.0 += 1;
                if !matches!(c, b'(' | b'[' | b'{' | b'"' | b'\'' | b'&') {
                    top.1 = false;
                }
            }
        }
        match c {
            b'(' | b'[' | b'{' => stack.push((0, true, true)),
            b')' | b']' | b'}' => {
                if let Some((n, compound, _)) = stack.pop()
                    && compound
                    && n >= 2
                {
                    best = best.max(n);
                }
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.2 = true;
                }
            }
            _ => {}
        }
    }
    best
}

/// Distinct elements of the first bracket list (`[…]` or `{…}`) at or after `from` in
/// `code` (a part of `src.code`): a row written twice runs the same case twice, so
/// removing the copy loses nothing.
pub(super) fn list_len(src: &Source, code: &[u8], from: usize) -> usize {
    let Some(open) = code[from..]
        .iter()
        .position(|&c| c == b'[' || c == b'{')
        .map(|i| from + i)
    else {
        return 1;
    };
    let mut depth = 0i32;
    let mut rows: Vec<&[u8]> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &c) in code.iter().enumerate().skip(open) {
        if start.is_none() && depth == 1 && !c.is_ascii_whitespace() && !matches!(c, b']' | b'}') {
            start = Some(i);
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    rows.extend(start.take().map(|s| &code[s..i]));
                    break;
                }
            }
            b',' if depth == 1 => rows.extend(start.take().map(|s| &code[s..i])),
            _ => {}
        }
    }
    distinct_rows(rows.iter().map(|r| src.row_key(r))).max(1)
}

/// How many different rows a table has, each read by [`Source::row_key`].
pub(super) fn distinct_rows(rows: impl Iterator<Item = String>) -> usize {
    let mut seen = std::collections::HashSet::new();
    rows.filter(|r| seen.insert(r.clone())).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_written_twice_is_one_case() {
        let src = Source::new(
            b"[(1, 2), (1,2), (3, 4), ('a', 1), ('b', 1)]",
            Language::Python,
        );
        assert_eq!(list_len(&src, src.b(), 0), 4);
        // Strings are compared as written, not as blanked.
        let src = Source::new(b"[\"\", \"12\", \"abc EUR\"]", Language::Go);
        assert_eq!(list_len(&src, src.b(), 0), 3);
        // Spacing inside a string is part of the row.
        let src = Source::new(
            b"[(\"a, b\", 2), (\"a,b\", 2), ( \"a,b\" ,2)]",
            Language::Python,
        );
        assert_eq!(list_len(&src, src.b(), 0), 2);
    }

    #[test]
    fn rows_of_tables() {
        assert_eq!(rows_in(b"[(1, 2), (3, 4), (5, 6)]"), 3);
        assert_eq!(rows_in(b"{ {\"a\", 1}, {\"b\", 2} }"), 2);
        assert_eq!(rows_in(b"f(a, b)"), 0);
    }
}
