//! The skips in one version of a file, and the tests each governs: skip markers found
//! by the language's patterns, Go build constraints, Ruby's `next` in a suite, and a
//! `return` before a test's last check.

use std::ops::Range;

use super::checks;
use super::model::{CheckKind, Model, Role, Skip, SkipKind, Unit};
use super::rules::{Language, Rules};
use super::source::{Source, at_line_start, enclosing_indent_block, extent, starts_with_word};

/// Whether an xfail mark's arguments (`after` starts right after
/// `@pytest.mark.xfail`) begin with a condition: `xfail(sys.platform == "win32", …)`.
/// A reason or options alone (`xfail(reason="…")`, `xfail(strict=True)`) leave it
/// unconditional. (`skip(REASON)` takes no condition: its first argument is the reason.)
fn python_mark_condition(after: &str) -> bool {
    let Some(args) = after.strip_prefix('(') else {
        return false;
    };
    let first = args.trim_start();
    let option = ["reason", "raises", "strict", "run"].iter().any(|o| {
        first
            .strip_prefix(o)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    !(first.starts_with(')') || first.starts_with(['"', '\'']) || option)
}

/// Whether an annotation's text names a group suites leave out (`"quarantine"`,
/// `"flaky"`, `"broken"`, …), as a whole quoted name.
fn excluded_group(annotation: &str) -> bool {
    const NAMES: &[&str] = &[
        "quarantine",
        "quarantined",
        "flaky",
        "broken",
        "disabled",
        "ignore",
        "ignored",
        "skip",
        "skipped",
        "known-issue",
        "known-issues",
        "knownissue",
        "known_issue",
        "wip",
        "manual",
        "exclude",
        "excluded",
        "pending",
        "todo",
    ];
    annotation
        .split('"')
        .skip(1)
        .step_by(2)
        .any(|name| NAMES.iter().any(|n| name.eq_ignore_ascii_case(n)))
}

/// The text of the skip an unmarked async pytest test is.
pub(super) const UNMARKED_ASYNC: &str = "async def without @pytest.mark.asyncio";

impl Model<'_> {
    /// Finds every skip marker and attaches each to the tests it governs.
    pub(super) fn find_skips(&mut self, rules: &Rules) {
        let code = self.src.b();
        let mut skips = Vec::new();
        for m in rules.skips.find_iter(code) {
            let start = m.start() + (m.as_bytes().len() - m.as_bytes().trim_ascii_start().len());
            let text = String::from_utf8_lossy(&code[start..m.end()]).into_owned();
            let statement = match self.language {
                // (`assume(…)` and `collect_ignore = […]` as statements of their own:
                // not `pytest.assume(x)`, a check.)
                Language::Python => {
                    text.starts_with('@')
                        || text.starts_with("skip")
                        || text.starts_with("assume")
                        || text.starts_with("collect_ignore")
                        || text.starts_with("config.hook")
                        || text.starts_with("items[")
                }
                Language::JavaScript => text.starts_with("skip") && !text.contains(':'),
                _ => false,
            };
            if statement && !at_line_start(code, start) {
                continue;
            }
            // `ctx.skip()` is vitest's only where the test's callback takes `ctx` (a
            // parser's `ctx`, a queue's `task` are not the test's context).
            if self.language == Language::JavaScript
                && let Some(name) = ["ctx", "context", "task"]
                    .into_iter()
                    .find(|n| text.starts_with(n))
                && !self.is_test_context(start, name)
            {
                continue;
            }
            // NUnit's `Assert.Pass()` ends the test passing: a skip of the checks after
            // it, none when it is the last.
            if self.language == Language::CSharp
                && text.starts_with("Assert")
                && text.contains("Pass")
                && !self
                    .units
                    .iter()
                    .filter(|u| u.span.contains(&start))
                    .flat_map(|u| &u.checks)
                    .any(|&c| self.checks[c].span.start > m.end())
            {
                continue;
            }
            let line = self.src.line_of(start);
            // `public void assumeNotNullThrows() {` declares a test named so.
            if matches!(self.language, Language::Java | Language::CSharp)
                && text.starts_with("assume")
            {
                let before = self.src.code[self.src.line_start(line)..start].trim_end();
                let word = &before[checks::trailing_word_start(before)..];
                if (before
                    .ends_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '>' | ']' | '_')))
                    && !matches!(word, "return" | "else" | "await")
                {
                    continue;
                }
            }
            let mut full = text.clone();
            // A TestNG group or JUnit tag that names a set run apart (`@Test(groups =
            // "quarantine")`, `@Tag("flaky")`): suites exclude these.
            // (Written in full or not: `@org.junit.jupiter.api.Tag("flaky")`.)
            let annotation = text
                .strip_prefix('@')
                .map(|t| {
                    let mut t = t;
                    while let Some((package, rest)) = t.split_once('.')
                        && package.starts_with(|c: char| c.is_ascii_lowercase())
                        && package
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        t = rest;
                    }
                    t
                })
                .unwrap_or("");
            if self.language == Language::Java
                && (annotation.starts_with("Tag")
                    || (text.contains("groups") && !text.contains("enabled")))
            {
                let open = start + text.find('(').unwrap_or(0);
                let close = self.src.close_of(open).min(code.len());
                let raw = String::from_utf8_lossy(&self.src.raw[start..close]).into_owned();
                if !excluded_group(&raw) {
                    continue;
                }
                full = checks::squeeze(&raw);
            }
            // An xUnit trait or NUnit category that names such a set
            // (`[Trait("Category", "Quarantine")]`, `[Category("Flaky")]`).
            if self.language == Language::CSharp
                && (text.contains("Trait") || text.contains("Category"))
            {
                let open = start + text.find(['T', 'C']).unwrap_or(0);
                let open = open + self.src.code[open..].find('(').unwrap_or(0);
                let close = self.src.close_of(open).min(code.len());
                let raw = String::from_utf8_lossy(&self.src.raw[start..close]).into_owned();
                if !excluded_group(&raw) {
                    continue;
                }
                full = checks::squeeze(&raw);
            }
            if self.language == Language::Rust && text.starts_with('#') {
                let end = self.src.close_of(start + text.find('[').unwrap_or(0));
                full = checks::squeeze(&self.src.code[start..end.min(code.len())]);
                if full == "#[cfg(test)]" || full == "#![cfg(test)]" {
                    continue;
                }
            }
            // `(cond ? it.skip : it)(…)`: a skip chosen by a condition.
            let chosen = self.language == Language::JavaScript
                && self.src.code[self.src.line_start(line)..start].contains('?');
            let context = chosen || self.skip_context(line);
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
                || (self.language == Language::Python
                    && text.starts_with('@')
                    && text.ends_with("xfail")
                    && python_mark_condition(&self.src.code[m.end()..]))
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
        if self.language == Language::JavaScript {
            skips.extend(self.renamed_context_skips());
        }
        skips.extend(self.skipping_helper_calls(&skips));
        let read = skips.len();
        if self.language == Language::Python {
            skips.extend(self.unmarked_async_tests());
        }
        skips.extend(self.swallowing_handlers());
        skips.extend(self.stubs_of_checked_code());
        if self.language == Language::JavaScript || skips.len() > read {
            skips.sort_by_key(|s| s.pos);
            skips.dedup_by_key(|s| s.pos);
        }
        for (i, skip) in skips.iter().enumerate() {
            self.attach_skip(i, skip.pos);
        }
        self.skips = skips;
    }

    /// `async def test_…` without `@pytest.mark.asyncio` in a file whose other tests
    /// carry it: pytest-asyncio's strict mode (its default) does not run it (pytest
    /// skips the coroutine with a warning). A skip at its `async def`. (A mark on its
    /// class or a module `pytestmark` marks it.)
    fn unmarked_async_tests(&self) -> Vec<Skip> {
        const MARKS: [&str; 3] = ["mark.asyncio", "mark.anyio", "mark.trio"];
        let code = self.src.code.as_str();
        if !code.contains("async def") || !code.contains("@pytest.mark.asyncio") {
            return Vec::new();
        }
        let module_marked = code
            .lines()
            .any(|l| l.starts_with("pytestmark") && MARKS.iter().any(|m| l.contains(m)));
        if module_marked {
            return Vec::new();
        }
        let marked_head = |span: &std::ops::Range<usize>, keyword: &str| {
            let text = &code[span.clone()];
            let head = text.find(keyword).map_or(text, |at| &text[..at]);
            MARKS.iter().any(|m| head.contains(m))
        };
        let mut out = Vec::new();
        for unit in self.units.iter().filter(|u| u.role == Role::Test) {
            let text = &code[unit.span.clone()];
            let Some(at) = text.find("async def ") else {
                continue;
            };
            // (Its own `def` line: not an `async def` nested in its body.)
            if text[..at]
                .lines()
                .any(|l| l.trim_start().starts_with("def "))
            {
                continue;
            }
            let class_marked = self.units.iter().any(|c| {
                c.span.start < unit.span.start
                    && c.span.end >= unit.span.end
                    && code[c.span.clone()].trim_start().starts_with(['@', 'c'])
                    && marked_head(&c.span, "class ")
            });
            if marked_head(&unit.span, "async def") || class_marked {
                continue;
            }
            let pos = unit.span.start + at;
            out.push(Skip {
                pos,
                line: self.src.line_of(pos),
                text: UNMARKED_ASYNC.to_string(),
                kind: SkipKind::Unconditional,
            });
        }
        out
    }

    /// Calls from tests to a helper of the file that skips (`func needsBackend(t
    /// *testing.T) { if os.Getenv(…) == "" { t.Skip(…) } }` then `needsBackend(t)`): a
    /// skip at the call, of the helper's kind, told by the helper's skip (so a helper
    /// renamed is the same skip).
    fn skipping_helper_calls(&self, found: &[Skip]) -> Vec<Skip> {
        // (Rust's helpers skip nothing at run time: a `#[cfg]` on one gates its code.)
        if self.language == Language::Rust {
            return Vec::new();
        }
        // (Names too common to tell a helper's calls from others': `call`, `run`.)
        const COMMON: &[&str] = &["call", "apply", "invoke", "execute", "setUp", "setup"];
        let helpers: Vec<(&str, &Skip)> = self
            .units
            .iter()
            .filter(|u| {
                u.role == Role::Helper && u.leaf.len() >= 5 && !COMMON.contains(&u.leaf.as_str())
            })
            .filter_map(|u| {
                // (A statement in its body: not a decorator or attribute on it; not a
                // handler that swallows failures, which `swallow` reads.)
                found
                    .iter()
                    .find(|s| {
                        u.span.contains(&s.pos)
                            && s.kind != SkipKind::Inverting
                            && !s.text.starts_with(['@', '#', '['])
                    })
                    .map(|s| (u.leaf.as_str(), s))
            })
            .collect();
        if helpers.is_empty() {
            return Vec::new();
        }
        let code = &self.src.code;
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = Vec::new();
        for unit in self.units.iter().filter(|u| u.role == Role::Test) {
            let body = &code[unit.span.clone()];
            for (name, skip) in &helpers {
                for (i, _) in body.match_indices(name) {
                    let at = unit.span.start + i;
                    let before = &code[..at];
                    let after = code[at + name.len()..].trim_start();
                    // (Called bare, or on `self`/`this`.)
                    let receiver_ok = !before.ends_with(word)
                        && (!before.ends_with('.')
                            || before.ends_with("self.")
                            || before.ends_with("this."));
                    if receiver_ok && after.starts_with('(') {
                        out.push(Skip {
                            pos: at,
                            line: self.src.line_of(at),
                            text: format!("{} (in a helper)", skip.text),
                            kind: skip.kind,
                        });
                    }
                }
            }
        }
        out
    }

    /// vitest's test context under a name of the test's choosing (`test('x', (c) =>
    /// { c.skip() })`) or destructured in its body (`const { skip } = ctx; skip()`):
    /// a skip as `ctx.skip()` is (the regular names are read by the rules).
    fn renamed_context_skips(&self) -> Vec<Skip> {
        let b = self.src.b();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let mut out = Vec::new();
        for unit in self.units.iter().filter(|u| u.role == Role::Test) {
            let code = &self.src.code[unit.span.clone()];
            // (Most tests say nothing of skipping.)
            if memchr::memmem::find(code.as_bytes(), b"skip").is_none() {
                continue;
            }
            let Some(name) = test_context_name(code) else {
                continue;
            };
            let mut calls = Vec::new();
            // (`ctx`, `context`, `task`, node's `t`: read by the rules.)
            if !["ctx", "context", "task", "t"].contains(&name) {
                calls.push(format!("{name}.skip"));
            }
            // `const { skip } = c`, `const { skip: leave } = c`.
            for (at, _) in code.match_indices(name) {
                let before = code[..at].trim_end();
                let Some(pattern) = before.strip_suffix('=').map(str::trim_end) else {
                    continue;
                };
                let after_name = b.get(unit.span.start + at + name.len()).copied();
                if !pattern.ends_with('}') || after_name.is_some_and(word) {
                    continue;
                }
                let open = pattern.rfind('{').unwrap_or(0);
                for field in pattern[open + 1..pattern.len() - 1].split(',') {
                    let (key, local) = field.split_once(':').unwrap_or((field, field));
                    if key.trim() == "skip" {
                        calls.push(local.trim().to_string());
                    }
                }
            }
            // The body, where an inner callback's parameter or a loop's variable may
            // take the name over (`walk(tree, (c) => c.skip())`, `for (const c of
            // cursors)`): after any use of the name other than `name.` or `= name`,
            // its calls are no longer read as the test's.
            let body = code.find('{').unwrap_or(code.len());
            let shadowed_from = code[body..]
                .match_indices(name)
                .map(|(k, _)| body + k)
                .find(|&k| {
                    let cb = code.as_bytes();
                    let joined = (k > 0 && (word(cb[k - 1]) || cb[k - 1] == b'.'))
                        || cb.get(k + name.len()).is_some_and(|&c| word(c));
                    let member = code[k + name.len()..].trim_start().starts_with('.');
                    let source = code[..k].trim_end().ends_with('=');
                    !joined && !member && !source
                })
                .unwrap_or(code.len());
            for call in calls.iter().filter(|c| !c.is_empty()) {
                for (at, _) in code.match_indices(call.as_str()) {
                    if at > shadowed_from {
                        continue;
                    }
                    let pos = unit.span.start + at;
                    let end = pos + call.len();
                    let rest = self.src.code[end..].trim_start_matches([' ', '\t']);
                    let free = (pos == 0 || !(word(b[pos - 1]) || b[pos - 1] == b'.'))
                        && rest.starts_with('(')
                        && !rest[1..]
                            .trim_start()
                            .starts_with(|c: char| c.is_ascii_digit());
                    if !free {
                        continue;
                    }
                    let line = self.src.line_of(pos);
                    out.push(Skip {
                        pos,
                        line,
                        text: "ctx.skip(".into(),
                        kind: if self.skip_context(line) {
                            SkipKind::Conditional
                        } else {
                            SkipKind::Unconditional
                        },
                    });
                }
            }
        }
        out
    }

    /// Whether a call-style skip on `line` sits under an `if` (same or previous line).
    fn skip_context(&self, line: usize) -> bool {
        let own = self.src.line_text(line).trim_start();
        // (A modifier outside brackets: `skip "x" if windows?`; not the filter of a
        // comprehension, `items[:] = [i for i in items if "slow" not in i.name]`.)
        let modifier = |word: &str| {
            checks::top_level(own).any(|i| own.get(i..).is_some_and(|r| r.starts_with(word)))
        };
        if own.starts_with("if ")
            || own.starts_with("if(")
            || modifier(" if ")
            || modifier(" unless ")
        {
            return true;
        }
        (0..line)
            .rev()
            .find(|&l| self.src.indent(l).is_some())
            .is_some_and(|l| {
                let t = self.src.line_text(l).trim();
                ((t.starts_with("if ")
                    || t.starts_with("if(")
                    || t.starts_with("elif ")
                    || t.starts_with("} else if")
                    || t.starts_with("unless "))
                    && (t.ends_with(':') || t.ends_with('{') || !self.language.indented()))
                    // In an error handler: the skip runs only when that error is raised
                    // (`rescue LintError => e` / `skip e.message`).
                    || t.starts_with("rescue")
                    || t.starts_with("except")
                    || t.starts_with("catch")
                    || t.starts_with("} catch")
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
        // minitest's `def self.runnable_methods` override chooses the class's tests: it
        // governs the class it is defined in, not its own body.
        let selector = self.language == Language::Ruby && self.src.code[pos..].starts_with("def");
        let governed: Option<Range<usize>> = match self.unit_at(pos).filter(|_| !selector) {
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
        // A branch of `cfg_if! { if #[cfg(…)] { mod v4; } }`: the block it opens, and
        // the `else` branches after it (they hold under the condition's negation).
        if self.language == Language::Rust
            && text.trim_start_matches("} else ").starts_with("if #[")
            && let Some(open) = self.src.code[pos..self.src.line_end(line)].find('{')
        {
            let mut end = self.src.close_of(pos + open);
            while let Some(rest) = self.src.code.get(end..)
                && rest.trim_start().starts_with("else")
                && let Some(next) = rest.find('{')
            {
                end = self.src.close_of(end + next);
            }
            return Some(pos + open..end);
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

    /// Whether the Rust `cfg` skip `index` on `unit` is the one the code it calls has:
    /// the same `#[cfg(…)]` on an item of the file, outside any test, defining a
    /// function the test calls (`#[cfg(feature = "std")]` on `now_v7` and on the test
    /// of `now_v7()`): without it the test could not compile.
    pub(super) fn gated_like_its_code(&self, unit: &Unit, index: usize) -> bool {
        let Some(skip) = self.skips.get(index) else {
            return false;
        };
        if self.language != Language::Rust
            || skip.kind != SkipKind::Conditional
            || !skip.text.starts_with("#[cfg(")
        {
            return false;
        }
        let body = &self.src.code[unit.span.clone()];
        // The items of the file under the same gate, outside tests.
        let gated: Vec<Range<usize>> = self
            .skips
            .iter()
            .filter(|other| {
                other.text == skip.text
                    && other.pos != skip.pos
                    && !self
                        .unit_at(other.pos)
                        .is_some_and(|u| self.units[u].role == Role::Test)
            })
            .map(|other| self.next_item(other.pos, other.line))
            .filter(|item| {
                !self
                    .units
                    .iter()
                    .any(|u| u.role == Role::Test && item.contains(&u.span.start))
            })
            .collect();
        let code = self.src.code.as_str();
        let fn_name = |at: usize| -> &str {
            let rest = &code[at + 3..];
            &rest[..rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())]
        };
        gated.iter().any(|item| {
            let text = &code[item.clone()];
            // (A trait's method, `impl From<Key> for Value { fn from`, is named like
            // every other type's: `String::from(…)` is not a call of it.)
            let header = &text[..text.find('{').unwrap_or(text.len())];
            if header.contains("impl") && header.contains(" for ") {
                return false;
            }
            text.match_indices("fn ").any(|(at, _)| {
                let name = fn_name(item.start + at);
                // The type whose method it is, if it is one (`impl Codec { fn open`).
                let owner = impl_type(header).or_else(|| {
                    let open = self.src.enclosing_brace(item.start + at)?;
                    let line = self.src.line_of(open);
                    impl_type(&code[self.src.line_start(line)..open])
                });
                !name.is_empty()
                    && body.match_indices(&format!("{name}(")).any(|(i, _)| {
                        (i == 0
                            || !body.as_bytes()[i - 1].is_ascii_alphanumeric()
                                && body.as_bytes()[i - 1] != b'_')
                            && calls_it(&body[..i], owner)
                    })
                    // Only if every definition of it has the gate: with a twin under
                    // another (`#[cfg(unix)] fn cache_dir`), the test compiles without.
                    && code.match_indices("fn ").all(|(d, _)| {
                        fn_name(d) != name
                            || (d > 0 && code.as_bytes()[d - 1].is_ascii_alphanumeric())
                            || gated.iter().any(|g| g.contains(&d))
                            || self
                                .unit_at(d)
                                .is_some_and(|u| self.units[u].role == Role::Test)
                    })
            })
        })
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
    pub(super) fn find_early_returns(&mut self) {
        let mut extra = Vec::new();
        for (ui, unit) in self.units.iter().enumerate() {
            // A Go example's `// Output:` is compared with what it printed however it
            // returns (`if err != nil { return }` cannot skip the check), unless it
            // expects nothing printed (the return is then how it passes).
            let example_with_output = self.language == Language::Go
                && unit.leaf.starts_with("Example")
                && unit.checks.iter().any(|&c| {
                    self.checks[c].kind == CheckKind::ExampleOutput
                        && String::from_utf8_lossy(&self.src.raw[self.checks[c].span.clone()])
                            .lines()
                            .skip(1)
                            .any(|l| l.chars().any(char::is_alphanumeric))
                });
            // (An NUnit test with `ExpectedResult` rows checks what each `return` gives.)
            let returns_checked = unit
                .checks
                .iter()
                .any(|&c| self.checks[c].kind == CheckKind::ExpectedResult);
            if unit.role != Role::Test || example_with_output || returns_checked {
                continue;
            }
            // A guard skips the test whatever checks it (a helper's may be all it has);
            // any other return only before the test's last check.
            let whole = &self.src.code[unit.span.clone()];
            let mut exits: Vec<usize> = memchr::memmem::find_iter(whole.as_bytes(), b"return")
                .map(|i| unit.span.start + i)
                .collect();
            if self.language == Language::Ruby {
                exits.extend(
                    memchr::memmem::find_iter(whole.as_bytes(), b"next")
                        .map(|i| unit.span.start + i),
                );
                exits.sort_unstable();
            }
            if let Some(&found) = exits.iter().find(|&&at| self.is_guard_return(unit, at)) {
                extra.push((ui, found, SkipKind::Conditional));
                continue;
            }
            // The first `return` at the top level of the test (most tests have none).
            let Some(&found) = exits.iter().find(|&&at| self.is_top_level_return(unit, at)) else {
                continue;
            };
            // It skips a check after it: the test's own, or a later call of a helper
            // that holds checks or is named like one (`AssertCookie(…)` after
            // `return;`; a local function declared after the return runs when called,
            // before it). Not a return of the checks (`return run().then(() => {
            // expect(…) })`).
            let len = self.exit_word_len(found);
            let after = extent(self.src.b(), found, found + len, self.language);
            let own = unit.checks.iter().any(|&c| {
                let at = self.checks[c].span.start;
                at > after && !self.in_local_helper(unit, at)
            });
            let called = || {
                self.all_calls(unit).into_iter().any(|(name, at)| {
                    at > after
                        && name != unit.leaf
                        && !self.in_local_helper(unit, at)
                        && match self.helper_for(unit, name) {
                            Some(h) => !self.checks_of(h).is_empty(),
                            // (From elsewhere: one named like a check, `expectCookie(…)`.)
                            None => super::bags::check_like(name),
                        }
                })
            };
            if own || called() {
                extra.push((ui, found, SkipKind::Unconditional));
            }
        }
        // JavaScript: a `return` in a suite's callback before a test's definition; a
        // test defined under a condition on the environment.
        if self.language == Language::JavaScript {
            let exits = self.suite_exits();
            for (ui, unit) in self.units.iter().enumerate() {
                if unit.role != Role::Test {
                    continue;
                }
                let start = unit.span.start;
                if let Some(&(_, at, kind)) = exits
                    .iter()
                    .find(|(body, at, _)| body.contains(&start) && *at < start)
                {
                    extra.push((ui, at, kind));
                } else if self.env_read
                    && let Some(at) = self.env_condition_around(unit)
                {
                    extra.push((ui, at, SkipKind::Conditional));
                }
            }
        }
        let filters = self.go_row_filters();
        for (ui, at, kind, text) in extra
            .into_iter()
            .map(|(ui, at, kind)| (ui, at, kind, "return"))
            .chain(
                filters
                    .into_iter()
                    .map(|(ui, at, text)| (ui, at, SkipKind::Conditional, text)),
            )
        {
            let index = self.skips.len();
            self.skips.push(Skip {
                pos: at,
                line: self.src.line_of(at),
                text: text.into(),
                kind,
            });
            self.units[ui].skips.push(index);
        }
    }

    /// Go: a filter of a table's rows (`for _, tc := range tests { if tc.flaky {
    /// continue } … }`): an `if` on the row that only continues, before checks made in
    /// the loop, skips those rows' checks. Returns each test with the filter's `if`.
    fn go_row_filters(&self) -> Vec<(usize, usize, &'static str)> {
        let mut out = Vec::new();
        if self.language != Language::Go {
            return out;
        }
        let code = self.src.code.as_str();
        for (ui, unit) in self.units.iter().enumerate() {
            if unit.role != Role::Test {
                continue;
            }
            let whole = &code[unit.span.clone()];
            // (Or a `return` that ends a row's subtest early: `t.Run(tc.name, func(t
            // *testing.T) { if tc.slow { return } … })` in the loop.)
            let exits = whole
                .match_indices("continue")
                .chain(whole.match_indices("return"));
            for (i, exit) in exits {
                let at = unit.span.start + i;
                let Some(open) = self.src.enclosing_brace(at) else {
                    continue;
                };
                let if_at = self.block_head(unit, open);
                let Some(condition) = code[if_at..open].trim().strip_prefix("if ") else {
                    continue;
                };
                let inside = &code[open + 1..self.src.close_of(open).saturating_sub(1)];
                if !only_logging_then(inside, |last| last == exit) {
                    continue;
                }
                let Some(mut body) = self
                    .src
                    .enclosing_brace(open)
                    .filter(|&b| b > unit.span.start)
                else {
                    continue;
                };
                // An error that ends the test (or its row's subtest) in silence: `if
                // err != nil { return }` before checks passes when the call fails.
                // (Not in an example: its `// Output:` is compared however it returns.)
                if exit == "return" && silent_error(condition) && !unit.leaf.starts_with("Example")
                {
                    let head = code[self.block_head(unit, body)..body].trim();
                    let own_body = self
                        .src
                        .enclosing_brace(body)
                        .is_none_or(|b| b < unit.span.start);
                    let subtest = head.contains(".Run(") && head.ends_with("*testing.T)");
                    let body_end = self.src.close_of(body);
                    let checks_after = unit
                        .checks
                        .iter()
                        .any(|&c| (at..body_end).contains(&self.checks[c].span.start));
                    if (own_body || subtest) && checks_after {
                        out.push((ui, if_at, "if err != nil { return }"));
                    }
                    continue;
                }
                if exit == "return" {
                    // (Before the subtest's first check: `if tc.wantErr { return }` after
                    // the error was checked ends a row whose checks are done.)
                    let head = code[self.block_head(unit, body)..body].trim();
                    let checked_before = unit
                        .checks
                        .iter()
                        .any(|&c| (body..if_at).contains(&self.checks[c].span.start));
                    if !(head.contains(".Run(") && head.ends_with("*testing.T)")) || checked_before
                    {
                        continue;
                    }
                    match self
                        .src
                        .enclosing_brace(body)
                        .filter(|&b| b > unit.span.start)
                    {
                        Some(outer) => body = outer,
                        None => continue,
                    }
                }
                let head = code[self.block_head(unit, body)..body].trim();
                let Some((vars, _)) = head
                    .strip_prefix("for ")
                    .and_then(|h| h.split_once(":="))
                    .filter(|(_, rest)| rest.trim_start().starts_with("range"))
                else {
                    continue;
                };
                let reads_row = vars
                    .split(',')
                    .map(str::trim)
                    .filter(|v| !v.is_empty() && *v != "_")
                    .any(|v| {
                        condition.match_indices(v).any(|(j, _)| {
                            let before = condition[..j].chars().next_back();
                            !before
                                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                                && condition[j + v.len()..].starts_with('.')
                        })
                    });
                let body_end = self.src.close_of(body);
                let checks_after = unit
                    .checks
                    .iter()
                    .any(|&c| (at..body_end).contains(&self.checks[c].span.start))
                    || code[at..body_end].contains(".Run(");
                if reads_row && checks_after {
                    out.push((ui, if_at, "continue"));
                }
            }
        }
        out
    }

    /// A guard at the top of a test body that returns and does nothing else
    /// (`if cfg!(windows) { return; }`, `if testing.Short() { return }`): the test is
    /// skipped when the condition holds, as with `#[cfg(not(windows))]`. Rust, Go, Java
    /// and C#; in JavaScript the one-line form (`if (process.env.CI) return;`), whose
    /// `return` is not the first word of its line (the braced form on its own lines is
    /// an early return).
    fn is_guard_return(&self, unit: &Unit, at: usize) -> bool {
        match self.language {
            Language::JavaScript => self.is_one_line_guard_return(unit, at),
            Language::Java | Language::CSharp => {
                self.is_one_line_guard_return(unit, at) || self.is_braced_guard_return(unit, at)
            }
            Language::Rust | Language::Go => self.is_braced_guard_return(unit, at),
            Language::Python | Language::Ruby => self.is_indented_guard_return(unit, at),
        }
    }

    /// `if …: return` (Python), `next if …`, `return unless …` (Ruby), or an `if`
    /// block at the test body's level holding only logging and the `return`.
    fn is_indented_guard_return(&self, unit: &Unit, at: usize) -> bool {
        let len = self.exit_word_len(at);
        if len == 0 {
            return false;
        }
        let line = self.src.line_of(at);
        let header = self.src.line_of(self.def_pos(unit));
        let Some(body_indent) = (header + 1..=line).find_map(|l| self.src.indent(l)) else {
            return false;
        };
        let text = self.src.line_text(line).trim();
        let rest = &self.src.code[at + len..self.src.line_end(line).max(at + len)];
        let returned = rest.trim();
        let word = |t: &str, w: &str| {
            t.strip_prefix(w)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '(', ':']))
        };
        if self.src.indent(line) == Some(body_indent) {
            // One line: Python's `if CI: return`, Ruby's `next if CI`.
            return match self.language {
                Language::Python => {
                    word(text, "if")
                        && self.src.code[self.src.line_start(line)..at]
                            .trim_end()
                            .ends_with(':')
                        && matches!(returned, "" | "None")
                }
                _ => {
                    text.starts_with(&self.src.code[at..at + len])
                        && (word(returned, "if") || word(returned, "unless"))
                }
            };
        }
        // A block: its head at the body's level, only logging before the exit, and
        // nothing after it in the block.
        let Some(head) = (header + 1..line).rev().find(|&l| {
            self.src
                .indent(l)
                .is_some_and(|i| i < self.src.indent(line).unwrap_or(0))
        }) else {
            return false;
        };
        let head_text = self.src.line_text(head).trim();
        let logging = (head + 1..line).all(|l| {
            let t = self.src.line_text(l).trim();
            t.is_empty() || is_logging(t)
        });
        let last = (line + 1..self.src.line_count())
            .find_map(|l| self.src.indent(l))
            .is_none_or(|i| i <= body_indent);
        // (Or an error handler that returns: `except FetchError: return` ends the test
        // green when the call under test fails.)
        self.src.indent(head) == Some(body_indent)
            && (word(head_text, "if")
                || word(head_text, "unless")
                || word(head_text, "except")
                || word(head_text, "rescue"))
            && text == &self.src.code[at..at + len]
            && logging
            && last
    }

    /// The length of the exit keyword at `at` (`return`; Ruby's `next` too), or 0.
    fn exit_word_len(&self, at: usize) -> usize {
        let b = self.src.b();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
        let len = if b[at..].starts_with(b"return") {
            6
        } else if self.language == Language::Ruby && b[at..].starts_with(b"next") {
            4
        } else {
            return 0;
        };
        let free = !((at > 0 && word(b[at - 1])) || b.get(at + len).is_some_and(|&c| word(c)));
        if free { len } else { 0 }
    }

    /// `if (…) { return; }` at the top of a braced test, the block holding only
    /// logging before the `return`.
    fn is_braced_guard_return(&self, unit: &Unit, at: usize) -> bool {
        let code = &self.src.code;
        let Some(open) = self.src.enclosing_brace(at) else {
            return false;
        };
        let Some(outer) = self
            .src
            .enclosing_brace(open)
            .map(|o| self.out_of_bare_blocks(unit, o))
        else {
            return false;
        };
        let at_top = |outer: usize| {
            outer >= unit.span.start
                && self
                    .src
                    .enclosing_brace(outer)
                    .is_none_or(|o| o < unit.span.start)
        };
        let header_line = self.src.line_of(open);
        let mut header = code[self.src.line_start(header_line)..open].trim();
        if header.is_empty() {
            // A brace on its own line (Allman style): the head is on the lines before.
            header = code[self.block_head(unit, open)..open].trim();
        }
        // In Go, a guard on the environment at the top of a subtest skips that subtest
        // (`t.Run("x", func(t *testing.T) { if os.Getenv("CI") != "" { return } … })`,
        // in a loop over a table or not).
        let outermost = at_top(outer)
            || (self.language == Language::Go
                && self.env_read
                && self.reads_env(header)
                && self.opens_go_subtest(unit, outer)
                && {
                    let mut o = outer;
                    loop {
                        match self
                            .src
                            .enclosing_brace(o)
                            .map(|x| self.out_of_bare_blocks(unit, x))
                        {
                            Some(x) if at_top(x) => break true,
                            Some(x)
                                if x > unit.span.start
                                    && (self.opens_go_subtest(unit, x)
                                        || self.src.code[self.block_head(unit, x)..x]
                                            .starts_with("for")) =>
                            {
                                o = x
                            }
                            _ => break false,
                        }
                    }
                });
        let close = self.src.close_of(open);
        let inside = code
            .get(open + 1..close)
            .unwrap_or("")
            .trim()
            .trim_end_matches('}')
            .trim();
        let loop_head = header.starts_with("while ")
            || header.starts_with("while(")
            || (self.language == Language::Go && header.starts_with("for "));
        // (A Rust test that returns a `Result` passes by `return Ok(())`.)
        let only_return = only_logging_then(inside, |last| {
            last == "return"
                || (self.language == Language::Rust
                    && last.split_whitespace().collect::<String>() == "returnOk(())")
        });
        // Rust's `let Ok(v) = parse(s) else { return; };` returns when the pattern fails.
        let let_else = self.language == Language::Rust
            && header.starts_with("let ")
            && header.ends_with("else");
        outermost
            && (header.starts_with("if ") || header.starts_with("if(") || loop_head || let_else)
            && only_return
    }

    /// JavaScript: whether `name` is a parameter of the test callback around `pos`
    /// (`test('x', (ctx) => {`, `async ({ task }) =>`, `function (context) {`).
    fn is_test_context(&self, pos: usize, name: &str) -> bool {
        let Some(unit) = self.unit_at(pos).map(|u| &self.units[u]) else {
            return false;
        };
        let code = &self.src.code[unit.span.start..pos.max(unit.span.start)];
        let head = &code[..code.find('{').map_or(code.len(), |open| {
            // (Past a destructured parameter's braces.)
            code[open..].find("=>").map_or(open, |a| open + a)
        })];
        // (After the title: a string, blank, so without commas of its own.)
        let head = head.split_once(',').map_or(head, |(_, rest)| rest);
        super::source::words(head).any(|w| w == name)
    }

    /// Go: whether skip `s` of test `unit` is a guard at the top of a subtest the
    /// change adds (`old`'s `old_unit` is the test before): its checks are more of what
    /// the rest of the test has, so it skips nothing the test had.
    pub(super) fn is_new_subtest_guard(
        &self,
        unit: &Unit,
        s: usize,
        old: &Model,
        old_unit: &Unit,
        rules: &Rules,
    ) -> bool {
        if self.language != Language::Go || self.skips[s].text != "return" {
            return false;
        }
        let Some(block) = self.subtest_around(unit, self.skips[s].pos) else {
            return false;
        };
        let keys = |m: &Model, checks: &mut dyn Iterator<Item = &usize>| -> Vec<String> {
            checks.map(|&c| m.check_key(c, rules).0).collect()
        };
        let inside_block = |c: &&usize| block.contains(&self.checks[**c].span.start);
        let inside = keys(self, &mut unit.checks.iter().filter(inside_block));
        let outside = keys(self, &mut unit.checks.iter().filter(|c| !inside_block(c)));
        let before = keys(old, &mut old_unit.checks.iter());
        let count = |list: &[String], k: &String| list.iter().filter(|x| *x == k).count();
        inside
            .iter()
            .all(|k| count(&before, k) <= count(&outside, k))
    }

    /// Go: the body of the subtest's function around `pos` in `unit`, if any.
    pub(super) fn subtest_around(&self, unit: &Unit, pos: usize) -> Option<Range<usize>> {
        let mut at = pos;
        while let Some(open) = self.src.enclosing_brace(at) {
            if open <= unit.span.start {
                return None;
            }
            if self.opens_go_subtest(unit, open) {
                return Some(open..self.src.close_of(open));
            }
            at = open;
        }
        None
    }

    /// Go: whether `open` is a subtest's function (`t.Run("x", func(t *testing.T) {`).
    fn opens_go_subtest(&self, unit: &Unit, open: usize) -> bool {
        let head = &self.src.code[self.block_head(unit, open)..open];
        if head.contains(".Run(") && head.contains("func(") {
            return true;
        }
        // A subtest's body bound to a name the test runs (`check := func(t
        // *testing.T) {` … `t.Run("digits", check)`).
        let Some((name, func)) = head
            .split_once(":=")
            .or_else(|| head.strip_prefix("var ").and_then(|h| h.split_once('=')))
        else {
            return false;
        };
        let name = name.trim();
        let body = &self.src.code[self.src.close_of(open).min(unit.span.end)..unit.span.end];
        func.trim_start().starts_with("func(")
            && func.contains("*testing.T")
            && !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && body.match_indices(".Run(").any(|(at, _)| {
                let args = &body[at..body[at..].find(')').map_or(body.len(), |e| at + e)];
                args.rsplit(',')
                    .next()
                    .is_some_and(|last| last.trim() == name)
            })
    }

    /// JavaScript: each suite callback's first `return` of its own (`describe('…', () =>
    /// { return; it(…) })`, or a guard `if (CI) return;`), as (the callback's body, the
    /// return, its kind): the runner never registers the tests after it. Found from the
    /// file's few `return`s, not from each test.
    fn suite_exits(&self) -> Vec<(Range<usize>, usize, SkipKind)> {
        let mut seen: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        for r in memchr::memmem::find_iter(self.src.b(), b"return") {
            if !self.is_return_keyword(r) {
                continue;
            }
            let Some(holder) = self.src.enclosing_brace(r) else {
                continue;
            };
            // The callback holding it (through bare blocks), or holding its guard block.
            let mut callbacks = vec![self.out_of_bare_blocks_from(0, holder)];
            let guard_block = ["if", "while"].iter().any(|w| {
                self.src.code[self.head_at(0, holder)..holder]
                    .trim_start()
                    .starts_with(w)
            });
            if guard_block && let Some(o) = self.src.enclosing_brace(holder) {
                callbacks.push(self.out_of_bare_blocks_from(0, o));
            }
            for open in callbacks {
                if seen.contains(&open) || !self.opens_suite(open) {
                    continue;
                }
                seen.push(open);
                if let Some((first, kind)) = self.first_return_in(open) {
                    out.push((open..self.src.close_of(open), first, kind));
                }
            }
        }
        out
    }

    /// The head of the block opening at `open`, from its line's start (without
    /// semicolons, the walk back to a statement's start can run into the statements
    /// before), else from the statement's start.
    fn head_of_block(&self, open: usize) -> &str {
        let line_head = self.src.code[self.src.line_start(self.src.line_of(open))..open]
            .trim_start()
            .trim_start_matches(['}', ')', ' ']);
        if line_head.starts_with(|c: char| c.is_ascii_alphabetic()) {
            line_head
        } else {
            self.src.code[self.head_at(0, open)..open].trim_start()
        }
    }

    /// Whether `open` is a suite's callback: `describe(…, () => {`, `context`, `suite`,
    /// `describe.each(…)(…, …)`, Playwright's `test.describe`.
    fn opens_suite(&self, open: usize) -> bool {
        let head = self.head_of_block(open);
        let head = head.strip_prefix("test.").unwrap_or(head);
        ["describe", "context", "suite", "fdescribe"]
            .iter()
            .any(|w| {
                head.strip_prefix(w)
                    .is_some_and(|r| r.starts_with(['(', '.']))
            })
            && self.opens_function(open)
    }

    /// JavaScript: where an `if` on the environment with no `else` around the test's
    /// definition starts (`if (!process.env.CI) { it(…) }`): the test is defined only
    /// where it holds.
    fn env_condition_around(&self, unit: &Unit) -> Option<usize> {
        let mut at = unit.span.start;
        while let Some(open) = self.src.enclosing_brace(at) {
            at = open;
            let head = self.head_of_block(open);
            if !self.opens_function(open)
                && (head.starts_with("if (") || head.starts_with("if("))
                && self.reads_env(head)
                && !self.src.code[self.src.close_of(open)..]
                    .trim_start()
                    .starts_with("else")
            {
                return Some(open - head.len());
            }
        }
        None
    }

    /// The first `return` of the function body opening at `open` that is its own
    /// statement (in it or in a bare block of it, alone or as `if (…) return;`), and
    /// whether it is guarded.
    fn first_return_in(&self, open: usize) -> Option<(usize, SkipKind)> {
        let close = self.src.close_of(open);
        let body = &self.src.b()[open + 1..close.saturating_sub(1).max(open + 1)];
        memchr::memmem::find_iter(body, b"return")
            .map(|i| open + 1 + i)
            .filter(|&r| self.is_return_keyword(r))
            .find_map(|r| {
                let holder = self.src.enclosing_brace(r)?;
                let level = |o: usize| self.out_of_bare_blocks_from(open, o) == open;
                let line = self.src.line_of(r);
                let head = self.src.line_text(line).trim_start();
                let head = head.trim_start_matches(['{', ' ', '\t']);
                let guarded = ["if (", "if(", "while (", "while("]
                    .iter()
                    .any(|h| head.starts_with(h));
                let rest = &self.src.code[r + 6..self.src.line_end(line).max(r + 6)];
                let returned = rest[..rest.find([';', '}']).unwrap_or(rest.len())].trim();
                let returns_nothing = matches!(returned, "" | "void 0" | "undefined")
                    || (guarded && self.reads_env(&self.src.code[self.src.line_start(line)..r]));
                if !returns_nothing {
                    return None;
                }
                // The `return` sits in an `if`/`while` block directly in the callback.
                let in_guard_block = ["if", "while"].iter().any(|w| {
                    self.src.code[self.head_at(open, holder)..holder]
                        .trim_start()
                        .starts_with(w)
                }) && self
                    .src
                    .enclosing_brace(holder)
                    .is_some_and(|o| o >= open && level(o));
                // `if (CI) {` then `return;` on its own line, the block's last word.
                let braced_guard = head.starts_with("return")
                    && in_guard_block
                    && self.src.code[r + 6..self.src.close_of(holder) - 1]
                        .trim_start_matches([';', ' ', '\t', '\n', '\r'])
                        .is_empty();
                if head.starts_with("return") && level(holder) {
                    Some((r, SkipKind::Unconditional))
                } else if braced_guard || (guarded && (level(holder) || in_guard_block)) {
                    Some((r, SkipKind::Conditional))
                } else {
                    None
                }
            })
    }

    /// The block holding `open` if `open` is a bare block (`{ … }` as a statement,
    /// nothing before its brace), and so on outwards: a guard in a bare block guards
    /// the test as one beside it does.
    fn out_of_bare_blocks(&self, unit: &Unit, open: usize) -> usize {
        self.out_of_bare_blocks_from(unit.span.start, open)
    }

    /// [`Model::out_of_bare_blocks`] within the code from `floor`.
    fn out_of_bare_blocks_from(&self, floor: usize, mut open: usize) -> usize {
        loop {
            // (A `try`, try-with-resources, C# `using`/`lock` or Kotlin `.use` block runs
            // as a bare block does: `try { if (CI) return; } …`.)
            let head = self.head_at(floor, open);
            let bare = head == open && {
                let before = self.src.code[..open].trim_end();
                before.ends_with(['{', ';', '}'])
            };
            let head_text = self.src.code[head..open].trim();
            let scoped = head_text == "try"
                || ["try (", "try(", "using (", "using(", "lock (", "lock("]
                    .iter()
                    .any(|w| head_text.starts_with(w))
                || head_text.ends_with(".use");
            if open <= floor || !(bare || scoped) {
                break;
            }
            match self.src.enclosing_brace(open) {
                Some(o) if o >= floor => open = o,
                _ => break,
            }
        }
        open
    }

    /// Whether the `return` at `at` is the keyword, not part of a name (`returns`).
    fn is_return_keyword(&self, at: usize) -> bool {
        self.exit_word_len(at) > 0
    }

    /// `if (…) return;` or `if (…) { return; }` on one line, directly in a JavaScript
    /// test's callback: nothing returned, nothing else done.
    fn is_one_line_guard_return(&self, unit: &Unit, at: usize) -> bool {
        if !self.is_return_keyword(at) {
            return false;
        }
        let line = self.src.line_of(at);
        let start = self.src.line_start(line);
        let text = self.src.line_text(line);
        let indent = text.len() - text.trim_start().len();
        let head = text.trim_start().trim_start_matches(['{', ' ', '\t']);
        // Nothing returned (`return;`, `return void 0;`, `return undefined`), whatever
        // follows the statement on the line.
        let rest = &self.src.code[at + 6..self.src.line_end(line).max(at + 6)];
        let returned = rest[..rest.find([';', '}']).unwrap_or(rest.len())].trim();
        // (Or anything, under a condition on the environment: `if (process.env.CI)
        // return done();`, `return console.warn(…)`.)
        let nothing_after = matches!(returned, "" | "void 0" | "undefined")
            || self.reads_env(&self.src.code[start..at]);
        // Kotlin's `System.getenv("CI")?.let { return }`: the block runs when the
        // value is there.
        let before = self.src.code[start..at].trim_end();
        let kotlin_let = self.language == Language::Java
            && ((before.ends_with('{')
                && super::source::KOTLIN_SCOPE_CALLS
                    .iter()
                    .any(|w| before.contains(w)))
                || before.ends_with("?:"))
            && self.reads_env(before);
        // Kotlin's `val r = runCatching { f() }.getOrNull() ?: return`: when the value
        // is missing the test ends, passing.
        let elvis = self.language == Language::Java && before.ends_with("?:");
        let guard = ["if (", "if(", "while (", "while("]
            .iter()
            .any(|h| head.starts_with(h))
            || kotlin_let
            || elvis;
        // (`if (in == null) { fail("missing"); return; }`: it fails, it skips nothing;
        // not a check that passes, `assertTrue(true); return;`.)
        let fails_first = self.has_check_in(start..at)
            && ["fail(", "Fail(", "Fatal", "throw "]
                .iter()
                .any(|w| self.src.code[start..at].contains(w));
        if !guard || !nothing_after || fails_first {
            return false;
        }
        // The `if` sits in the test's callback body (or a bare block in it), not in a
        // nested statement's block or callback.
        let Some(open) = self
            .src
            .enclosing_brace(start + indent)
            .map(|o| self.out_of_bare_blocks(unit, o))
        else {
            return false;
        };
        open >= unit.span.start
            && self
                .src
                .enclosing_brace(open)
                .is_none_or(|o| o < unit.span.start)
    }

    fn is_top_level_return(&self, unit: &Unit, at: usize) -> bool {
        if !self.is_return_keyword(at) {
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
                            || (self
                                .src
                                .enclosing_brace(o)
                                .is_none_or(|oo| oo < unit.span.start)
                                && !self.opens_function(open))
                    }))
        }
    }

    /// Whether the block opened at `open` is a function's body (`function (…) {`,
    /// `(…) => {`, a method `name(…) {`), not a statement's (`if (…) {`, `else {`): a
    /// `return` in a callback the test passes (`app.set('etag', function () { return
    /// undefined })`) ends the callback, not the test.
    fn opens_function(&self, open: usize) -> bool {
        let b = self.src.b();
        let before = b[..open].trim_ascii_end();
        if before.ends_with(b"=>") {
            return true;
        }
        if before.last() != Some(&b')') {
            return false; // `else {`, `try {`, `do {`
        }
        let Some(paren) = super::source::matching_open(b, before.len() - 1) else {
            return false;
        };
        let head = &self.src.code[..paren].trim_end();
        let name = &head[checks::trailing_word_start(head)..];
        !matches!(name, "if" | "for" | "while" | "switch" | "catch" | "with")
    }

    fn def_pos(&self, unit: &Unit) -> usize {
        self.src.line_start(unit.line)
    }
}

/// The name a JavaScript test's callback gives its first parameter, the test's
/// context (`test('x', async (c) => {`, `it('x', function (c) {`); none when it is
/// destructured or absent.
fn test_context_name(code: &str) -> Option<&str> {
    let head = &code[..code.find('{')?];
    // (After the title: a string, blank, so without commas of its own.)
    let (_, rest) = head.split_once(',')?;
    let rest = rest.trim_start();
    let mut rest = rest;
    for keyword in ["async", "function"] {
        if starts_with_word(rest, keyword) {
            rest = rest[keyword.len()..].trim_start();
        }
    }
    let rest = rest.strip_prefix('(').map_or(rest, str::trim_start);
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..len];
    let next = rest[len..].trim_start();
    (len > 0
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && (next.starts_with([')', ',', ':']) || next.starts_with("=>")))
    .then_some(name)
}

/// Whether an `if` condition only says that a Go call failed (`err != nil`,
/// `readErr != nil`).
fn silent_error(condition: &str) -> bool {
    condition
        .trim()
        .strip_suffix("!= nil")
        .map(str::trim_end)
        .is_some_and(|v| {
            (v == "err" || v.ends_with("Err"))
                && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// Whether the statements of a block are logging only, then one that `exits`.
fn only_logging_then(block: &str, exits: impl Fn(&str) -> bool) -> bool {
    let statements: Vec<&str> = block
        .split([';', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    statements
        .split_last()
        .is_some_and(|(last, before)| exits(last) && before.iter().all(|t| is_logging(t)))
}

/// Whether a statement only logs (`eprintln!(…)`, `t.Logf(…)`, `console.warn(…)`,
/// `print(…)`): a guard may say why it returns. (Not Go's `fmt.Print…`: what an
/// example prints is its check.)
pub(super) fn is_logging(statement: &str) -> bool {
    [
        "eprintln!",
        "println!",
        "eprint!",
        "print!",
        "dbg!",
        "t.Log",
        "t.Skip",
        "log.",
        "log::",
        "logging.",
        "System.out.",
        "System.err.",
        "Console.Write",
        "console.",
        "logger.",
        "LOG.",
        "print(",
        "warnings.warn(",
        "sys.stderr.write(",
        "puts ",
        "warn ",
        "warn(",
        "$stderr.puts",
        "Debug.Write",
        "Trace.Write",
        "output.WriteLine",
        "_output.WriteLine",
        "testOutputHelper.WriteLine",
    ]
    .iter()
    .any(|p| statement.starts_with(p))
}

/// The type an `impl` header is for (`impl<T> Codec<T>` → `Codec`); none for a header
/// that is not an `impl`.
fn impl_type(header: &str) -> Option<&str> {
    let rest = header.trim().strip_prefix("impl")?;
    let mut rest = rest.trim_start();
    if rest.starts_with('<') {
        let mut depth = 0;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i + 1)
        })?;
        rest = rest[end..].trim_start();
    }
    let path = &rest[..rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len())];
    let name = path.rsplit("::").next()?;
    (!name.is_empty()).then_some(name)
}

/// Whether a call whose text before the name is `before` can call a function of that
/// name defined on `owner` (a method) or free (none): `Codec::open(` or `Self::open(`
/// or `c.open(` for a method, never `File::open(`; `open(` or `util::open(` for a free
/// function, never `File::open(`.
fn calls_it(before: &str, owner: Option<&str>) -> bool {
    if let Some(path) = before.strip_suffix("::") {
        let start = path
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let qualifier = &path[start..];
        // The whole path (`std::fs::read` is the standard library's, not the file's).
        let whole = path
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map_or(path, |i| &path[i + 1..]);
        let outside = ["std::", "core::", "alloc::", "::"]
            .iter()
            .any(|root| whole.starts_with(root));
        return !outside
            && match owner {
                Some(owner) => qualifier == owner || qualifier == "Self",
                None => qualifier.starts_with(|c: char| c.is_ascii_lowercase()),
            };
    }
    match owner {
        Some(_) => before.trim_end().ends_with('.'),
        None => true,
    }
}

/// `//go:build` and `// +build` lines before `package`: they keep the file out of
/// some (or all) builds. Where a `//go:build` line is present the go command ignores
/// `// +build` lines (gofmt writes the one from the other), so they are not counted.
fn go_build_constraints(src: &Source) -> Vec<Skip> {
    let header = |line: &[u8]| !line.trim_ascii().starts_with(b"package ");
    let modern = src
        .raw
        .split(|&b| b == b'\n')
        .take_while(|l| header(l))
        .any(|l| l.trim_ascii().starts_with(b"//go:build"));
    let mut out = Vec::new();
    let mut pos = 0;
    for line in src.raw.split(|&b| b == b'\n') {
        let t = line.trim_ascii();
        if !header(t) {
            break;
        }
        if t.starts_with(b"//go:build") || (!modern && t.starts_with(b"// +build")) {
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
