//! Checks made by calling a check-like helper defined outside the file
//! (`expect_offense(…)`, `assertValidJson(…)`): git-guard cannot read what they check,
//! only their names, so this is what their names tell.

/// The helper an opaque check calls (`call:expect_offense(<<~RUBY)` → `expect_offense`).
pub(super) fn callee(key: &str) -> Option<&str> {
    let call = key.strip_prefix("call:")?;
    let end = call
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(call.len());
    (end > 0).then(|| &call[..end])
}

/// Whether `now` is the helper `was` with its expectation inverted: the same words with
/// a `no` or `not` added (`expect_offense` → `expect_no_offenses`, `assertDifference` →
/// `assertNoDifference`). A plural ending does not make another word.
pub(super) fn inverted(was: &str, now: &str) -> bool {
    let (was, now) = (words(was), words(now));
    if now.len() != was.len() + 1 {
        return false;
    }
    (1..now.len()).any(|at| {
        matches!(now[at].as_str(), "no" | "not")
            && now[..at] == was[..at]
            && now[at + 1..] == was[at..]
    })
}

/// The first word of a helper's name (`expect` of `expect_correction`): helpers that
/// share it belong to one family of checks.
pub(super) fn family(name: &str) -> String {
    words(name).into_iter().next().unwrap_or_default()
}

/// A name's words, lower case, each without a plural `s` (`expectNoOffenses` →
/// `expect`, `no`, `offense`).
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        if c == '_' || (c.is_ascii_uppercase() && !current.is_empty()) {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if c == '_' {
                continue;
            }
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    for w in &mut out {
        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            w.pop();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callees_of_opaque_checks() {
        assert_eq!(
            callee("call:expect_offense(<<~RUBY)"),
            Some("expect_offense")
        );
        assert_eq!(callee("call:assertValid(t,x)"), Some("assertValid"));
        assert_eq!(callee("assert x == 1"), None);
        assert_eq!(callee("call:(x)"), None);
    }

    #[test]
    fn inverted_expectations() {
        assert!(inverted("expect_offense", "expect_no_offenses"));
        assert!(inverted("expect_offenses", "expect_no_offenses"));
        assert!(inverted("assertDifference", "assertNoDifference"));
        assert!(inverted("assert_called", "assert_not_called"));
        assert!(!inverted("expect_offense", "expect_offense"));
        assert!(!inverted("expect_offense", "expect_correction"));
        assert!(!inverted("expect_offense", "expect_no_correction"));
        assert!(!inverted("expect_no_offenses", "expect_offense"));
        assert!(!inverted("offense", "no_offense"));
        assert_eq!(family("expect_correction"), "expect");
        assert_eq!(family("expectNoError"), "expect");
    }
}
