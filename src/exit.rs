//! The outcome of a command, kept apart from the failure to run one.
//!
//! "It ran and said no" is a value ([`Outcome::Blocked`], exit 1); "it could not run" is an
//! error (exit 2). Errors may carry a [`Hint`] that tells the user how to fix them.

use std::fmt;
use std::io::Write;

use crate::render::{Role, paint};
use crate::settings::Stream;

/// What a command decided, once it managed to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Allowed or done: exit 0.
    Allowed,
    /// Blocked by policy: a protected change without a valid override, exit 1.
    Blocked,
    /// The exit code of a command run on the user's behalf (`git guard run`).
    Passthrough(u8),
}

impl Outcome {
    /// The process exit code for this outcome.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Allowed => 0,
            Outcome::Blocked => 1,
            Outcome::Passthrough(code) => code,
        }
    }
}

/// Exit code for "cannot run": bad arguments, bad `guard.toml`, not a repository.
pub const CANNOT_RUN: u8 = 2;

/// An error the user can fix, with the sentence that says how.
///
/// Build one with [`hinted`]; `main` finds it anywhere in an `anyhow` chain and prints
/// its hint after the `error:` line.
#[derive(Debug)]
pub struct Hint {
    message: String,
    hint: String,
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Hint {}

/// An error with a fix-it hint, ready for `?` or `Err(...)`.
pub fn hinted(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Hint {
        message: message.into(),
        hint: hint.into(),
    })
}

/// The hint given when an error carries none of its own.
const FALLBACK_HINT: &str = "nothing was changed; if this persists, report it with the command you ran \
     and the output of `git --version`";

/// Prints `error: <cause chain>` and `hint: <fix>` to `err`, never a backtrace.
pub fn print_error(err: &mut dyn Write, error: &anyhow::Error) {
    let hint = error
        .chain()
        .find_map(|cause| cause.downcast_ref::<Hint>())
        .map(|h| h.hint.as_str())
        .unwrap_or(FALLBACK_HINT);
    let chain: Vec<String> = error.chain().map(ToString::to_string).collect();
    let error_word = paint(Stream::Stderr, Role::Blocked, "error:");
    let hint_word = paint(Stream::Stderr, Role::Hint, "hint:");
    let _ = writeln!(err, "{error_word} {}", chain.join(": "));
    for line in hint.lines() {
        let _ = writeln!(err, "{hint_word} {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn hint_is_found_under_context_and_chain_is_joined() {
        let e: anyhow::Result<()> = Err(hinted("bad glob `[`", "close the bracket"));
        let e = e.context("reading guard.toml").unwrap_err();
        let mut buf = Vec::new();
        print_error(&mut buf, &e);
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "error: reading guard.toml: bad glob `[`\nhint: close the bracket\n"
        );
    }

    #[test]
    fn an_error_without_hint_gets_the_fallback() {
        let mut buf = Vec::new();
        print_error(&mut buf, &anyhow::anyhow!("boom"));
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with("error: boom\nhint: nothing was changed"),
            "{text}"
        );
    }
}
