//! Stubs of the code a check calls: `monkeypatch.setattr(pricing, "apply_discount",
//! lambda *a: 90)` then `assert pricing.apply_discount(100, "10%") == 90`. The check
//! then reads the stub's answer, not the code under test: it passes whatever the code
//! does. Each such stub in a test is a skip that inverts, so one added to a test that
//! existed is `assertion-loosened` (*now passes when it fails*). A stub of something
//! the checks do not call (a clock, a network client, `console.log` watched by a spy)
//! is the test's setup and no finding.

use std::sync::OnceLock;

use regex::bytes::Regex;

use super::checks;
use super::model::{Model, Role, Skip, SkipKind};
use super::rules::Language;
use super::source::matching_close;

/// The calls that replace a named attribute, per language: the name is their second
/// argument (`setattr(obj, "name", …)`, `spyOn(obj, "name")`), the last dotted part of
/// a first argument that is a path (`patch("app.pricing.name")`), or Ruby's symbol
/// (`allow(obj).to receive(:name)`, `obj.stub(:name, value)`).
fn stub_calls(language: Language) -> Option<&'static Regex> {
    static PYTHON: OnceLock<Regex> = OnceLock::new();
    static JAVASCRIPT: OnceLock<Regex> = OnceLock::new();
    static RUBY: OnceLock<Regex> = OnceLock::new();
    static JAVA: OnceLock<Regex> = OnceLock::new();
    let (cell, pattern) = match language {
        Language::Java => (&JAVA, r"\bwhen(?:ever)?[ \t]*\(|\b(?:coE|e)very[ \t]*\{"),
        Language::Python => (
            &PYTHON,
            r"\bmonkeypatch[ \t]*\.[ \t]*setattr[ \t]*\(|(?:^|[^.\w])setattr[ \t]*\(|\b(?:mocker[ \t]*\.[ \t]*|mock[ \t]*\.[ \t]*)?patch(?:[ \t]*\.[ \t]*object)?[ \t]*\(",
        ),
        Language::JavaScript => (
            &JAVASCRIPT,
            r"\b(?:jest|vi)[ \t]*\.[ \t]*spyOn[ \t]*\(|\bsinon[ \t]*\.[ \t]*stub[ \t]*\(",
        ),
        Language::Ruby => (
            &RUBY,
            r"\ballow(?:_any_instance_of)?[ \t]*\([^()\n]*\)[ \t]*\.[ \t]*to[ \t]+receive[ \t]*\(|\.[ \t]*stub!?[ \t]*\(",
        ),
        _ => return None,
    };
    Some(cell.get_or_init(|| Regex::new(pattern).expect("stub pattern")))
}

/// The arguments of the call whose `(` is at `open`, as raw text split at top-level
/// commas.
fn arguments<'a>(raw: &'a [u8], code: &[u8], open: usize) -> Vec<&'a str> {
    let Some(close) = matching_close(code, open) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, open + 1);
    for i in open + 1..close {
        match code[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(std::str::from_utf8(&raw[from..i]).unwrap_or("").trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(std::str::from_utf8(&raw[from..close]).unwrap_or("").trim());
    out
}

/// A string or symbol literal's content (`"name"`, `'name'`, `:name`), if a plain name
/// or dotted path.
fn literal_name(arg: &str) -> Option<&str> {
    let inner = arg.strip_prefix(':').or_else(|| {
        ['"', '\'', '`']
            .iter()
            .find_map(|q| arg.strip_prefix(*q).and_then(|a| a.strip_suffix(*q)))
    })?;
    (!inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '?' | '!')))
    .then_some(inner)
}

/// The last identifier of an expression (`Pricing` of `Shop::Pricing`, `pricing` of
/// `app.pricing`), where a stub's object is compared with a call's receiver.
fn last_word(text: &str) -> Option<&str> {
    let text = text.trim_end();
    let word = &text[checks::trailing_word_start(text)..];
    (!word.is_empty()).then_some(word)
}

/// Whether `text` calls `name` on `owner` (`owner.name(`, and in Ruby `owner.name`
/// without brackets), or, for a stub by path (`patch("app.pricing.name")`, `owner`
/// then the path's module), also bare (`name(`, as imported).
fn calls(text: &str, name: &str, owner: &str, by_path: bool, language: Language) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].trim_start();
        let called = after.starts_with('(')
            || (language == Language::Ruby
                && before == Some('.')
                && !after.starts_with(|c: char| word(c) || c == '='));
        if before.is_some_and(word) || !called {
            return false;
        }
        match before {
            Some('.') => last_word(&text[..at - 1]).is_some_and(|r| stands_for(r, owner)),
            _ => by_path,
        }
    })
}

/// Whether a call's receiver is the stub's owner: the same name, or an instance named
/// after the class whose method is stubbed (`engine.quote(…)` after
/// `patch.object(PricingEngine, "quote")`, `spyOn(PricingEngine.prototype, "quote")`).
fn stands_for(receiver: &str, owner: &str) -> bool {
    if receiver == owner {
        return true;
    }
    let class = owner;
    if !class.starts_with(|c: char| c.is_ascii_uppercase()) || receiver.len() < 3 {
        return false;
    }
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    // (Or its abbreviation, `inv` of `Inventory`: a prefix that ends inside a word
    // of the class's name, so `order` does not stand for `OrderRepository`.)
    let abbreviation = class.len() > receiver.len()
        && class
            .get(..receiver.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(receiver))
        && class[receiver.len()..].starts_with(|c: char| c.is_ascii_lowercase());
    fold(class).ends_with(&fold(receiver)) || abbreviation
}

/// The names a JavaScript file imports from `path` by name: `import { a, b as c }
/// from 'path'` (`a`, `c`), `const { a } = require('path')`.
fn imported_names<'t>(text: &'t str, path: &str) -> Vec<&'t str> {
    let mut out = Vec::new();
    for quote in ['"', '\'', '`'] {
        let quoted = format!("{quote}{path}{quote}");
        for (at, _) in text.match_indices(&quoted) {
            // The statement before the path: back to its `{ … }`.
            let head = &text[..at];
            let Some(close) = head.rfind('}') else {
                continue;
            };
            let between = &head[close + 1..];
            // (Only this statement's: `} from 'path'`, `} = require('path')`.)
            let between = between.trim();
            if between != "from" && between.trim_start_matches('=').trim() != "require(" {
                continue;
            }
            let Some(open) = head[..close].rfind('{') else {
                continue;
            };
            for part in head[open + 1..close].split(',') {
                let name = part.trim().rsplit([' ', ':']).next().unwrap_or("").trim();
                if !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
                {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The name a JavaScript file imports a module's namespace under: `import * as ns
/// from 'path'`, `const ns = require('path')`.
fn namespace_import<'t>(text: &'t str, path: &str) -> Option<&'t str> {
    for quote in ['"', '\'', '`'] {
        let quoted = format!("{quote}{path}{quote}");
        for (at, _) in text.match_indices(&quoted) {
            let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let head = text[line..at].trim();
            let Some(name) = head
                .strip_prefix("import * as ")
                .and_then(|r| r.strip_suffix("from"))
                .or_else(|| {
                    ["const ", "let ", "var "]
                        .iter()
                        .find_map(|w| head.strip_prefix(w))
                        .and_then(|r| r.strip_suffix("require("))
                        .and_then(|r| r.trim_end().strip_suffix('='))
                })
                .map(str::trim)
            else {
                continue;
            };
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            {
                return Some(name);
            }
        }
    }
    None
}

/// Whether an RSpec check asks `owner` the predicate `name` through its matcher
/// (`expect(order).not_to be_valid` asks `order.valid?`).
fn predicate_matcher(text: &str, name: &str, owner: &str) -> bool {
    let Some(stem) = name.strip_suffix('?') else {
        return false;
    };
    let matcher = format!("be_{stem}");
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let asks = text.match_indices(&matcher).any(|(at, _)| {
        !text[..at].ends_with(word) && !text[at + matcher.len()..].starts_with(word)
    });
    asks && text
        .strip_prefix("expect(")
        .and_then(|rest| rest.split(')').next())
        .and_then(last_word)
        == Some(owner)
}

/// Whether `owner` is made a spy in `code`: `owner = spy(…)`, `Mockito.spy(…)`,
/// MockK's `spyk(…)`, or a field under `@Spy`/`@SpyK`.
fn declared_spy(code: &str, owner: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(owner).any(|(at, _)| {
        if code[..at].ends_with(word) || code[at + owner.len()..].starts_with(word) {
            return false;
        }
        let after = code[at + owner.len()..].trim_start();
        // (`val engine: PricingEngine = spyk(…)`: past a type.)
        let after = after
            .strip_prefix(':')
            .and_then(|t| t.find('=').map(|e| &t[e..]))
            .unwrap_or(after);
        let made = after.strip_prefix('=').is_some_and(|v| {
            let v = v.trim_start();
            let v = v.strip_prefix("Mockito.").unwrap_or(v);
            v.starts_with("spy(") || v.starts_with("spyk(") || v.starts_with("spyk<")
        });
        let line = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let above = code[..line].trim_end();
        let annotated = code[line..at].contains("@Spy")
            || above
                .rsplit('\n')
                .next()
                .is_some_and(|l| l.trim_start().starts_with("@Spy"));
        made || annotated
    })
}

/// Java or Kotlin code without its stubs and verifications, each taken out with the
/// lines of its block (`verifyOrder {\n a.f()\n b.g()\n }`).
fn without_stubs_and_verifications(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    for m in stub_or_verify().find_iter(b) {
        if m.start() < at {
            continue;
        }
        let from = code[..m.start()].rfind('\n').map_or(0, |i| i + 1).max(at);
        let close = matching_close(b, m.end() - 1).unwrap_or(m.end());
        let to = code[close..].find('\n').map_or(code.len(), |i| close + i);
        out.push_str(&code[at..from]);
        at = to;
    }
    out.push_str(&code[at..]);
    out
}

/// Whether `owner` is an RSpec spec's subject: `subject(:owner)`, or `subject` itself.
fn ruby_subject(code: &str, owner: &str) -> bool {
    owner == "subject"
        || code.contains(&format!("subject(:{owner})"))
        || code.contains(&format!("subject!(:{owner})"))
}

/// Methods a test stubs to keep the world out, not the code under test: a pause, the
/// clock, randomness, output.
const ENVIRONMENT: &[&str] = &[
    "sleep", "now", "today", "time", "rand", "random", "puts", "print", "warn", "logger", "log",
    "exit", "system",
];

/// A Java or Kotlin line that stubs or verifies a call rather than making it:
/// `when(…)`, `every { … }`, `verify { … }`, `verify(x).m(…)`.
fn stub_or_verify() -> &'static Regex {
    static CELL: OnceLock<Regex> = OnceLock::new();
    CELL.get_or_init(|| {
        Regex::new(r"\b(?:when|whenever|every|coEvery|verify|coVerify|verifySequence|verifyOrder)\b[ \t]*[({]|\.when[ \t]*\(")
            .expect("stub or verify pattern")
    })
}

impl Model<'_> {
    /// The Java or Kotlin statement around `pos`, comments and strings blanked: from its
    /// line's start to its `;`, or to a line end that no `.` chain continues (Kotlin:
    /// `when(x.m())\n  .thenReturn(v)` is one statement, the next `every { … }` another).
    fn java_statement(&self, pos: usize) -> String {
        let code = self.src.b();
        let start = self.src.line_start(self.src.line_of(pos));
        let tail = &code[pos..(pos + 400).min(code.len())];
        let end = tail
            .iter()
            .enumerate()
            .find(|&(i, &c)| {
                c == b';' || (c == b'\n' && !tail[i + 1..].trim_ascii_start().starts_with(b"."))
            })
            .map_or(tail.len(), |(i, _)| i);
        String::from_utf8_lossy(&code[start..pos + end]).into_owned()
    }

    /// The stubs in tests of names their checks call, as skips at the stub.
    pub(super) fn stubs_of_checked_code(&self) -> Vec<Skip> {
        let Some(pattern) = stub_calls(self.language) else {
            return Vec::new();
        };
        if self.language == Language::JavaScript {
            let mut out = self.stubs_by_pattern(pattern);
            out.extend(self.module_mocks_of_checked_code());
            return out;
        }
        self.stubs_by_pattern(pattern)
    }

    /// `jest.mock('./pricing', () => ({ applyDiscount: … }))` (or `vi.mock`) of a module
    /// the file imports names from, and a check that calls one of the names it replaces
    /// (each in its factory, or all imported without one): a skip at that test's first
    /// such check, told at the mock's line (the mock holds for the whole file).
    fn module_mocks_of_checked_code(&self) -> Vec<Skip> {
        let (raw, code) = (self.src.raw, self.src.b());
        if memchr::memmem::find(code, b".mock").is_none() {
            return Vec::new();
        }
        static MOCK: OnceLock<Regex> = OnceLock::new();
        let mock = MOCK.get_or_init(|| {
            Regex::new(r"\b(?:jest|vi)[ \t]*\.[ \t]*mock[ \t]*\(").expect("mock pattern")
        });
        let text = String::from_utf8_lossy(raw);
        let mut out = Vec::new();
        for m in mock.find_iter(code) {
            let args = arguments(raw, code, m.end() - 1);
            let Some(path) = args.first().and_then(|a| {
                ['"', '\'', '`']
                    .iter()
                    .find_map(|q| a.strip_prefix(*q).and_then(|a| a.strip_suffix(*q)))
            }) else {
                continue;
            };
            let imported = imported_names(&text, path);
            // (A factory replaces the names it lists; `...jest.requireActual(…)`
            // keeps the rest real.)
            let replaced: Vec<&str> = match args.get(1) {
                Some(factory) => imported
                    .iter()
                    .copied()
                    .filter(|n| {
                        factory.match_indices(n).any(|(at, _)| {
                            let before = factory[..at].chars().next_back();
                            let after = factory[at + n.len()..].trim_start();
                            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                                && (after.starts_with(':') || after.starts_with('('))
                        })
                    })
                    .collect(),
                None => imported,
            };
            // `import * as pricing from './pricing'`: checks call `pricing.vat(…)`; a
            // factory replaces the names it lists, an automock every one.
            let namespace = namespace_import(&text, path);
            let listed: Vec<&str> = match (namespace, args.get(1)) {
                (Some(_), Some(factory)) => factory
                    .match_indices([':', '('])
                    .filter_map(|(at, _)| {
                        let head = factory[..at].trim_end();
                        let start = head
                            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                            .map_or(0, |i| i + 1);
                        let name = &head[start..];
                        (!name.is_empty() && !head[..start].ends_with('.')).then_some(name)
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let through_namespace = |text: &str| {
                namespace.is_some_and(|ns| {
                    text.match_indices(&format!("{ns}.")).any(|(at, _)| {
                        let before = text[..at].chars().next_back();
                        let rest = &text[at + ns.len() + 1..];
                        let name_len = rest
                            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                            .unwrap_or(rest.len());
                        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                            && rest[name_len..].trim_start().starts_with('(')
                            && (args.len() < 2 || listed.contains(&&rest[..name_len]))
                    })
                })
            };
            if replaced.is_empty() && namespace.is_none() {
                continue;
            }
            let line = self.src.line_of(m.start());
            for unit in self.units.iter().filter(|u| u.role == Role::Test) {
                let first = self
                    .checks
                    .iter()
                    .filter(|c| unit.span.contains(&c.span.start))
                    .find(|c| {
                        let text = String::from_utf8_lossy(
                            &code[c.receiver.min(c.span.start)..c.span.end],
                        );
                        replaced
                            .iter()
                            .any(|n| calls(&text, n, "", true, self.language))
                            || through_namespace(&text)
                    });
                if let Some(check) = first {
                    out.push(Skip {
                        pos: check.span.start,
                        line,
                        text: format!("mock {path}"),
                        kind: SkipKind::Inverting,
                    });
                }
            }
        }
        out
    }

    fn stubs_by_pattern(&self, pattern: &Regex) -> Vec<Skip> {
        let (raw, code) = (self.src.raw, self.src.b());
        // (Cheap first: most files stub nothing.)
        let marks: &[&[u8]] = match self.language {
            Language::Python => &[b"patch", b"setattr"],
            Language::JavaScript => &[b"spyOn", b"stub"],
            Language::Java => &[b"when", b"very"],
            _ => &[b"receive", b"stub"],
        };
        if !marks
            .iter()
            .any(|m| memchr::memmem::find(code, m).is_some())
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        for m in pattern.find_iter(code) {
            let open = m.end() - 1;
            let args = arguments(raw, code, open);
            let head = &code[m.start()..m.end()];
            // What is stubbed: (its owner, its name, whether named by a path).
            let stubbed = if self.language == Language::Ruby {
                // `allow(owner).to receive(:name)`, `owner.stub(:name, value)`.
                let owner = if head.starts_with(b"allow") {
                    let inner = &raw[m.start()..m.end()];
                    let inner = std::str::from_utf8(inner).unwrap_or("");
                    inner
                        .find('(')
                        .and_then(|o| inner[o + 1..].split(')').next())
                } else {
                    let line_start = self.src.line_start(self.src.line_of(m.start()));
                    std::str::from_utf8(&raw[line_start..m.start()]).ok()
                };
                owner
                    .and_then(last_word)
                    .zip(args.first().and_then(|a| literal_name(a)))
                    .map(|(o, n)| (o, n, false))
            } else if self.language == Language::Java {
                // Mockito: `when(owner.name(…)).thenReturn(v)`, or `doReturn(v).when(owner)
                // .name(…)` (`whenever` in mockito-kotlin); MockK: `every { owner.name(…) }
                // returns v`.
                let chained = code[..m.start()].trim_ascii_end().ends_with(b".");
                let arg = args.first().copied().unwrap_or("");
                if chained {
                    let close = matching_close(code, open).unwrap_or(open);
                    let after = std::str::from_utf8(&raw[(close + 1).min(raw.len())..])
                        .unwrap_or("")
                        .trim_start();
                    let name = after.strip_prefix('.').map(|a| {
                        let a = a.trim_start();
                        &a[..a
                            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .unwrap_or(a.len())]
                    });
                    last_word(arg).zip(name).map(|(o, n)| (o, n, false))
                } else {
                    arg.find('(')
                        .and_then(|o| arg[..o].rsplit_once('.'))
                        .and_then(|(owner, name)| last_word(owner).map(|o| (o, name.trim(), false)))
                }
            } else if args.len() >= 2 && !head.ends_with(b"patch(") {
                // `setattr(owner, "name", …)`, `patch.object(owner, "name")`,
                // `spyOn(owner, "name")`, `sinon.stub(owner, "name")`.
                let owner = args[0].trim_end();
                last_word(owner.strip_suffix(".prototype").unwrap_or(owner))
                    .zip(literal_name(args[1]))
                    .map(|(o, n)| (o, n, false))
            } else {
                // `patch("app.pricing.name")`, `monkeypatch.setattr("app.pricing.name", v)`.
                args.first()
                    .and_then(|a| literal_name(a))
                    .and_then(|path| path.rsplit_once('.'))
                    .and_then(|(module, name)| last_word(module).map(|o| (o, name, true)))
            };
            let Some((owner, name, by_path)) = stubbed.filter(|(_, n, _)| !n.is_empty()) else {
                continue;
            };
            // The test it sits in, or the one a decorator (`@patch("…")`) stands above.
            let unit = self
                .unit_at(m.start())
                .filter(|&u| self.units[u].role == Role::Test)
                .or_else(|| {
                    let line = self.src.line_of(m.start());
                    if !self.src.line_text(line).trim_start().starts_with('@') {
                        return None;
                    }
                    self.units
                        .iter()
                        .position(|u| u.role == Role::Test && u.span.start > m.start())
                        .filter(|&u| self.src.line_of(self.units[u].span.start) <= line + 4)
                });
            // Or the tests a hook it sits in runs before (`setUp`, `@BeforeEach`, an
            // autouse fixture, RSpec's `before`, jest's `beforeEach`).
            // (A hook's stub is told at the stub and held by each test it fakes, at the
            // test's start: before all its checks.)
            let faked: Vec<usize> = match unit {
                Some(unit) => vec![m.start()]
                    .into_iter()
                    .filter(|_| self.stub_fakes_test(m.start(), open, unit, (owner, name, by_path)))
                    .collect(),
                None => self
                    .hooked_tests(m.start())
                    .into_iter()
                    .filter(|&t| self.stub_fakes_test(m.start(), open, t, (owner, name, by_path)))
                    .map(|t| self.units[t].span.start)
                    .collect(),
            };
            for pos in faked {
                out.push(Skip {
                    pos,
                    line: self.src.line_of(m.start()),
                    // (By what it stubs: `x.stub!(:m)` rewritten `allow(x).to receive(:m)`
                    // is the same stub.)
                    text: format!("stub {owner}.{name}"),
                    kind: SkipKind::Inverting,
                });
            }
        }
        out
    }

    /// The tests a hook around `pos` runs before: a runner unit's (`setUp`,
    /// `@BeforeEach`, RSpec's `before`; a pytest fixture's only where it is `autouse` or
    /// the test takes it), or a jest/mocha `beforeEach`/`beforeAll`/`before` call's
    /// suite.
    fn hooked_tests(&self, pos: usize) -> Vec<usize> {
        let tests_in = |r: Option<std::ops::Range<usize>>| -> Vec<usize> {
            (0..self.units.len())
                .filter(|&u| {
                    self.units[u].role == Role::Test
                        && r.as_ref()
                            .is_none_or(|r| r.contains(&self.units[u].span.start))
                })
                .collect()
        };
        let code = &self.src.code;
        match self.unit_at(pos) {
            Some(h) if self.units[h].role == Role::Runner => {
                let hook = &self.units[h];
                let head =
                    &code[hook.span.start..self.src.line_end(hook.line).max(hook.span.start)];
                let fixture = self.language == Language::Python && head.contains("fixture");
                let mut tests = tests_in(hook.scope.clone());
                if fixture && !head.contains("autouse=True") {
                    tests.retain(|&t| {
                        let u = &self.units[t];
                        let signature = self.src.line_text(u.line);
                        checks::mentions(signature, &hook.leaf)
                    });
                }
                tests
            }
            Some(_) => Vec::new(),
            None if self.language == Language::JavaScript => {
                let Some(body) = self.src.enclosing_brace(pos) else {
                    return Vec::new();
                };
                let lead = code[self.src.line_start(self.src.line_of(body))..body].trim_start();
                let hook = ["beforeEach(", "beforeAll(", "before("]
                    .iter()
                    .any(|h| lead.starts_with(h));
                if !hook {
                    return Vec::new();
                }
                tests_in(
                    self.src
                        .enclosing_brace(self.src.line_start(self.src.line_of(body)))
                        .map(|o| o..self.src.close_of(o)),
                )
            }
            None => Vec::new(),
        }
    }

    /// Whether the stub at `at` (its call's `(` at `open`) fakes what test `unit`
    /// checks: a check calls the stubbed name, or the test calls it, after the stub, as
    /// the act its checks look at.
    fn stub_fakes_test(
        &self,
        at: usize,
        open: usize,
        unit: usize,
        (owner, name, by_path): (&str, &str, bool),
    ) -> bool {
        let (raw, code) = (self.src.raw, self.src.b());
        let span = &self.units[unit].span;
        let checked = self
            .checks
            .iter()
            .filter(|c| span.contains(&c.span.start))
            .any(|c| {
                // (With its receiver: `x.last_response.should_receive(:m)`.)
                let text = String::from_utf8_lossy(&code[c.receiver.min(c.span.start)..c.span.end]);
                // (A MockK `verify { owner.name(…) }` asks the mock, not its answer.)
                if self.language == Language::Java && stub_or_verify().is_match(text.as_bytes()) {
                    return false;
                }
                calls(&text, name, owner, by_path, self.language)
                    || (self.language == Language::Ruby && predicate_matcher(&text, name, owner))
            });
        // Or the test itself calls the stubbed code after the stub, as the act its
        // checks then look at (`allow(job).to receive(:perform)` then
        // `job.perform(id)`, `spyOn(service, 'register').mockImplementation(…)` then
        // `await service.register(…)`): the checks see what the fake did. A spy that
        // calls through (`and_call_original`, `wraps=` the real method, a bare `spyOn`) is no fake.
        let acted = || {
            let line_end = self.src.line_end(self.src.line_of(at));
            let close = matching_close(code, open).unwrap_or(open).max(line_end);
            let stub_text = String::from_utf8_lossy(&raw[at..close.min(raw.len())]);
            let fake = match self.language {
                Language::JavaScript => {
                    // (What is chained on the `spyOn(…)`/`stub(…)` call.)
                    let call_end = matching_close(code, open).map_or(open, |c| c + 1);
                    let chain = &code[call_end.min(code.len())..];
                    let chain = chain.trim_ascii_start();
                    [
                        ".mock",
                        ".returns(",
                        ".resolves(",
                        ".rejects(",
                        ".callsFake(",
                        ".throws(",
                    ]
                    .iter()
                    .any(|w| chain.starts_with(w.as_bytes()))
                }
                // (`and_wrap_original { … }` and `wraps=lambda …` may answer
                // anything: only the real method handed on calls through.)
                Language::Ruby => !stub_text.contains("and_call_original"),
                Language::Python => !stub_text.split_once("wraps=").is_some_and(|(_, w)| {
                    let w = w.split([',', ')']).next().unwrap_or("").trim();
                    w.ends_with(&format!(".{name}"))
                }),
                // (A partial mock that calls through: `doCallRealMethod()`,
                // `thenCallRealMethod()`, MockK's `answers { callOriginal() }`.)
                Language::Java => {
                    let statement = self.java_statement(at);
                    !["CallRealMethod", "callOriginal"]
                        .iter()
                        .any(|w| statement.contains(w))
                }
                _ => false,
            };
            let after = close.max(span.start).min(span.end);
            let rest = String::from_utf8_lossy(&raw[after..span.end]);
            // (Java: not in another stub or a verification of the same call, the whole
            // of its block: `verifyOrder {` over lines.)
            let rest = match self.language {
                Language::Java => without_stubs_and_verifications(&rest).into(),
                _ => rest,
            };
            // (A Java or Kotlin spy of the code under test, `spy(new X(…))`,
            // `spyk(X(…))`, answers for itself: a stub of any of its methods, then
            // any call of it, fakes what the test acts on.)
            let spied_act = || {
                let partial = match self.language {
                    Language::Java => declared_spy(&self.src.code, owner),
                    // (RSpec: a method of the subject itself stubbed, not a pause
                    // or a clock it reads.)
                    Language::Ruby => {
                        ruby_subject(&self.src.code, owner) && !ENVIRONMENT.contains(&name)
                    }
                    _ => false,
                };
                partial
                    && rest.match_indices(&format!("{owner}.")).any(|(at, _)| {
                        let word = |c: char| c.is_alphanumeric() || c == '_';
                        !rest[..at].ends_with(word)
                            && rest[at + owner.len() + 1..]
                                .trim_start_matches(word)
                                .starts_with('(')
                    })
            };
            // (RSpec's `allow_any_instance_of(described_class).to receive(:call)`: every
            // instance of the class under test answers for itself, so any call of that
            // method, `described_class.new(order).call`, is faked, and so is any act of
            // the class, `described_class.perform_now(id)` running a stubbed `perform`.)
            let any_instance_of_subject = || {
                let described = owner == "described_class"
                    || self.src.code.contains(&format!("describe {owner} "))
                    || self.src.code.contains(&format!("describe {owner},"));
                self.language == Language::Ruby
                    && described
                    && stub_text.contains("allow_any_instance_of")
                    && !ENVIRONMENT.contains(&name)
                    && (rest.match_indices(&format!(".{name}")).any(|(at, m)| {
                        !rest[at + m.len()..].starts_with(|c: char| {
                            c.is_alphanumeric() || matches!(c, '_' | '?' | '!')
                        })
                    }) || ["described_class.", "subject.", &format!("{owner}.")]
                        .iter()
                        .any(|w| {
                            rest.match_indices(w).any(|(at, _)| {
                                !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                            })
                        }))
            };
            // (Python: a private method of the class under test patched,
            // `patch.object(InventoryService, "_check_available")`, then any method of
            // an instance of it called, `self.service.reserve(…)`: the part of the code
            // under test the method was is faked.)
            let private_of_subject = || {
                self.language == Language::Python
                    && name.starts_with('_')
                    && !name.starts_with("__")
                    && owner.starts_with(|c: char| c.is_ascii_uppercase())
                    && rest.match_indices('.').any(|(at, _)| {
                        let receiver = last_word(&rest[..at]);
                        let tail = &rest[at + 1..];
                        let called =
                            tail.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
                        called.len() < tail.len()
                            && !tail.starts_with('_')
                            && called.starts_with('(')
                            && receiver.is_some_and(|r| r != owner && stands_for(r, owner))
                    })
            };
            fake && (calls(&rest, name, owner, by_path, self.language)
                || spied_act()
                || any_instance_of_subject()
                || private_of_subject())
        };
        checked || acted()
    }
}
