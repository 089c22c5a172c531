//! Handlers that swallow a check's failure: a `try` whose body holds a check and whose
//! handler catches what a failing check throws without failing in turn (`except
//! Exception: pass`, `catch (AssertionError e) { log(e); }`, JavaScript's `catch (e)
//! { console.warn(e) }`, minitest's `rescue Minitest::Assertion`, Kotlin's
//! `runCatching { … }`). Each is a skip that inverts: the test passes when its check
//! fails. (A try body that holds no check is the code under test's error handling; a
//! handler that re-raises, fails, checks, or hands on or records the failure for a later
//! check is no swallow.)

use super::checks;
use super::model::{Model, Skip, SkipKind, Unit};
use super::rules::Language;
use super::skips::is_logging;
use super::source::{matching_open, words};

/// What a failing check throws, per language, by the names a handler catches it by.
/// (Ruby's bare `rescue` and `StandardError` do not catch RSpec's or minitest's
/// failures, which descend from `Exception`; Java's `Exception` does not catch JUnit's
/// `AssertionError`.)
fn catches_check_failure(language: Language, caught: &str) -> bool {
    let nothing_named = words(caught).next().is_none();
    match language {
        Language::Python => {
            nothing_named || words(caught).any(|w| matches!(w, "Exception" | "BaseException"))
        }
        Language::Ruby => words(caught).any(|w| {
            matches!(
                w,
                "Exception"
                    | "Assertion"
                    | "ExpectationNotMetError"
                    | "MultipleExpectationsNotMetError"
            )
        }),
        Language::JavaScript => true,
        Language::Java => words(caught).any(|w| {
            matches!(
                w,
                "Throwable"
                    | "Error"
                    | "AssertionError"
                    | "AssertionFailedError"
                    | "ComparisonFailure"
                    | "MultipleFailuresError"
            )
        }),
        Language::CSharp => {
            nothing_named
                || words(caught).any(|w| {
                    matches!(
                        w,
                        "Exception"
                            | "XunitException"
                            | "AssertionException"
                            | "AssertFailedException"
                            | "AssertionFailedException"
                            | "ShouldAssertException"
                            | "ShouldCompleteInException"
                            | "EqualException"
                            | "TrueException"
                            | "FalseException"
                    )
                })
        }
        Language::Rust | Language::Go => false,
    }
}

/// Whether a handler lets the failure go: none of its statements, logging aside,
/// re-raises or fails, hands the caught error on (`error.set(t)`, `errors << e`) or
/// records that something failed (`failed.set(true)`, `failures.append(…)`). `pass`,
/// an empty block, a log line or a fallback value (`r = None`) let it go.
fn lets_go(code: &str, name: Option<&str>) -> bool {
    const RECORDS: &[&str] = &[
        ".set(",
        ".add(",
        ".append(",
        ".push(",
        ".put(",
        ".offer(",
        "<<",
        ".complete(",
        ".Add(",
        ".SetException(",
        ".TrySetException(",
    ];
    code.lines()
        .map(|l| {
            l.trim()
                .trim_matches(|c| matches!(c, '{' | '}' | ';'))
                .trim()
        })
        .filter(|l| !l.is_empty() && !is_logging(l))
        .all(|l| {
            !RECORDS.iter().any(|r| l.contains(r))
                && !words(l).any(|w| {
                    Some(w) == name
                        || matches!(
                            w,
                            "raise"
                                | "throw"
                                | "rethrow"
                                | "fail"
                                | "Fail"
                                | "flunk"
                                | "done"
                                | "reject"
                                | "panic"
                        )
                })
        })
}

/// The name a handler binds the caught error to: Python's `as e`, Ruby's `=> e`, the
/// parameter of `catch (e)`, `catch (AssertionError e)`, Kotlin's `catch (e: Error)`.
fn caught_name(language: Language, head: &str) -> Option<&str> {
    let name = match language {
        Language::Python => head.split(" as ").nth(1),
        Language::Ruby => head.split("=>").nth(1),
        _ => {
            let inner = head.split(':').next().unwrap_or(head);
            return match language {
                Language::Java if head.contains(':') => words(inner).next(),
                _ => words(inner).last(),
            };
        }
    };
    name.and_then(|n| words(n).next())
}

impl Model<'_> {
    /// Whether the check `index` of `unit` sits before a handler of the unit that
    /// swallows its failure (`def helper … rescue Minitest::Assertion => e; log(e); end`):
    /// it checks nothing for a test that calls the unit.
    pub(super) fn swallowed(&self, unit: &Unit, index: usize) -> bool {
        unit.skips.iter().any(|&s| {
            let skip = &self.skips[s];
            skip.kind == SkipKind::Inverting && skip.pos > self.checks[index].span.start
        })
    }

    /// The handlers that swallow a check's failure, as skips at their heads.
    pub(super) fn swallowing_handlers(&self) -> Vec<Skip> {
        if self.checks.is_empty() {
            return Vec::new();
        }
        match self.language {
            Language::Python => {
                let mut out = self.indented_handlers();
                out.extend(self.suppressing_blocks());
                out
            }
            Language::Ruby => self.indented_handlers(),
            Language::Go => self.go_recovers(),
            Language::Rust => self.rust_swallows(),
            _ => self.braced_handlers(),
        }
    }

    /// Go's `defer func() { recover() … }()` whose block neither fails the test nor
    /// panics again: a panic of the code under test then ends the test passing.
    fn go_recovers(&self) -> Vec<Skip> {
        let code = &self.src.code;
        let mut out = Vec::new();
        for (at, _) in code.match_indices("recover()") {
            let Some(open) = self.src.enclosing_brace(at) else {
                continue;
            };
            let head_start = self.src.line_start(self.src.line_of(open));
            if !code[head_start..open].contains("defer func") {
                continue;
            }
            let close = self.src.close_of(open).min(code.len());
            let block = &code[open..close];
            let fails = [
                "t.Fatal", "t.Error", "t.Fail", "panic(", "assert.", "require.", "Fatalf", "Errorf",
            ]
            .iter()
            .any(|w| block.contains(w));
            // (The idiom of a test that expects a panic: `defer func() { recover() }()`,
            // the call, then a failure at the test's own level, reached only when the
            // call did not panic.)
            let body = self.src.enclosing_brace(head_start);
            let after = body.is_some_and(|body| {
                let end = self.src.close_of(body).min(code.len());
                ["t.Error", "t.Fatal", "t.Fail"].iter().any(|w| {
                    code[close.min(end)..end]
                        .match_indices(w)
                        .any(|(i, _)| self.src.enclosing_brace(close + i) == Some(body))
                })
            });
            if !fails && !after {
                out.push(self.swallow(head_start, "defer func() { recover() }"));
            }
        }
        out
    }

    /// Rust: `let _ = catch_unwind(|| { … })` (or the call as a statement), whose
    /// panics nobody looks at; and a `match` whose `Err(…) =>` arm lets the error go
    /// (`{}`, `()`, a log line) while another arm holds the checks: an error of the
    /// code under test then ends the test passing.
    fn rust_swallows(&self) -> Vec<Skip> {
        let code = &self.src.code;
        let mut out = Vec::new();
        for (at, _) in code.match_indices("catch_unwind(") {
            let open = at + "catch_unwind".len();
            let end = self.src.close_of(open).min(code.len());
            if !self.has_check_in(open..end) {
                continue;
            }
            let line_start = self.src.line_start(self.src.line_of(at));
            let lead = code[line_start..at].trim();
            let lead = lead
                .trim_end_matches("std::panic::")
                .trim_end_matches("panic::")
                .trim();
            let discarded = lead.is_empty()
                || lead.strip_prefix("let _").is_some_and(|r| {
                    r.trim_start().starts_with('=')
                        || r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                            && r.trim_end().ends_with('=')
                            && !self.result_checked(r, end)
                });
            let after = code[end..].trim_start();
            if discarded && (after.starts_with(';') || after.starts_with(".ok()")) {
                out.push(self.swallow(at, "catch_unwind(…)"));
            } else if after.starts_with(';')
                && let Some(name) = lead
                    .strip_prefix("let ")
                    .and_then(|r| r.trim_end().strip_suffix('='))
                    .map(|n| n.trim().trim_start_matches("mut ").trim())
                && self.result_dropped(name, end)
            {
                out.push(self.swallow(at, "catch_unwind(…)"));
            }
        }
        for (at, _) in code.match_indices("Err(") {
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
            if code[..at].ends_with(word) {
                continue;
            }
            let close = self.src.close_of(at + 3).min(code.len());
            let Some(arm) = code[close..].trim_start().strip_prefix("=>") else {
                continue;
            };
            let arm = arm.trim_start();
            let body_at = code.len() - arm.len();
            let body = if arm.starts_with('{') {
                &code[body_at..self.src.close_of(body_at).min(code.len())]
            } else {
                arm.split([',', '\n']).next().unwrap_or("")
            };
            let inner = body
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim();
            let lets_go = inner.is_empty()
                || inner == "()"
                || inner.trim_end_matches(';').trim() == "return"
                || inner
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .all(is_logging);
            // The `match` it is an arm of, with a check in another arm.
            let Some(open) = self.src.enclosing_brace(at) else {
                continue;
            };
            let head = &code[self.src.line_start(self.src.line_of(open))..open];
            if lets_go
                && head.trim_start().starts_with("match ")
                && self.has_check_in(open..self.src.close_of(open).min(code.len()))
            {
                out.push(self.swallow(at, &format!("Err(…) => {}", inner.trim_end_matches(';'))));
            }
        }
        out
    }

    /// Whether the name bound by `let name =` (`rest` after `let _`) is read by a check
    /// after `from`: `let _r = catch_unwind(…); assert!(_r.is_err())`.
    fn result_checked(&self, rest: &str, from: usize) -> bool {
        let name: String = std::iter::once('_')
            .chain(
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_'),
            )
            .collect();
        self.checks
            .iter()
            .filter(|c| c.span.start >= from)
            .any(|c| checks::mentions(&self.src.code[c.span.clone()], &name))
    }

    /// Whether the result `name` of a `catch_unwind` (assigned before `from`) is only
    /// looked at, never re-raised nor checked, in the rest of its block: `if let Err(e)
    /// = result { eprintln!(…) }`. Any other use of it (`result.unwrap()`, `result?`,
    /// `resume_unwind`, a `panic!`, an argument, a check) is taken for the failure passed
    /// on.
    fn result_dropped(&self, name: &str, from: usize) -> bool {
        let code = &self.src.code;
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return false;
        }
        let Some(open) = self.src.enclosing_brace(from) else {
            return false;
        };
        let rest = &code[from..self.src.close_of(open).min(code.len())];
        if [
            "panic!",
            "resume_unwind",
            "unreachable!",
            "todo!",
            "unimplemented!",
        ]
        .iter()
        .any(|p| rest.contains(p))
            || self
                .checks
                .iter()
                .filter(|c| c.span.start >= from)
                .any(|c| checks::mentions(&code[c.span.clone()], name))
        {
            return false;
        }
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        rest.match_indices(name).all(|(at, _)| {
            let b = rest.as_bytes();
            if (at > 0 && word(b[at - 1])) || b.get(at + name.len()).is_some_and(|&c| word(c)) {
                return true; // another name
            }
            let before = rest[..at].trim_end();
            let after = rest[at + name.len()..].trim_start();
            ((before.ends_with('=') && !before.ends_with("==") && {
                let line = before.rsplit('\n').next().unwrap_or("").trim_start();
                line.starts_with("if let Err(") || line.starts_with("if let Ok(")
            }) && after.starts_with('{'))
                || (before.ends_with("if")
                    && [".is_err()", ".is_ok()"]
                        .iter()
                        .any(|m| after.starts_with(m)))
        })
    }

    fn swallow(&self, pos: usize, head: &str) -> Skip {
        Skip {
            pos,
            line: self.src.line_of(pos),
            text: checks::squeeze(head),
            kind: SkipKind::Inverting,
        }
    }

    /// Python's `with contextlib.suppress(AssertionError):` (or `Exception`) around a
    /// check: the check's failure is dropped where it is raised.
    fn suppressing_blocks(&self) -> Vec<Skip> {
        let mut out = Vec::new();
        if memchr::memmem::find(self.src.b(), b"suppress(").is_none() {
            return out;
        }
        for line in 0..self.src.line_count() {
            let text = self.src.line_text(line).trim();
            let Some(at) = text.find("suppress(").filter(|_| text.starts_with("with ")) else {
                continue;
            };
            let caught = text[at..].split(')').next().unwrap_or("");
            if !words(caught).any(|w| matches!(w, "AssertionError" | "Exception" | "BaseException"))
            {
                continue;
            }
            let block = self.src.indent_block(line);
            if self.has_check_in(self.src.line_end(line)..block.end) {
                let pos = self.src.line_start(line)
                    + (self.src.line_text(line).len()
                        - self.src.line_text(line).trim_start().len());
                out.push(self.swallow(pos, text));
            }
        }
        out
    }

    /// Python's `except …:` and Ruby's `rescue …` clauses on lines of their own.
    fn indented_handlers(&self) -> Vec<Skip> {
        let (keyword, heads): (&str, &[&str]) = match self.language {
            Language::Python => ("except", &["try:"]),
            _ => (
                "rescue",
                &["begin", "def ", "it ", "it(", "test ", "specify "],
            ),
        };
        let mut out = Vec::new();
        if memchr::memmem::find(self.src.b(), keyword.as_bytes()).is_none() {
            return out;
        }
        for line in 0..self.src.line_count() {
            let text = self.src.line_text(line).trim();
            let Some(rest) = text.strip_prefix(keyword) else {
                continue;
            };
            if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let caught = rest
                .split(" as ")
                .next()
                .unwrap_or("")
                .split("=>")
                .next()
                .unwrap_or("")
                .trim_end_matches(':');
            if !catches_check_failure(self.language, caught) {
                continue;
            }
            let Some(indent) = self.src.indent(line) else {
                continue;
            };
            // The clause's own block, up to the next line indented no deeper.
            let mut last = line;
            for next in line + 1..self.src.line_count() {
                match self.src.indent(next) {
                    None => continue,
                    Some(i) if i > indent => last = next,
                    Some(_) => break,
                }
            }
            let handler = self.src.line_end(line)..self.src.line_end(last);
            // (`except Exception: raise` on one line: what follows the head counts.)
            let inline = caught.len() < rest.len() && self.language == Language::Python;
            let same_line = match inline {
                true => rest.rsplit_once(':').map_or("", |(_, r)| r),
                false => "",
            };
            let name = caught_name(self.language, rest.trim_end_matches(':'));
            if self.has_check_in(handler.clone())
                || !lets_go(
                    &format!("{same_line}\n{}", &self.src.code[handler.clone()]),
                    name,
                )
            {
                continue;
            }
            // The body it guards: up to the `try:`/`begin` (or Ruby's method or block
            // header) at its indent, past sibling clauses.
            let mut header = None;
            for above in (0..line).rev() {
                match self.src.indent(above) {
                    None => continue,
                    Some(i) if i > indent => continue,
                    Some(i) if i < indent => break,
                    Some(_) => {
                        let t = self.src.line_text(above).trim();
                        if t.starts_with(keyword) || t.starts_with("else") {
                            continue;
                        }
                        let opens_block = self.language == Language::Ruby
                            && (t.ends_with(" do") || (t.contains(" do |") && t.ends_with('|')));
                        if heads.iter().any(|h| t.starts_with(h)) || opens_block {
                            header = Some(above);
                        }
                        break;
                    }
                }
            }
            let Some(header) = header else {
                continue;
            };
            if self.has_check_in(self.src.line_end(header)..self.src.line_start(line)) {
                let pos = self.src.line_start(line)
                    + (self.src.line_text(line).len()
                        - self.src.line_text(line).trim_start().len());
                out.push(self.swallow(pos, text));
            }
        }
        out
    }

    /// `} catch (…) {` after a `try { … }` (JavaScript, Java, Kotlin, C#), and Kotlin's
    /// `runCatching { … }` not unwrapped with `getOrThrow()`.
    fn braced_handlers(&self) -> Vec<Skip> {
        let b = self.src.b();
        let mut out = Vec::new();
        for at in memchr::memmem::find_iter(b, b"catch") {
            let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
            if (at > 0 && word(b[at - 1])) || b.get(at + 5).is_some_and(|&c| word(c)) {
                continue;
            }
            let head_end = at + 5;
            // The try block just before.
            let Some(close) = b[..at].iter().rposition(|c| !c.is_ascii_whitespace()) else {
                continue;
            };
            if b[close] != b'}' {
                continue;
            }
            let Some(open) = matching_open(b, close) else {
                continue;
            };
            let before = self.src.code[..open].trim_end();
            if !before.ends_with("try") {
                continue;
            }
            // What it catches and its block.
            let Some(brace) = b[head_end..]
                .iter()
                .position(|&c| c == b'{')
                .map(|p| head_end + p)
            else {
                continue;
            };
            let caught = self.src.code[head_end..brace].trim();
            let caught = caught
                .strip_prefix('(')
                .map_or(caught, |c| c.split(')').next().unwrap_or(c));
            // (`catch (e: AssertionError)` in Kotlin, `catch (AssertionError e)` in Java.)
            if !catches_check_failure(self.language, caught) {
                continue;
            }
            let handler = brace..self.src.close_of(brace);
            let name = caught_name(self.language, caught);
            if self.has_check_in(handler.clone()) || !lets_go(&self.src.code[handler.clone()], name)
            {
                continue;
            }
            if self.has_check_in(open..close) {
                out.push(self.swallow(at, &self.src.code[at..brace]));
            }
        }
        if self.language == Language::Java {
            for at in memchr::memmem::find_iter(b, b"runCatching") {
                let Some(brace) = b[at + 11..]
                    .iter()
                    .position(|c| !c.is_ascii_whitespace())
                    .map(|p| at + 11 + p)
                    .filter(|&p| b[p] == b'{')
                else {
                    continue;
                };
                let end = self.src.close_of(brace);
                let after = self.src.code[end.min(b.len())..].trim_start();
                if after.starts_with(".getOrThrow") || after.starts_with(".exceptionOrNull") {
                    continue;
                }
                if self.has_check_in(brace..end) {
                    out.push(self.swallow(at, "runCatching"));
                }
            }
        }
        out
    }
}
