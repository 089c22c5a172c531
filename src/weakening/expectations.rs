//! Mock expectations that constrain a call without being read as checks: testify's
//! `m.On("Send", to, mock.MatchedBy(…)).Return(nil).Once()` and mockall's
//! `m.expect_send().with(eq(to), eq(body)).times(1)`. A call that matches no
//! expectation fails the test, so each argument matcher and call count is a check; one
//! widened to a wildcard (`mock.Anything`, `.withf(|_, _| true)`), dropped, or made
//! optional (`.Maybe()`) lets a wrong call through.

use super::rules::Language;

/// Matchers that accept any value.
const WILDCARDS: &[&str] = &[
    "mock.Anything",
    "mock.AnythingOfType(",
    "mock.IsType(",
    "gomock.Any()",
    "always()",
    "|_|true",
    "|_,_|true",
    "|_,_,_|true",
    "|_,_,_,_|true",
];

/// Call counts an expectation may carry.
const COUNTS: &[&str] = &[
    ".times(",
    ".Times(",
    ".Once()",
    ".Twice()",
    ".return_once(",
    ".never()",
];

/// One expectation: what it expects (receiver and call), and its text squeezed.
struct Expectation {
    at: usize,
    key: String,
    text: String,
}

/// The expectations written in `code` (`raw` is the same text with its strings and
/// comments kept).
fn expectations(raw: &str, code: &str, language: Language) -> Vec<Expectation> {
    let marker = match language {
        Language::Go => ".On(",
        Language::Rust => ".expect_",
        _ => return Vec::new(),
    };
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices(marker) {
        let start = code[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |i| i + 1);
        let Some(open) = code[at + 1..].find('(').map(|i| at + 1 + i) else {
            continue;
        };
        let Some(close) = super::source::matching_close(b, open) else {
            continue;
        };
        // The call expected: testify's first argument, mockall's method.
        let key = match language {
            Language::Go => {
                let first = code[open + 1..close].split(',').next().unwrap_or("");
                if !first.trim().starts_with('"') {
                    continue;
                }
                let first = raw
                    .get(open + 1..open + 1 + first.len())
                    .unwrap_or("")
                    .trim();
                format!("{}{first}", &code[start..at])
            }
            _ => code[start..open].to_string(),
        };
        // The chain after it: `.with(…)`, `.times(1)`, `.Return(…)`.
        let mut end = close + 1;
        loop {
            let rest = &code[end..];
            let trimmed = rest.trim_start();
            if !trimmed.starts_with('.') {
                break;
            }
            let dot = end + (rest.len() - trimmed.len());
            let Some(open) = code[dot..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .map(|i| dot + i)
                .filter(|&i| b[i] == b'(')
            else {
                break;
            };
            let Some(close) = super::source::matching_close(b, open) else {
                break;
            };
            end = close + 1;
        }
        out.push(Expectation {
            at,
            key,
            text: super::checks::squeeze(raw.get(start..end).unwrap_or("")),
        });
    }
    out
}

/// Why `now` accepts calls `was` did not, if it does.
fn widened(was: &str, now: &str) -> Option<&'static str> {
    let count = |t: &str, words: &[&str]| words.iter().map(|w| t.matches(w).count()).sum::<usize>();
    // (mockall without `.with(…)` matched any arguments already.)
    let any_arguments =
        was.contains(".expect_") && !(was.contains(".with(") || was.contains(".withf("));
    if count(now, WILDCARDS) > count(was, WILDCARDS) && !any_arguments {
        return Some("an argument is now matched by a wildcard");
    }
    // (mockall: without `.with(…)` any arguments match.)
    if (was.contains(".with(") || was.contains(".withf("))
        && !(now.contains(".with(") || now.contains(".withf("))
    {
        return Some("its arguments are no longer matched");
    }
    if count(was, COUNTS) > count(now, COUNTS) {
        return Some("how often it is called is no longer checked");
    }
    // (mockall: an exact count made a range, `.times(1)` → `.times(1..)`.)
    let exact = |t: &str| {
        t.match_indices(".times(")
            .filter(|(at, m)| {
                let arg = &t[at + m.len()..];
                let end = arg.find(')').unwrap_or(0);
                end > 0 && arg[..end].bytes().all(|b| b.is_ascii_digit() || b == b'_')
            })
            .count()
    };
    if exact(was) > exact(now) && now.matches(".times(").count() >= was.matches(".times(").count() {
        return Some("an exact number of calls is now a range");
    }
    if now.contains(".Maybe()") && !was.contains(".Maybe()") {
        return Some("it is now optional");
    }
    None
}

/// The first expectation of a test widened: where it is in `new`, its old and new text,
/// and why.
pub(super) fn widened_expectation(
    (old_raw, old): (&str, &str),
    (new_raw, new): (&str, &str),
    language: Language,
) -> Option<(usize, String, String, &'static str)> {
    if old == new && old_raw == new_raw {
        return None;
    }
    let (a, b) = (
        expectations(old_raw, old, language),
        expectations(new_raw, new, language),
    );
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let gone: Vec<&Expectation> = a
        .iter()
        .filter(|e| !b.iter().any(|n| n.text == e.text))
        .collect();
    let come: Vec<&Expectation> = b
        .iter()
        .filter(|e| !a.iter().any(|o| o.text == e.text))
        .collect();
    gone.iter().find_map(|was| {
        let mut same = come.iter().filter(|n| n.key == was.key);
        let now = same.next()?;
        if same.next().is_some() || gone.iter().filter(|o| o.key == was.key).count() > 1 {
            return None;
        }
        widened(&was.text, &now.text).map(|why| {
            let (a, b) = around_difference(&was.text, &now.text);
            (now.at, a, b, why)
        })
    })
}

/// The part of two texts that differs, with a little of what surrounds it.
fn around_difference(a: &str, b: &str) -> (String, String) {
    const CONTEXT: usize = 24;
    let (ra, rb) = super::source::difference(a, b);
    let show = |t: &str, r: std::ops::Range<usize>| {
        let mut from = r.start.saturating_sub(CONTEXT);
        while !t.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (r.end + CONTEXT).min(t.len());
        while !t.is_char_boundary(to) {
            to += 1;
        }
        format!(
            "{}{}{}",
            if from > 0 { "…" } else { "" },
            &t[from..to],
            if to < t.len() { "…" } else { "" }
        )
    };
    (show(a, ra), show(b, rb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(old: &str, new: &str, language: Language) -> Option<&'static str> {
        widened_expectation((old, old), (new, new), language).map(|w| w.3)
    }

    #[test]
    fn widened_expectations_are_read() {
        assert_eq!(
            why(
                "m.On(\"Send\", to, mock.MatchedBy(func(b string) bool {\n return ok(b)\n})).Return(nil).Once()",
                "m.On(\"Send\", to, mock.Anything).Return(nil).Once()",
                Language::Go
            ),
            Some("an argument is now matched by a wildcard")
        );
        assert_eq!(
            why(
                "sms.expect_send()\n .with(eq(\"+49\"), eq(\"hi\"))\n .times(1)\n .returning(|_, _| Ok(()));",
                "sms.expect_send()\n .returning(|_, _| Ok(()));",
                Language::Rust
            ),
            Some("its arguments are no longer matched")
        );
        assert_eq!(
            why(
                "sms.expect_send().with(eq(1)).times(1);",
                "sms.expect_send().withf(|_, _| true).times(1);",
                Language::Rust
            ),
            Some("an argument is now matched by a wildcard")
        );
        assert_eq!(
            why(
                "sms.expect_send().returning(|_, _| Ok(()));",
                "sms.expect_send().with(eq(1), always()).times(1).returning(|_, _| Ok(()));",
                Language::Rust
            ),
            None
        );
        assert_eq!(
            why(
                "sms.expect_send().with(eq(1)).times(1);",
                "sms.expect_send().with(eq(1)).times(1..);",
                Language::Rust
            ),
            Some("an exact number of calls is now a range")
        );
        assert_eq!(
            why(
                "sms.expect_send().with(eq(1)).times(1..3);",
                "sms.expect_send().with(eq(1)).times(2);",
                Language::Rust
            ),
            None
        );
        assert_eq!(
            why(
                "m.On(\"Get\", 1).Return(x).Once()",
                "m.On(\"Get\", 1).Return(x).Maybe()",
                Language::Go
            ),
            Some("how often it is called is no longer checked")
        );
        // Narrowed, or another call: no.
        assert_eq!(
            why(
                "m.On(\"Get\", mock.Anything).Return(x)",
                "m.On(\"Get\", 1).Return(x)",
                Language::Go
            ),
            None
        );
        assert_eq!(
            why(
                "m.On(\"Get\", 1).Return(x).Once()",
                "m.On(\"Put\", mock.Anything).Return(x)",
                Language::Go
            ),
            None
        );
    }
}
