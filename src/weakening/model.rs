//! One version of one file read as units: tests, the helpers they call, and runner
//! hooks (`setUp`, `TestMain`); each with the checks and skips inside or above it.
//!
//! Everything is read from code whose comments and strings are blanked (`lexer`), so
//! offsets are offsets in the source; the text of strings is read back only where a
//! name or a check's canonical text needs it.

use std::ops::Range;

use super::checks::{self, Strength};
use super::lexer;
use super::rules::{Language, Rules};

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

    fn b(&self) -> &[u8] {
        self.code.as_bytes()
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, pos: usize) -> usize {
        self.lines.partition_point(|&s| s <= pos).saturating_sub(1)
    }

    fn line_start(&self, line: usize) -> usize {
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

    /// The indentation of a line, `None` for a blank one.
    fn indent(&self, line: usize) -> Option<usize> {
        let t = self.line_text(line);
        let trimmed = t.trim_start();
        (!trimmed.trim_end().is_empty()).then(|| t.len() - trimmed.len())
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
    fn string_at(&self, pos: usize) -> Option<Range<usize>> {
        let i = self.strings.partition_point(|s| s.start < pos);
        self.strings.get(i).filter(|s| s.start == pos).cloned()
    }

    /// The end (exclusive) of the bracket group opening at `open`.
    fn close_of(&self, open: usize) -> usize {
        let b = self.b();
        let mut depth = 0usize;
        for (i, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        b.len()
    }

    /// The innermost unclosed `{` before `pos`, if any.
    fn enclosing_brace(&self, pos: usize) -> Option<usize> {
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
    fn indent_block(&self, line: usize) -> Range<usize> {
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

/// What a unit is to the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A test the runner collects.
    Test,
    /// A function tests may call.
    Helper,
    /// A hook that runs around tests (`setUp`, `TestMain`, `@BeforeEach`): a skip in it
    /// skips every test it runs for.
    Runner,
}

/// A test, helper or runner hook.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Qualified name (class or suite, then the test).
    pub name: String,
    /// The name alone.
    pub leaf: String,
    /// What it is.
    pub role: Role,
    /// The 0-based line of its name.
    pub line: usize,
    /// Head (decorators, attributes) to end.
    pub span: Range<usize>,
    /// Cases it runs (parametrised rows, table rows with subtests); at least 1.
    pub cases: usize,
    /// For a test redefined later in the same scope: the line of the redefinition.
    pub shadowed_by: Option<usize>,
    /// For a runner hook: the region whose tests it runs for (`None`: the file).
    pub scope: Option<Range<usize>>,
    /// Skips in or above it, or governing it (indices into `Model::skips`).
    pub skips: Vec<usize>,
    /// Checks inside it (indices into `Model::checks`).
    pub checks: Vec<usize>,
}

/// How a skip skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipKind {
    /// Under a condition (a platform, an assumption, an `if`).
    Conditional,
    /// Always.
    Unconditional,
    /// The test passes when it fails (`#[should_panic]`, `except AssertionError`).
    Inverting,
}

/// A skip marker.
#[derive(Debug, Clone)]
pub struct Skip {
    /// Where it starts.
    pub pos: usize,
    /// Its 0-based line.
    pub line: usize,
    /// Its text, squeezed (for comparing).
    pub text: String,
    /// How it skips.
    pub kind: SkipKind,
}

/// A check: its extent in the code.
#[derive(Debug, Clone)]
pub struct Check {
    /// The text it spans.
    pub span: Range<usize>,
    /// Its 0-based line.
    pub line: usize,
}

/// One version of a file, read.
pub struct Model<'a> {
    /// The source.
    pub src: Source<'a>,
    /// Its language.
    pub language: Language,
    /// Tests, helpers and runner hooks, in order of position.
    pub units: Vec<Unit>,
    /// Every skip marker.
    pub skips: Vec<Skip>,
    /// Every check.
    pub checks: Vec<Check>,
    /// Checks outside any unit.
    pub loose_checks: Vec<usize>,
    /// Skips that govern no test (compared as file-level markers).
    pub file_skips: Vec<usize>,
}

impl<'a> Model<'a> {
    /// Reads `raw` as `rules.language`.
    pub fn new(raw: &'a [u8], rules: &Rules) -> Model<'a> {
        let language = rules.language;
        let src = Source::new(raw, language);
        let mut units = match language {
            Language::Python => python_units(&src, rules),
            Language::Ruby => ruby_units(&src, rules),
            Language::JavaScript => javascript_units(&src, rules),
            Language::Rust | Language::Go | Language::Java | Language::CSharp => {
                brace_units(&src, rules)
            }
        };
        units.sort_by_key(|u| u.span.start);
        let mut model = Model {
            src,
            language,
            units,
            skips: Vec::new(),
            checks: Vec::new(),
            loose_checks: Vec::new(),
            file_skips: Vec::new(),
        };
        model.find_checks(rules);
        model.find_skips(rules);
        model.find_early_returns();
        model
    }

    /// The tests.
    pub fn tests(&self) -> impl Iterator<Item = (usize, &Unit)> {
        self.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.role == Role::Test)
    }

    /// The innermost unit whose span holds `pos`: tests first, then helpers and hooks.
    fn unit_at(&self, pos: usize) -> Option<usize> {
        let upto = self.units.partition_point(|u| u.span.start <= pos);
        let mut best: Option<usize> = None;
        for i in (0..upto).rev().take(64) {
            let u = &self.units[i];
            if u.role == Role::Test && u.span.contains(&pos) {
                return Some(i); // tests do not nest
            }
            if u.span.contains(&pos) {
                let better = match best {
                    None => true,
                    Some(b) => {
                        let cur = &self.units[b];
                        (u.role == Role::Test && cur.role != Role::Test)
                            || (u.role == cur.role && u.span.len() < cur.span.len())
                    }
                };
                if better {
                    best = Some(i);
                }
            }
        }
        best
    }

    fn find_checks(&mut self, rules: &Rules) {
        let code = self.src.b();
        let mut last_end = 0;
        let mut checks = Vec::new();
        for m in rules.checks.find_iter(code) {
            let mut start =
                m.start() + (m.as_bytes().len() - m.as_bytes().trim_ascii_start().len());
            // `.assertEqual(`: the receiver (`self`) belongs to the check.
            if code[start] == b'.' {
                while start > 0
                    && (code[start - 1].is_ascii_alphanumeric() || code[start - 1] == b'_')
                {
                    start -= 1;
                }
            }
            if start < last_end {
                continue; // inside the previous check (`expect.any(…)` in `toEqual(…)`)
            }
            if declares(code, start) {
                continue; // `void assertValid(…) {`: a helper's name, not a call
            }
            if self.language == Language::Python
                && m.as_bytes() == b"assert"
                && !at_line_start(code, start)
            {
                continue;
            }
            let end = extent(code, start, m.end(), self.language);
            last_end = end;
            checks.push(Check {
                span: start..end,
                line: self.src.line_of(start),
            });
        }
        for (i, c) in checks.iter().enumerate() {
            match self.unit_at(c.span.start) {
                Some(u) => self.units[u].checks.push(i),
                None => self.loose_checks.push(i),
            }
        }
        self.checks = checks;
    }

    fn find_skips(&mut self, rules: &Rules) {
        let code = self.src.b();
        let mut skips = Vec::new();
        for m in rules.skips.find_iter(code) {
            let start = m.start() + (m.as_bytes().len() - m.as_bytes().trim_ascii_start().len());
            let text = String::from_utf8_lossy(&code[start..m.end()]).into_owned();
            let statement = match self.language {
                Language::Python => text.starts_with('@') || text.starts_with("skip"),
                Language::JavaScript => text.starts_with("skip") && !text.contains(':'),
                _ => false,
            };
            if statement && !at_line_start(code, start) {
                continue;
            }
            let line = self.src.line_of(start);
            let mut full = text.clone();
            if self.language == Language::Rust && text.starts_with('#') {
                let end = self.src.close_of(start + text.find('[').unwrap_or(0));
                full = checks::squeeze(&self.src.code[start..end.min(code.len())]);
                if full == "#[cfg(test)]" || full == "#![cfg(test)]" {
                    continue;
                }
            }
            let context = self.skip_context(line);
            let kind = if rules.inverting.is_match(full.as_bytes()) {
                SkipKind::Inverting
            } else if rules.conditional.is_match(full.as_bytes())
                || (self.language == Language::Rust
                    && full.starts_with("#[cfg(")
                    && !full.contains("any()")
                    && !full.contains("FALSE"))
                || context
                || (self.language == Language::Python
                    && text.starts_with('@')
                    && !matches!(
                        text.trim_start_matches('@'),
                        "pytest.mark.skip" | "unittest.skip" | "pytest.mark.xfail" | "skip"
                    )
                    && !text.contains("expectedFailure"))
            {
                SkipKind::Conditional
            } else {
                SkipKind::Unconditional
            };
            skips.push(Skip {
                pos: start,
                line,
                text: checks::squeeze(&full),
                kind,
            });
        }
        if self.language == Language::Go {
            skips.extend(go_build_constraints(&self.src));
        }
        if self.language == Language::Ruby {
            skips.extend(self.ruby_suite_exits());
        }
        for (i, skip) in skips.iter().enumerate() {
            self.attach_skip(i, skip.pos);
        }
        self.skips = skips;
    }

    /// Whether a call-style skip on `line` sits under an `if` (same or previous line).
    fn skip_context(&self, line: usize) -> bool {
        let own = self.src.line_text(line).trim_start();
        if own.starts_with("if ")
            || own.starts_with("if(")
            || own.contains(" if ")
            || own.contains(" unless ")
        {
            return true;
        }
        (0..line)
            .rev()
            .find(|&l| self.src.indent(l).is_some())
            .is_some_and(|l| {
                let t = self.src.line_text(l).trim();
                (t.starts_with("if ")
                    || t.starts_with("if(")
                    || t.starts_with("elif ")
                    || t.starts_with("} else if")
                    || t.starts_with("unless "))
                    && (t.ends_with(':') || t.ends_with('{') || !self.language.indented())
            })
    }

    fn attach_skip(&mut self, index: usize, pos: usize) {
        // `const describeIf = cond ? describe : describe.skip`: the skip governs the
        // suites declared through that name, not the file.
        if self.language == Language::JavaScript
            && self.unit_at(pos).is_none()
            && let Some(regions) = self.skip_alias_regions(pos)
        {
            let mut any = false;
            for unit in self.units.iter_mut().filter(|u| u.role == Role::Test) {
                if regions.iter().any(|r| r.contains(&unit.span.start)) {
                    unit.skips.push(index);
                    any = true;
                }
            }
            if !any {
                self.file_skips.push(index);
            }
            return;
        }
        let governed: Option<Range<usize>> = match self.unit_at(pos) {
            Some(u) if self.units[u].role != Role::Runner => {
                self.units[u].skips.push(index);
                return;
            }
            Some(u) => self.units[u].scope.clone(),
            None => self.governed_region(pos),
        };
        let mut any = false;
        for unit in self.units.iter_mut().filter(|u| u.role == Role::Test) {
            if governed
                .as_ref()
                .is_none_or(|g| g.contains(&unit.span.start))
            {
                unit.skips.push(index);
                any = true;
            }
        }
        if !any {
            self.file_skips.push(index);
        }
    }

    /// `next` (or `return`) in a `describe` block outside any test: the tests after it
    /// are never defined when it runs (`next if RUBY_ENGINE == "jruby"`).
    fn ruby_suite_exits(&self) -> Vec<Skip> {
        let mut out = Vec::new();
        for line in 0..self.src.line_count() {
            let t = self.src.line_text(line).trim();
            let exit = ["next", "return"].iter().any(|w| {
                t.strip_prefix(w).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with(" if ") || rest.starts_with(" unless ")
                })
            });
            let pos = self.src.line_start(line)
                + (self.src.line_text(line).len() - self.src.line_text(line).trim_start().len());
            if !exit || self.unit_at(pos).is_some() {
                continue;
            }
            let guarded = t.contains(" if ")
                || t.contains(" unless ")
                || (0..line).rev().find_map(|l| {
                    let p = self.src.line_text(l).trim();
                    (!p.is_empty()).then(|| p.starts_with("if ") || p.starts_with("unless "))
                }) == Some(true);
            out.push(Skip {
                pos,
                line,
                text: t.to_string(),
                kind: if guarded {
                    SkipKind::Conditional
                } else {
                    SkipKind::Unconditional
                },
            });
        }
        out
    }

    /// The innermost indented block around `line` that holds tests after `pos`.
    fn suite_after(&self, line: usize, pos: usize) -> Option<Range<usize>> {
        let mut at = line;
        loop {
            let block = enclosing_indent_block(&self.src, at)?;
            if self.units.iter().any(|u| {
                u.role == Role::Test && block.contains(&u.span.start) && u.span.start > pos
            }) {
                return Some(pos..block.end);
            }
            at = self.src.line_of(block.start);
            if at == 0 {
                return None;
            }
        }
    }

    /// For a skip assigned to a name (`var describeP = ok ? describe : describe.skip`),
    /// the calls through that name (`describeP('…', function () { … })`).
    fn skip_alias_regions(&self, pos: usize) -> Option<Vec<Range<usize>>> {
        // The statement may start a line or two above (`var d = cond\n  ? describe\n  : describe.skip`).
        let at = self.src.line_of(pos);
        let open_statement = |l: usize| {
            let t = self.src.line_text(l).trim_end();
            !(t.ends_with(';') || t.ends_with('}') || t.ends_with(')'))
        };
        let rest = (at.saturating_sub(2)..=at).rev().find_map(|l| {
            if l < at && !(l..at).all(open_statement) {
                return None;
            }
            let line = self.src.line_text(l).trim_start();
            ["var ", "let ", "const "]
                .iter()
                .find_map(|k| line.strip_prefix(k))
        })?;
        let name_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$'))
            .count();
        let name = &rest[..name_len];
        if name.is_empty() || !rest[name_len..].trim_start().starts_with('=') {
            return None;
        }
        let code = self.src.b();
        let call = format!("{name}(");
        let mut regions = Vec::new();
        let mut from = 0;
        while let Some(at) = self.src.code[from..].find(&call).map(|i| i + from) {
            from = at + call.len();
            let word_before =
                at > 0 && (code[at - 1].is_ascii_alphanumeric() || code[at - 1] == b'_');
            if !word_before {
                regions.push(at..extent(code, at, at + call.len(), self.language));
            }
        }
        Some(regions)
    }

    /// The region a skip outside any unit governs (`None`: the whole file).
    fn governed_region(&self, pos: usize) -> Option<Range<usize>> {
        let line = self.src.line_of(pos);
        let text = self.src.line_text(line).trim_start();
        if self.language == Language::Ruby
            && (text.starts_with("next") || text.starts_with("return"))
        {
            return Some(self.suite_after(line, pos).unwrap_or(pos..pos));
        }
        let has_test = |r: &Range<usize>| {
            self.units
                .iter()
                .any(|u| u.role == Role::Test && r.contains(&u.span.start))
        };
        let decorator = text.starts_with('@')
            || (text.starts_with("#[") && !text.starts_with("#!["))
            || (text.starts_with('[') && self.language == Language::CSharp);
        if decorator {
            return Some(self.next_item(pos, line));
        }
        // A call that wraps tests (`describe.skip(…)`, `xdescribe "…" do`).
        let call = if self.language.indented() {
            self.src.indent_block(line)
        } else {
            pos..extent(self.src.b(), pos, pos, self.language)
        };
        if has_test(&call) {
            return Some(call);
        }
        // A statement: the innermost enclosing block with tests in it.
        if self.language.indented() {
            let mut l = line;
            let mut indent = self.src.indent(line).unwrap_or(0);
            while indent > 0 {
                let Some(header) = (0..l)
                    .rev()
                    .find(|&h| self.src.indent(h).is_some_and(|i| i < indent))
                else {
                    break;
                };
                let block = self.src.indent_block(header);
                if has_test(&block) {
                    return Some(block);
                }
                l = header;
                indent = self.src.indent(header).unwrap_or(0);
            }
            None
        } else {
            let mut at = pos;
            while let Some(open) = self.src.enclosing_brace(at) {
                let block = open..self.src.close_of(open);
                if has_test(&block) {
                    return Some(block);
                }
                at = open;
            }
            None
        }
    }

    /// The item a decorator or attribute at `pos` applies to.
    fn next_item(&self, pos: usize, line: usize) -> Range<usize> {
        if self.language.indented() {
            let indent = self.src.indent(line).unwrap_or(0);
            for l in line + 1..self.src.line_count() {
                let Some(i) = self.src.indent(l) else {
                    continue;
                };
                let t = self.src.line_text(l).trim_start();
                if i == indent && !t.starts_with('@') && !t.starts_with(')') && !t.starts_with(']')
                {
                    return self.src.indent_block(l);
                }
                if i < indent {
                    break;
                }
            }
            return pos..pos;
        }
        let b = self.src.b();
        let mut depth = 0i32;
        for (i, &c) in b.iter().enumerate().skip(pos) {
            match c {
                // A macro item (`rgtest!(name, |…| { … });`): the attribute is on it.
                b'(' if depth <= 0 && i > 0 && b[i - 1] == b'!' => {
                    return pos..self.src.close_of(i);
                }
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth <= 0 => return pos..pos,
                b'{' if depth <= 0 => return pos..self.src.close_of(i),
                _ => {}
            }
        }
        pos..pos
    }

    /// A `return` at the top level of a test's body before its last check skips the
    /// checks after it.
    fn find_early_returns(&mut self) {
        let mut extra = Vec::new();
        for (ui, unit) in self.units.iter().enumerate() {
            if unit.role != Role::Test {
                continue;
            }
            let Some(&last) = unit.checks.last() else {
                continue;
            };
            let last_pos = self.checks[last].span.start;
            let body = &self.src.code[unit.span.start..last_pos];
            let Some(found) = memchr::memmem::find_iter(body.as_bytes(), b"return")
                .map(|i| unit.span.start + i)
                .find(|&at| self.is_top_level_return(unit, at))
            else {
                continue;
            };
            extra.push((ui, found));
        }
        for (ui, at) in extra {
            let index = self.skips.len();
            self.skips.push(Skip {
                pos: at,
                line: self.src.line_of(at),
                text: "return".into(),
                kind: SkipKind::Unconditional,
            });
            self.units[ui].skips.push(index);
        }
    }

    fn is_top_level_return(&self, unit: &Unit, at: usize) -> bool {
        let b = self.src.b();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if (at > 0 && word(b[at - 1])) || b.get(at + 6).is_some_and(|&c| word(c)) {
            return false;
        }
        let line = self.src.line_of(at);
        let text = self.src.line_text(line);
        if text.trim_start().as_ptr() as usize - text.as_ptr() as usize
            != at - self.src.line_start(line)
        {
            return false; // not the first word of its line
        }
        if self.language.indented() {
            // At the body's own indentation: the first code line after the header.
            let header = self.src.line_of(self.def_pos(unit));
            let body_indent = (header + 1..=line).find_map(|l| self.src.indent(l));
            body_indent == self.src.indent(line)
        } else {
            // Directly inside the test's outermost braces.
            let Some(open) = self.src.enclosing_brace(at) else {
                return false;
            };
            let outer = self.src.enclosing_brace(open);
            open >= unit.span.start
                && outer.is_none_or(|o| o < unit.span.start)
                && self.language != Language::JavaScript
                || (self.language == Language::JavaScript
                    && outer.is_some_and(|o| {
                        o < unit.span.start
                            || self
                                .src
                                .enclosing_brace(o)
                                .is_none_or(|oo| oo < unit.span.start)
                    }))
        }
    }

    fn def_pos(&self, unit: &Unit) -> usize {
        self.src.line_start(unit.line)
    }

    /// Whether the check `index` sits inside a loop of its unit.
    pub fn in_loop(&self, unit: &Unit, index: usize) -> bool {
        self.checks
            .get(index)
            .is_some_and(|c| self.in_loop_at(unit, c.span.start))
    }

    /// Whether `pos` sits inside a loop of its unit.
    pub fn in_loop_at(&self, unit: &Unit, pos: usize) -> bool {
        let line = self.src.line_of(pos);
        if self.language.indented() {
            let mut indent = self.src.indent(line).unwrap_or(0);
            let first = self.src.line_of(unit.span.start);
            for l in (first..line).rev() {
                let Some(i) = self.src.indent(l) else {
                    continue;
                };
                if i < indent {
                    let t = self.src.line_text(l).trim_start();
                    if t.starts_with("for ") || t.starts_with("while ") || t.contains(".each") {
                        return true;
                    }
                    indent = i;
                }
            }
            false
        } else {
            let mut at = pos;
            while let Some(open) = self.src.enclosing_brace(at) {
                if open < unit.span.start {
                    break;
                }
                // The statement that opens the block may start lines above, before a
                // table literal (`for _, v := range []struct{…}{…} {`).
                let mut head = open;
                let b = self.src.b();
                loop {
                    let before = b[..head].trim_ascii_end();
                    match before.last() {
                        Some(b'}' | b')' | b']') if before.len() > unit.span.start => {
                            match matching_open(b, before.len() - 1) {
                                Some(o) if o >= unit.span.start => head = o,
                                _ => break,
                            }
                        }
                        _ => break,
                    }
                }
                let header_line = self.src.line_of(head);
                let header = &self.src.code[self.src.line_start(header_line)..open];
                let h = header.trim_start();
                if h.starts_with("for ")
                    || h.starts_with("for(")
                    || h.starts_with("while")
                    || header.contains(".forEach(")
                    || header.contains(".each(")
                    || header.contains(".map(")
                    || header.contains(".Run(")
                {
                    return true;
                }
                at = open;
            }
            false
        }
    }

    /// Rows of the largest table in a unit (a literal list of tuples, structs or
    /// arrays with two or more rows), or 1.
    pub fn rows(&self, unit: &Unit) -> usize {
        rows_in(&self.src.b()[unit.span.clone()]).max(1)
    }

    /// The canonical text of a check, and its strength.
    pub fn check_key(&self, index: usize, rules: &Rules) -> (String, Strength) {
        let check = &self.checks[index];
        let text = if self.language == Language::Go
            && !self.src.code[check.span.clone()].starts_with("assert")
            && !self.src.code[check.span.clone()].starts_with("require")
        {
            format!("t.Error({})", self.go_condition(check.span.start))
        } else {
            self.src.text(check.span.clone())
        };
        let key = checks::canonical(&text, rules);
        let strength = checks::strength(&key, rules);
        (key, strength)
    }

    /// The condition of the `if` whose block holds `pos` (Go's `if got != want {`).
    fn go_condition(&self, pos: usize) -> String {
        let Some(open) = self.src.enclosing_brace(pos) else {
            return String::new();
        };
        let line = self.src.line_of(open);
        let header = self.src.text(self.src.line_start(line)..open);
        let header = header.trim();
        let Some(cond) = header
            .strip_prefix("if ")
            .or_else(|| header.strip_prefix("} else if "))
        else {
            return checks::squeeze(header);
        };
        checks::squeeze(cond)
    }

    /// The function a check calls, when the check is a plain call (`assertValid(x)`).
    pub fn check_callee(&self, index: usize) -> Option<&str> {
        let span = &self.checks[index].span;
        let text = &self.src.code[span.clone()];
        let end = text.find('(')?;
        let name = text[..end].trim_end();
        name.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            .then_some(name)
            .filter(|n| !n.is_empty())
    }

    /// Names called in a unit (`name(`) outside its own checks, for following checks
    /// into helpers.
    pub fn calls(&self, unit: &Unit) -> Vec<&str> {
        let mut out = self.all_calls(unit);
        out.retain(|&(_, at)| {
            !unit
                .checks
                .iter()
                .any(|&c| self.checks[c].span.contains(&at))
        });
        let mut names: Vec<&str> = out.into_iter().map(|(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Each call of `name` in a unit, as squeezed text (`assertNoErr(t,c.Execute())`),
    /// made as a helper call: unqualified, or on `self`/`this`/`super`. (A method of
    /// another object, `validator.Validate(…)`, is the code under test.)
    pub fn call_texts(&self, unit: &Unit, name: &str) -> Vec<String> {
        let b = self.src.b();
        let helper_call = |at: usize| -> bool {
            let mut j = at;
            while j > 0 && b[j - 1] == b' ' {
                j -= 1;
            }
            if j == 0 || b[j - 1] != b'.' {
                return true;
            }
            let end = j - 1;
            let mut k = end;
            while k > 0 && (b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_') {
                k -= 1;
            }
            matches!(
                &b[k..end],
                b"self" | b"this" | b"super" | b"cls" | b"s" | b"suite"
            )
        };
        self.all_calls(unit)
            .into_iter()
            .filter(|&(n, at)| n == name && helper_call(at))
            .map(|(_, at)| {
                let end = extent(self.src.b(), at, at + name.len(), self.language);
                checks::squeeze(&self.src.text(at..end.max(at)))
            })
            .collect()
    }

    fn all_calls(&self, unit: &Unit) -> Vec<(&str, usize)> {
        let b = self.src.b();
        let mut out = Vec::new();
        let span = unit.span.clone();
        let mut i = span.start;
        while i < span.end {
            if b[i] == b'(' {
                let mut j = i;
                while j > span.start && b[j - 1] == b' ' {
                    j -= 1;
                }
                let end = j;
                while j > span.start && (b[j - 1].is_ascii_alphanumeric() || b[j - 1] == b'_') {
                    j -= 1;
                }
                if j < end {
                    out.push((&self.src.code[j..end], j));
                }
            } else if self.language == Language::Ruby
                && (b[i].is_ascii_alphabetic() || b[i] == b'_')
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            {
                // Ruby calls need no parentheses.
                let mut j = i;
                while j < span.end && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                out.push((&self.src.code[i..j], i));
                i = j;
                continue;
            }
            i += 1;
        }
        out
    }
}

/// Whether the name at `start` is being declared: the word before it is a type or a
/// keyword that declares (`void`, `def`, `fn`, `func`, `fun`, a return type).
fn declares(code: &[u8], start: usize) -> bool {
    let line_start = code[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = code[line_start..start].trim_ascii_end();
    let word_start = before
        .iter()
        .rposition(|&b| {
            !(b.is_ascii_alphanumeric() || b == b'_' || b == b'>' || b == b'<' || b == b'?')
        })
        .map_or(0, |i| i + 1);
    let word = &before[word_start..];
    if word.is_empty() || before.len() == start - line_start {
        return false; // nothing, or no space: `x.assertFoo`, `(assertFoo`
    }
    !matches!(
        word,
        b"return"
            | b"await"
            | b"yield"
            | b"else"
            | b"not"
            | b"and"
            | b"or"
            | b"in"
            | b"new"
            | b"throw"
            | b"assert"
            | b"do"
            | b"then"
            | b"try"
            | b"unless"
            | b"if"
            | b"go"
            | b"defer"
            | b"with"
            | b"using"
    )
}

/// Whether only spaces or tabs (and an optional `await `, `export ` or `async `) come
/// before `pos` on its line: patterns find words anywhere (so that a literal prefix
/// makes them fast) and this keeps the ones that must start a line.
fn at_line_start(code: &[u8], pos: usize) -> bool {
    let line_start = code[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = code[line_start..pos].trim_ascii();
    before.is_empty() || matches!(before, b"await" | b"export" | b"async")
}

/// Where a check starting at `start` (its pattern matched up to `matched`) ends.
fn extent(code: &[u8], start: usize, matched: usize, language: Language) -> usize {
    let limit = code.len().min(start + 4096);
    let statement = language.indented();
    let mut depth = 0i32;
    let mut i = matched.max(start);
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
            b'\n' if depth <= 0 => {
                if statement {
                    if i > 0 && code[i - 1] == b'\\' {
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

/// Rows of the largest literal table in `code`: a bracket group of two or more
/// elements that are all themselves bracketed or quoted.
fn rows_in(code: &[u8]) -> usize {
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

/// Elements of the first bracket list (`[…]` or `{…}`) at or after `from`.
fn list_len(code: &[u8], from: usize) -> usize {
    let Some(open) = code[from..]
        .iter()
        .position(|&c| c == b'[' || c == b'{')
        .map(|i| from + i)
    else {
        return 1;
    };
    let mut depth = 0i32;
    let mut n = 0;
    let mut pending = true;
    for &c in &code[open..] {
        if pending && depth == 1 && !c.is_ascii_whitespace() && !matches!(c, b']' | b'}') {
            n += 1;
            pending = false;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => pending = true,
            _ => {}
        }
    }
    n.max(1)
}

/// `//go:build` and `// +build` lines before `package`: they keep the file out of
/// some (or all) builds.
fn go_build_constraints(src: &Source) -> Vec<Skip> {
    let mut out = Vec::new();
    let mut pos = 0;
    for line in src.raw.split(|&b| b == b'\n') {
        let t = line.trim_ascii();
        if t.starts_with(b"package ") {
            break;
        }
        if t.starts_with(b"//go:build") || t.starts_with(b"// +build") {
            let text = String::from_utf8_lossy(t).into_owned();
            let kind = if text.contains("ignore") {
                SkipKind::Unconditional
            } else {
                SkipKind::Conditional
            };
            out.push(Skip {
                pos,
                line: src.line_of(pos),
                text: checks::squeeze(&text),
                kind,
            });
        }
        pos += line.len() + 1;
    }
    out
}

/// Walks up from a definition over the lines of its decorators or attributes.
fn head_start(src: &Source, def_line: usize, markers: &[&str]) -> usize {
    let mut start = src.line_start(def_line);
    let mut line = def_line;
    while line > 0 {
        let Some(prev) = (0..line).rev().find(|&l| src.indent(l).is_some()) else {
            break;
        };
        let t = src.line_text(prev).trim();
        if markers.iter().any(|m| t.starts_with(m)) {
            start = src.line_start(prev);
            line = prev;
            continue;
        }
        // The last line of a multi-line decorator: `)` or `]` closing one that opened
        // on a decorator line.
        if t.ends_with(')') || t.ends_with(']') || t.ends_with("),") || t.ends_with("],") {
            let end = src.line_start(prev) + src.line_text(prev).rfind([')', ']']).unwrap_or(0);
            if let Some(open) = matching_open(src.b(), end) {
                let open_line = src.line_of(open);
                let ot = src.line_text(open_line).trim();
                if open_line < prev && markers.iter().any(|m| ot.starts_with(m)) {
                    start = src.line_start(open_line);
                    line = open_line;
                    continue;
                }
            }
        }
        break;
    }
    start
}

fn matching_open(code: &[u8], close: usize) -> Option<usize> {
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

fn new_unit(name: String, leaf: String, role: Role, line: usize, span: Range<usize>) -> Unit {
    Unit {
        name,
        leaf,
        role,
        line,
        span,
        cases: 1,
        shadowed_by: None,
        scope: None,
        skips: Vec::new(),
        checks: Vec::new(),
    }
}

fn ident_after(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

const PY_RUNNERS: &[&str] = &[
    "setUp",
    "setUpClass",
    "setup_method",
    "setup_class",
    "setup",
    "asyncSetUp",
];
const PY_FILE_RUNNERS: &[&str] = &["setUpModule", "setup_module"];

fn python_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    struct Open {
        indent: usize,
        end: usize,
        class: bool,
        name: String,
        collected: bool,
    }
    let code = &src.code;
    let mut stack: Vec<Open> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    for m in rules.defs.find_iter(code.as_bytes()) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let def_at = m.start() + (text.len() - trimmed.len());
        if !at_line_start(src.b(), def_at) {
            continue;
        }
        let line = src.line_of(def_at);
        let indent = src.indent(line).unwrap_or(0);
        while stack
            .last()
            .is_some_and(|o| o.end <= def_at || o.indent >= indent)
        {
            stack.pop();
        }
        let class = trimmed.starts_with("class");
        let name = trimmed.rsplit([' ', '\t']).next().unwrap_or("").to_string();
        let block = src.indent_block(line);
        let parent = stack.last();
        if class {
            let header = src.line_text(line);
            let bases = header.find('(').map_or("", |i| &header[i..]);
            let in_function = parent.is_some_and(|p| !p.class);
            let collected = !in_function
                && parent.is_none_or(|p| p.collected)
                && (name.starts_with("Test")
                    || bases.contains("TestCase")
                    || bases.contains("Test)"));
            stack.push(Open {
                indent,
                end: block.end,
                class: true,
                name: match parent {
                    Some(p) if p.class => format!("{}.{name}", p.name),
                    _ => name.clone(),
                },
                collected,
            });
            continue;
        }
        let in_function = parent.is_some_and(|p| !p.class);
        let owner = parent.filter(|p| p.class);
        let qual = match owner {
            Some(p) => format!("{}.{name}", p.name),
            None => name.clone(),
        };
        let head = head_start(src, line, &["@"]);
        let head_text = &code[head..def_at];
        let extra_test = rules
            .extra_tests
            .as_ref()
            .is_some_and(|r| r.is_match(head_text.as_bytes()));
        let role = if in_function {
            Role::Helper
        } else if (name.starts_with("test") && owner.is_none_or(|p| p.collected)) || extra_test {
            Role::Test
        } else if (PY_RUNNERS.contains(&name.as_str()) && owner.is_some())
            || (PY_FILE_RUNNERS.contains(&name.as_str()) && owner.is_none())
        {
            Role::Runner
        } else {
            Role::Helper
        };
        let mut unit = new_unit(qual, name.clone(), role, line, head..block.end);
        if role == Role::Runner {
            unit.scope = stack
                .iter()
                .rev()
                .find(|o| o.class)
                .map(|o| src.line_start(src.line_of(o.end.saturating_sub(1)).min(line))..o.end)
                .map(|r| {
                    // the class block: from its header (found by indentation) to its end
                    let header = (0..line)
                        .rev()
                        .find(|&l| src.indent(l).is_some_and(|i| i < indent))
                        .unwrap_or(0);
                    src.line_start(header)..r.end
                });
        }
        let mut cases = 1;
        let mut from = 0;
        while let Some(at) = head_text[from..].find("parametrize(") {
            let at = from + at + "parametrize(".len();
            // The argument values: the list after the names.
            let args = &head_text.as_bytes()[at..];
            let comma = {
                let mut depth = 0i32;
                let mut found = None;
                for (i, &c) in args.iter().enumerate() {
                    match c {
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth -= 1,
                        b',' if depth == 0 => {
                            found = Some(i + 1);
                            break;
                        }
                        _ => {}
                    }
                    if depth < 0 {
                        break;
                    }
                }
                found
            };
            if let Some(c) = comma {
                cases *= list_len(args, c);
            }
            from = at;
        }
        unit.cases = cases;
        units.push(unit);
        stack.push(Open {
            indent,
            end: block.end,
            class: false,
            name,
            collected: false,
        });
    }
    // A later definition with the same qualified name replaces an earlier one.
    let mut last_by_name: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut shadowed = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if u.role != Role::Test {
            continue;
        }
        if let Some(prev) = last_by_name.insert(u.name.as_str(), i) {
            shadowed.push((prev, u.line));
        }
    }
    for (i, by) in shadowed {
        units[i].shadowed_by = Some(by);
    }
    units
}

const RUBY_TESTS: &[&str] = &[
    "it",
    "specify",
    "example",
    "scenario",
    "its",
    "xit",
    "xspecify",
    "xexample",
    "xscenario",
    "fit",
    "test",
];
const RUBY_SUITES: &[&str] = &[
    "describe",
    "context",
    "feature",
    "xdescribe",
    "xcontext",
    "fdescribe",
    "fcontext",
    "RSpec.describe",
];

fn ruby_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let mut units = Vec::new();
    let mut suites: Vec<(Range<usize>, String)> = Vec::new();
    for m in rules.defs.find_iter(code.as_bytes()) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        let block = ruby_block(src, line);
        let block_end = block.end;
        let word_end = trimmed
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(trimmed.len());
        let word = &trimmed[..word_end];
        let label = || -> String {
            let after = at + word_end;
            let rest = &code[after..src.line_end(line)];
            let skip = rest.len() - rest.trim_start_matches([' ', '(']).len();
            match src.string_at(after + skip) {
                Some(r) => String::from_utf8_lossy(&src.raw[r]).into_owned(),
                None => {
                    // `describe Foo::Bar do`, `it { is_expected… }`: the head line.
                    let head = src.text(after..src.line_end(line).min(block_end));
                    let head = head
                        .trim()
                        .trim_end_matches(" do")
                        .trim_end_matches('{')
                        .trim();
                    let head = if head.is_empty() {
                        checks::squeeze(&src.text(after..block_end))
                    } else {
                        head.to_string()
                    };
                    head.chars().take(80).collect()
                }
            }
        };
        if word == "def" {
            let name = ident_after(code, at + 3).trim_start_matches("self.");
            let name = if name == "self" {
                ident_after(code, at + 3 + code[at + 3..].find('.').map_or(0, |i| i + 1))
            } else {
                name
            };
            let role = if name.starts_with("test_") {
                Role::Test
            } else if name == "setup" || name == "before_setup" {
                Role::Runner
            } else {
                Role::Helper
            };
            let mut unit = new_unit(name.to_string(), name.to_string(), role, line, block);
            if role == Role::Runner {
                unit.scope = enclosing_indent_block(src, line);
            }
            units.push(unit);
        } else if RUBY_SUITES.contains(&word) {
            suites.push((block, label()));
        } else if RUBY_TESTS.contains(&word) {
            let leaf = label();
            units.push(new_unit(leaf.clone(), leaf, Role::Test, line, block));
        } else if word == "before" || word == "around" {
            let mut unit = new_unit(word.into(), word.into(), Role::Runner, line, block);
            unit.scope = enclosing_indent_block(src, line);
            units.push(unit);
        }
    }
    qualify(&mut units, &suites);
    units
}

fn ruby_block(src: &Source, line: usize) -> Range<usize> {
    let text = src.line_text(line);
    let start = src.line_start(line);
    // `{ … }` blocks (`it { … }`); a `def` with a `{}` default argument is not one.
    if let Some(open) = text.find('{')
        && !text.trim_end().ends_with(" do")
        && !text.contains(" do |")
        && !text.trim_start().starts_with("def ")
    {
        let close = src.close_of(start + open);
        if close <= src.line_end(src.line_of(close.saturating_sub(1))) {
            return start..close;
        }
    }
    let one_line_def = {
        let t = text.trim();
        t.starts_with("def ") && (t.ends_with(";end") || t.ends_with("; end") || endless_def(t))
    };
    if text.trim_end().ends_with(" do")
        || text.contains(" do |")
        || (text.trim_start().starts_with("def ") && !one_line_def)
    {
        return src.indent_block(line);
    }
    start..src.line_end(line)
}

/// `def name(args) = expr`: Ruby 3's endless method, one line.
fn endless_def(line: &str) -> bool {
    let rest = &line["def ".len()..];
    let head = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '?' | '!')))
        .unwrap_or(rest.len());
    let mut after = rest[head..].trim_start();
    if after.starts_with('(') {
        let mut depth = 0;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        after = after[i + 1..].trim_start();
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    after.starts_with("= ") || after.starts_with("=(")
}

fn enclosing_indent_block(src: &Source, line: usize) -> Option<Range<usize>> {
    let indent = src.indent(line)?;
    let header = (0..line)
        .rev()
        .find(|&l| src.indent(l).is_some_and(|i| i < indent))?;
    Some(src.indent_block(header))
}

/// Prefixes each test's name with the names of the suites around it.
fn qualify(units: &mut [Unit], suites: &[(Range<usize>, String)]) {
    for unit in units.iter_mut().filter(|u| u.role == Role::Test) {
        let mut names: Vec<&(Range<usize>, String)> = suites
            .iter()
            .filter(|(r, _)| r.start < unit.span.start && r.contains(&unit.span.start))
            .collect();
        names.sort_by_key(|(r, _)| r.start);
        if !names.is_empty() {
            let mut qual: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
            qual.push(&unit.leaf);
            unit.name = qual.join(" > ");
        }
    }
}

fn javascript_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let b = src.b();
    let mut units = Vec::new();
    let mut suites: Vec<(Range<usize>, String)> = Vec::new();
    for m in rules.defs.find_iter(b) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        // A wrapper (`testWithSyncEsm("…", …)`) is only a test as a statement.
        let wrapper = ["test", "it"].iter().any(|w| {
            trimmed.starts_with(w)
                && trimmed
                    .as_bytes()
                    .get(w.len())
                    .is_some_and(|c| c.is_ascii_uppercase() || *c == b'_')
        });
        if wrapper && !at_line_start(b, at) {
            continue;
        }
        // `regex.test(s)`, `obj.it(…)`, `function test(` are not tests.
        let before = code[..at].trim_end();
        if before.ends_with('.')
            || (before.ends_with("function") && !trimmed.starts_with("function"))
        {
            continue;
        }
        if trimmed.starts_with("function") {
            let after = trimmed
                .trim_start_matches("function")
                .trim_start_matches([' ', '\t', '*']);
            let name = ident_after(after, 0).to_string();
            let Some(open) = code[m.end()..].find('{').map(|i| m.end() + i) else {
                continue;
            };
            let end = src.close_of(open);
            units.push(new_unit(name.clone(), name, Role::Helper, line, at..end));
            continue;
        }
        if trimmed.starts_with("const")
            || trimmed.starts_with("let")
            || trimmed.starts_with("var")
            || trimmed.starts_with("export")
        {
            let decl = trimmed.trim_start_matches("export").trim_start();
            let decl = decl
                .trim_start_matches("const")
                .trim_start_matches("let")
                .trim_start_matches("var");
            let name = ident_after(decl, 0).to_string();
            let arrow = m.end();
            let rest = code[arrow..].trim_start();
            let body_at = arrow + (code.len() - arrow - rest.len());
            let end = if rest.starts_with('{') {
                src.close_of(body_at)
            } else {
                extent(b, body_at, body_at, Language::JavaScript)
            };
            units.push(new_unit(name.clone(), name, Role::Helper, line, at..end));
            continue;
        }
        // A test or suite call: find its argument list (after `.each(…)`, `.skipIf(…)`).
        let mut open = m.end() - 1;
        if matches!(b[open], b'\'' | b'"') {
            open = at + trimmed.find('(').unwrap_or(0);
        }
        let with_args = ["each", "skipIf", "runIf"]
            .iter()
            .any(|w| trimmed.contains(&format!(".{w}")) || trimmed.contains(&format!(". {w}")));
        let mut cases = 1;
        if with_args {
            let group_end = if b[open] == b'`' {
                code[open + 1..]
                    .find('`')
                    .map_or(code.len(), |i| open + i + 2)
            } else {
                src.close_of(open)
            };
            if trimmed.contains("each") {
                cases = if b[open] == b'`' {
                    code[open..group_end]
                        .lines()
                        .filter(|l| !l.trim().is_empty())
                        .count()
                        .saturating_sub(2)
                        .max(1)
                } else {
                    list_len(b, open + 1).max(1)
                };
            }
            let rest = code[group_end..].trim_start();
            if !rest.starts_with('(') {
                continue;
            }
            open = group_end + (code.len() - group_end - rest.len());
        } else if b[open] == b'`' {
            continue;
        }
        let end = src.close_of(open);
        let first = code[open + 1..].trim_start();
        let first_at = open + 1 + (code.len() - open - 1 - first.len());
        let label = match src.string_at(first_at) {
            Some(r) => String::from_utf8_lossy(&src.raw[r]).into_owned(),
            None => {
                let args = &code[first_at..end.saturating_sub(1).max(first_at)];
                checks::squeeze(checks::split_top(args).first().copied().unwrap_or(""))
            }
        };
        let suite = ["describe", "context", "suite", "xdescribe", "fdescribe"]
            .iter()
            .any(|s| trimmed.starts_with(s));
        if suite {
            suites.push((at..end, label));
            continue;
        }
        let mut unit = new_unit(label.clone(), label, Role::Test, line, at..end);
        unit.cases = cases;
        units.push(unit);
    }
    // Hooks: a skip inside `beforeAll`/`beforeEach` skips the suite's tests.
    qualify(&mut units, &suites);
    units
}

fn brace_units(src: &Source, rules: &Rules) -> Vec<Unit> {
    let code = &src.code;
    let b = src.b();
    let language = rules.language;
    static JUNIT3: std::sync::OnceLock<Option<regex::bytes::Regex>> = std::sync::OnceLock::new();
    let junit3 = language == Language::Java
        && JUNIT3
            .get_or_init(|| regex::bytes::Regex::new(r"(?-u)extends\s+[\w.]*TestCase\b").ok())
            .as_ref()
            .is_some_and(|r| r.is_match(b));
    let mut units: Vec<Unit> = Vec::new();
    let mut macro_items = Vec::new();
    for m in rules.defs.find_iter(b) {
        let text = &code[m.start()..m.end()];
        let trimmed = text.trim_start();
        let at = m.start() + (text.len() - trimmed.len());
        let line = src.line_of(at);
        let (name, name_at) = match language {
            Language::Rust if trimmed.starts_with("fn") => {
                let name = ident_after(code, at + 2);
                (name.to_string(), at)
            }
            Language::Rust if trimmed.contains("mod") && trimmed.ends_with('{') => continue,
            Language::Rust => {
                // An item-level macro call whose first argument names a test.
                if !at_line_start(b, at) {
                    continue;
                }
                let bang = trimmed.find('!').unwrap_or(0);
                let mac = &trimmed[..bang];
                if matches!(
                    mac,
                    "macro_rules"
                        | "println"
                        | "print"
                        | "eprintln"
                        | "format"
                        | "vec"
                        | "write"
                        | "writeln"
                        | "panic"
                        | "assert"
                        | "assert_eq"
                        | "assert_ne"
                        | "debug_assert"
                        | "matches"
                        | "include"
                        | "concat"
                        | "lazy_static"
                        | "thread_local"
                        | "cfg_if"
                        | "todo"
                        | "unimplemented"
                        | "dbg"
                        | "bitflags"
                        | "impl_"
                ) || mac.starts_with("assert")
                {
                    continue;
                }
                let open = at + trimmed.find(['(', '{']).unwrap_or(0);
                let name = ident_after(code, open + 1).to_string();
                macro_items.push((name, line, at, src.close_of(open)));
                continue;
            }
            Language::Go => {
                let after = trimmed.trim_start_matches("func").trim_start();
                let after_at = at + (trimmed.len() - after.len());
                let name_at = if after.starts_with('(') {
                    let close = src.close_of(after_at);
                    close + (code[close..].len() - code[close..].trim_start().len())
                } else {
                    after_at
                };
                (ident_after(code, name_at).to_string(), at)
            }
            _ => {
                // Java, Kotlin, C#: the name is the last identifier before `(`.
                let paren = m.end() - 1;
                let upto = code[at..paren].trim_end();
                let name = if let Some(inner) = upto.strip_suffix('`') {
                    let s = inner.rfind('`').unwrap_or(0);
                    upto[s..].to_string()
                } else {
                    // `Foo<T>(` (C#): the type parameters are not the name.
                    let upto = match upto.strip_suffix('>') {
                        Some(_) => upto[..upto.rfind('<').unwrap_or(upto.len())].trim_end(),
                        None => upto,
                    };
                    // Word bytes are ASCII, so this is a char boundary.
                    let start = upto.len()
                        - upto
                            .bytes()
                            .rev()
                            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                            .count();
                    upto[start..].to_string()
                };
                if matches!(
                    name.as_str(),
                    "if" | "for"
                        | "while"
                        | "switch"
                        | "catch"
                        | "return"
                        | "new"
                        | "else"
                        | "throw"
                        | "synchronized"
                        | "using"
                        | "foreach"
                        | "lock"
                        | "when"
                        | "nameof"
                        | "typeof"
                        | "sizeof"
                        | "await"
                        | "yield"
                        | "base"
                        | "this"
                        | "super"
                        | ""
                ) {
                    continue;
                }
                (name, at)
            }
        };
        if name.is_empty() {
            continue;
        }
        // The body: the first `{` at depth 0 after the parameters (`;` first: no body;
        // Kotlin's `= expr`: to the end of the line).
        let mut depth = 0i32;
        let mut body = None;
        let start = match language {
            Language::Java | Language::CSharp => m.end() - 1,
            _ => name_at,
        };
        for (i, &c) in b.iter().enumerate().skip(start) {
            match c {
                b'(' | b'[' | b'<' => depth += 1,
                b')' | b']' => depth -= 1,
                b'>' if i > 0 && b[i - 1] != b'-' && b[i - 1] != b'=' => depth -= 1,
                b'{' if depth <= 0 => {
                    body = Some(src.close_of(i));
                    break;
                }
                b';' if depth <= 0 => break,
                b'=' if depth <= 0
                    && language == Language::Java
                    && b.get(i + 1) != Some(&b'=')
                    && b.get(i + 1) != Some(&b'>') =>
                {
                    body = Some(extent(b, i, i + 1, Language::Java));
                    break;
                }
                // Java/C# annotations and `throws` clauses may wrap; a blank line ends it.
                b'\n'
                    if depth <= 0
                        && language != Language::Rust
                        && language != Language::Go
                        && code[i + 1..].starts_with('\n') =>
                {
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = body else { continue };
        let markers: &[&str] = match language {
            Language::Rust => &["#["],
            Language::CSharp => &["["],
            Language::Java => &["@"],
            _ => &[],
        };
        let head = head_start(src, line, markers).min(at);
        let head_text = &code[head..m.end().min(end)];
        let is_test = match language {
            Language::Go => {
                let rest = name
                    .strip_prefix("Test")
                    .or_else(|| name.strip_prefix("Fuzz"));
                name != "TestMain"
                    && rest.is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_lowercase()))
            }
            Language::Java => {
                let private = head_text.contains("private ")
                    || (head_text.contains("static ") && !junit3 && !head_text.contains("fun "));
                !private
                    && (rules.test_heads.is_match(head_text.as_bytes())
                        || (junit3
                            && name.starts_with("test")
                            && head_text.contains("public ")
                            && !head_text.contains("static ")))
            }
            _ => rules.test_heads.is_match(head_text.as_bytes()),
        };
        let runner = match language {
            Language::Go => name == "TestMain",
            Language::Java => head_text.contains("@Before") || (junit3 && name == "setUp"),
            Language::CSharp => {
                head_text.contains("[SetUp")
                    || head_text.contains("[OneTimeSetUp")
                    || head_text.contains("[TestInitialize")
                    || head_text.contains("[ClassInitialize")
            }
            _ => false,
        };
        let role = if is_test {
            Role::Test
        } else if runner {
            Role::Runner
        } else {
            Role::Helper
        };
        let mut unit = new_unit(name.clone(), name.clone(), role, line, head..end);
        if role == Role::Runner && language != Language::Go {
            unit.scope = src.enclosing_brace(head).map(|o| o..src.close_of(o));
        }
        unit.cases = match language {
            Language::Rust => {
                head_text.matches("#[case").count() + head_text.matches("#[test_case").count()
            }
            Language::CSharp => {
                head_text.matches("InlineData").count()
                    + head_text.matches("TestCase(").count()
                    + head_text.matches("DataRow").count()
            }
            Language::Java => ["@ValueSource", "@CsvSource"]
                .iter()
                .filter_map(|a| head_text.find(a))
                .map(|i| list_len(head_text.as_bytes(), i))
                .sum(),
            Language::Go if code[head..end].contains(".Run(") => rows_in(&b[head..end]),
            _ => 1,
        }
        .max(1);
        units.push(unit);
    }
    // Item-level macro calls that name a test (`sherlock!(name, …)`): only outside
    // functions.
    for (name, line, at, end) in macro_items {
        if units.iter().any(|u| u.span.contains(&at)) {
            continue;
        }
        units.push(new_unit(name.clone(), name, Role::Test, line, at..end));
    }
    if language == Language::Java {
        // Methods inside a class are qualified by it? Names are unique enough per file.
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(language: Language, text: &str) -> (Vec<(String, Role, usize, usize)>, usize) {
        let rules = Rules::new(language, None);
        let m = Model::new(text.as_bytes(), &rules);
        let units = m
            .units
            .iter()
            .map(|u| (u.name.clone(), u.role, u.line + 1, u.checks.len()))
            .collect();
        (units, m.skips.len())
    }

    #[test]
    fn python_tests_classes_and_helpers() {
        let (units, skips) = model(
            Language::Python,
            "import pytest\n\ndef helper(x):\n    assert x\n\nclass TestA:\n    @pytest.mark.skip\n    def test_one(self):\n        assert 1 == f()\n        helper(2)\n\nclass Plain:\n    def test_no(self):\n        assert 0\n",
        );
        assert_eq!(
            units,
            vec![
                ("helper".into(), Role::Helper, 3, 1),
                ("TestA.test_one".into(), Role::Test, 8, 1),
                ("Plain.test_no".into(), Role::Helper, 13, 1),
            ]
        );
        assert_eq!(skips, 1);
    }

    #[test]
    fn javascript_tests_suites_each_and_wrappers() {
        let (units, _) = model(
            Language::JavaScript,
            "describe('rate', () => {\n  it('is exact', () => {\n    expect(r()).toBe(1);\n  });\n  test.each([[1, 2], [3, 4]])('adds %i', (a, b) => {\n    expect(a).toBe(b);\n  });\n  test.skipIf(isWin)('skips', () => {});\n});\ntestWithSyncEsm('wrapped', () => { expect(1).toBe(1); });\nconst ok = /x/.test(s);\n",
        );
        let names: Vec<&str> = units.iter().map(|u| u.0.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "'rate' > 'is exact'",
                "'rate' > 'adds %i'",
                "'rate' > 'skips'",
                "'wrapped'"
            ]
        );
    }

    #[test]
    fn rust_tests_and_macro_tests() {
        let (units, _) = model(
            Language::Rust,
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {\n        assert_eq!(1, 1);\n    }\n    fn helper() {}\n}\nsherlock!(finds_it, |dir, cmd| {\n    assert_eq!(2, 2);\n});\n",
        );
        assert_eq!(
            units,
            vec![
                ("a".into(), Role::Test, 4, 1),
                ("helper".into(), Role::Helper, 7, 0),
                ("finds_it".into(), Role::Test, 9, 1),
            ]
        );
    }

    #[test]
    fn java_junit3_private_and_annotated() {
        let (units, _) = model(
            Language::Java,
            "public class ATest extends TestCase {\n    public void testOne() {\n        assertEquals(1, f());\n    }\n    private void testTwo() {\n        assertEquals(2, f());\n    }\n}\n",
        );
        let roles: Vec<(&str, Role)> = units.iter().map(|u| (u.0.as_str(), u.1)).collect();
        assert_eq!(
            roles,
            vec![("testOne", Role::Test), ("testTwo", Role::Helper)]
        );
    }

    #[test]
    fn rows_of_tables() {
        assert_eq!(rows_in(b"[(1, 2), (3, 4), (5, 6)]"), 3);
        assert_eq!(rows_in(b"{ {\"a\", 1}, {\"b\", 2} }"), 2);
        assert_eq!(rows_in(b"f(a, b)"), 0);
    }
}
