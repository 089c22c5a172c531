//! Checks put under a condition on the value they check: `if isinstance(r, int):
//! assert r == 1250`, Rust's `if let Ok(v) = parse(s) { assert_eq!(v, 12) }`, `if
//! (result) { expect(result.total).toBe(3) }`. When the code under test returns
//! something else, the check does not run and the test passes: a check that ran
//! always now runs only when the value already looks right.
//!
//! Only a condition that reads a value the test computed (a local assigned before
//! it, or bound by the condition itself) and that the check reads too is a guard: a
//! table test's `if tc.wantErr { … }` reads its row, a parameter or a loop variable,
//! and a platform condition reads neither; both choose what to check, not whether.

use super::checks;
use super::model::{Model, Unit};
use super::rules::{Language, Rules};
use super::source::{matching_close, words};

/// Words a condition and its check may share that name no value of the test.
const NOT_VALUES: &[&str] = &[
    "if",
    "elif",
    "unless",
    "let",
    "var",
    "val",
    "const",
    "mut",
    "not",
    "and",
    "or",
    "is",
    "in",
    "isinstance",
    "None",
    "nil",
    "null",
    "undefined",
    "true",
    "false",
    "True",
    "False",
    "Ok",
    "Some",
    "Err",
    "self",
    "this",
    "t",
    "len",
    "typeof",
    "instanceof",
    "assert",
    "expect",
    "require",
    "to",
    "eq",
];

/// Checks that are the failing branch of a condition by nature (`if x != y { t.Errorf
/// }`, `self.fail(…)`, `flunk`): their condition is the check, not a guard.
fn fails_by_itself(key: &str) -> bool {
    let head = key.split('(').next().unwrap_or(key);
    let last = head.rsplit(['.', ':']).next().unwrap_or(head);
    matches!(
        last.trim(),
        "fail" | "Fail" | "flunk" | "Error" | "Errorf" | "Fatal" | "Fatalf" | "FailNow"
    ) || head.starts_with("raise")
        || head.starts_with("throw")
        || head.starts_with("panic!")
        || head.starts_with("unreachable!")
}

/// The values a condition reads: chains of names (`r`, `result.total`, `self.r`).
fn chains(cond: &str) -> impl Iterator<Item = &str> {
    let b = cond.as_bytes();
    let name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < b.len() {
            if !name(b[at]) || (at > 0 && (name(b[at - 1]) || b[at - 1] == b'.')) {
                at += 1;
                continue;
            }
            let start = at;
            while at < b.len()
                && (name(b[at]) || (b[at] == b'.' && b.get(at + 1).is_some_and(|&c| name(c))))
            {
                at += 1;
            }
            return Some(&cond[start..at]);
        }
        None
    })
}

/// Whether a Go condition only tests a value for nil (`err != nil`, `v == nil`).
fn nil_test(cond: &str) -> bool {
    let squeezed: String = cond.split_whitespace().collect();
    squeezed
        .strip_suffix("!=nil")
        .or_else(|| squeezed.strip_suffix("==nil"))
        .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// How a guarding block's head starts.
const IFS: &[&str] = &["if ", "if(", "elif ", "unless ", "} else if ", "else if "];

/// The condition of a guarding head (`if (r != null) {` → `r != null`).
fn condition(head: &str) -> String {
    let head = head.trim();
    // (`if(` keeps its bracket: squeezed, `if(a){` is `if (a) {`.)
    let cond = IFS
        .iter()
        .find_map(|k| head.strip_prefix(k.trim_end_matches('(')))
        .unwrap_or(head)
        .trim_end_matches(['{', ':'])
        .trim();
    // (A Ruby `if` line may end with `then`; a C-family condition is in brackets.)
    let cond = cond.strip_suffix(" then").unwrap_or(cond).trim();
    match cond.starts_with('(') && matching_close(cond.as_bytes(), 0) == Some(cond.len() - 1) {
        true => cond[1..cond.len() - 1].trim().to_string(),
        false => cond.to_string(),
    }
}

/// A Ruby check with a modifier condition on the value it checks (`expect(user.errors)
/// .to include("x") if user.errors.any?`), squeezed: the check and the condition.
pub(super) fn ruby_modifier(key: &str) -> Option<(&str, &str)> {
    let at = checks::top_level(key).find(|&i| {
        let rest = key.get(i..).unwrap_or_default();
        (rest.starts_with("if ") || rest.starts_with("unless "))
            && key[..i].ends_with(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
    })?;
    let (check, cond) = (key[..at].trim(), key[at..].trim());
    let roots = |text: &str| -> Vec<String> {
        checks::subjects(text)
            .iter()
            .chain(std::iter::once(&text))
            .flat_map(|s| {
                chains(s)
                    .filter_map(|c| words(c).next())
                    .collect::<Vec<_>>()
            })
            .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
            .filter(|w| !NOT_VALUES.contains(w))
            .map(str::to_string)
            .collect()
    };
    let read = roots(check);
    chains(cond)
        .filter_map(|c| words(c).next())
        .any(|w| read.iter().any(|r| r == w) && !NOT_VALUES.contains(&w))
        .then_some((check, cond))
}

impl Model<'_> {
    /// The condition that guards the check `index` of `unit`, squeezed: the innermost
    /// `if`/`elif`/`unless` around it, within the unit, that reads a value the test
    /// computed and the check reads too.
    pub(super) fn guard_of(
        &self,
        unit: &Unit,
        index: usize,
        key: &str,
        rules: &Rules,
    ) -> Option<String> {
        let check = self.checks.get(index)?;
        // (Go's `if got != want { t.Errorf(…) }`: its own `if` is the check, and an
        // `if` around it may be a part of its condition, `if res != c.result { if res
        // { t.Errorf(…) } }`; only a nil test of a value around it guards it.)
        let check_text = &self.src.code[check.span.clone()];
        let go_own = self.language == Language::Go
            && !check_text.starts_with("assert")
            && !check_text.starts_with("require");
        if fails_by_itself(key) && !go_own {
            return None;
        }
        // (Most tests have no condition before a check: one scan says so.)
        let lead = &self.src.b()[unit.span.start.min(check.span.start)..check.span.start];
        if memchr::memmem::find(lead, b"if").is_none()
            && memchr::memmem::find(lead, b"unless").is_none()
        {
            return None;
        }
        // (In one branch of an if/else whose other branches check too, the condition
        // chooses which check runs; an `else` that only logs or passes chooses nothing.)
        if let Some((chain, branch)) = self.alternative(unit, index)
            && unit.checks.iter().any(|&other| {
                other != index
                    && self
                        .alternative(unit, other)
                        .is_some_and(|(c, b)| c == chain && b != branch)
            })
        {
            return None;
        }
        // (`session?.expires` reads `session` as `session.expires` does.)
        let subjects: Vec<String> = checks::subjects(key)
            .iter()
            .map(|s| s.replace("?.", ".").replace("!!.", "."))
            .collect();
        let heads: Vec<(usize, usize)> = if self.language.indented() {
            self.indent_headers(unit, check.line)
                .map(|(h, _)| {
                    let start = self.src.line_start(h);
                    let text = self.src.line_text(h);
                    (
                        start + (text.len() - text.trim_start().len()),
                        self.src.line_end(h),
                    )
                })
                .collect()
        } else {
            let mut heads = self.brace_heads(unit, check.span.start);
            if go_own && !heads.is_empty() {
                heads.remove(0);
            }
            heads
        };
        let params = self.src.line_text(unit.line);
        let before = |pos: usize| &self.src.code[unit.span.start..pos];
        // (Read once, and only when a head is an `if`.)
        let mut looped: Option<Vec<&str>> = None;
        for (head, end) in heads {
            let text = self.src.code[head..end].trim();
            if !IFS.iter().any(|k| text.starts_with(k)) {
                continue;
            }
            let cond = condition(text);
            let cond = cond.as_str();
            if go_own && !nil_test(cond) {
                continue;
            }
            let looped =
                looped.get_or_insert_with(|| loop_names(&self.src.code[unit.span.clone()]));
            let bound = cond.contains("let ") || cond.contains(":=");
            // (A Go failure's condition is read as written: `!strings.Contains(
            // err.Error(), s)` reads `err`.)
            let go_reads = |c: &str| {
                go_own && (words(key).any(|w| w == c) || words(check_text).any(|w| w == c))
            };
            // (The size of the value checked reads it too: `if (rows.length === 2)`
            // before `expect(rows.map(…))`.)
            let sized = |c: &str| {
                [".length", ".size", ".count", ".Count", ".Length"]
                    .iter()
                    .find_map(|p| c.strip_suffix(p))
                    .filter(|r| !r.is_empty() && !r.contains(['.', '(', '[']))
                    .map(str::to_string)
            };
            let reads = |c: &str| {
                subjects.iter().any(|s| {
                    checks::covers(c, s)
                        || (!go_own && sized(c).is_some_and(|r| checks::covers(&r, s)))
                })
            };
            // (Whatever it reads, when the condition is the very value checked: `if
            // inventory.reserved(sku):` before `assert inventory.reserved(sku) == 15`.)
            let exact = !go_own && {
                let full = condition(&checks::squeeze(&self.src.text(head..end)));
                full.contains(['.', '(']) && subjects.contains(&full)
            };
            let guards = exact
                || chains(cond)
                    .filter(|c| go_reads(c) || reads(c))
                    .filter_map(|c| words(c).next())
                    .filter(|w| {
                        w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                            && !NOT_VALUES.contains(w)
                    })
                    .filter(|w| !words(params).any(|p| p == *w) && !looped.contains(w))
                    .any(|w| {
                        let bound_here = bound
                            && cond
                                .split_once(":=")
                                .or_else(|| cond.split_once('='))
                                .is_some_and(|(lhs, _)| words(lhs).any(|x| x == w));
                        bound_here || checks::assignments(before(head), w) > 0
                    });
            if guards {
                // (A condition that is a check, testify's `if assert.IsType(t, …) {`,
                // fails the test itself.)
                if self.has_check_in(head..end) || rules.checks.is_match(cond.as_bytes()) {
                    return None;
                }
                return Some(condition(&checks::squeeze(&self.src.text(head..end))));
            }
        }
        None
    }

    /// The heads of the braced blocks around `pos` within `unit`, innermost first, as
    /// (head start, the block's `{`).
    fn brace_heads(&self, unit: &Unit, pos: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = pos;
        while let Some(open) = self.src.enclosing_brace(at) {
            if open < unit.span.start {
                break;
            }
            at = open;
            out.push((self.block_head(unit, open), open));
        }
        out
    }
}

/// The names loops in `code` bind, a table test's row among them: `for _, tc := range`,
/// `for (const tc of cases)`, `for tc in cases`, `foreach (var tc in …)`, `for (Case tc
/// : cases)`, Ruby's `each do |tc|`. A condition on a row chooses what to check.
fn loop_names(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        let rest = t
            .strip_prefix("foreach")
            .or_else(|| t.strip_prefix("for"))
            .filter(|r| r.starts_with([' ', '(']));
        if let Some(rest) = rest {
            let end = [" in ", " of ", " range ", ":=", " : "]
                .iter()
                .filter_map(|k| rest.find(k))
                .min()
                .unwrap_or(0);
            out.extend(words(&rest[..end]));
        }
        if let Some(at) = t.find(" do |").or_else(|| t.find("{ |")) {
            let params = &t[at..];
            let params = params[params.find('|').unwrap_or(0) + 1..]
                .split('|')
                .next()
                .unwrap_or("");
            out.extend(words(params));
        }
    }
    out
}
