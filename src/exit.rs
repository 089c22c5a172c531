//! The outcome of a command, kept apart from the failure to run one.
//!
//! "It ran and said no" is a value ([`Outcome::Blocked`], exit 1); "it could not run" is an
//! error (exit 2). Errors may carry a [`Hint`] that tells the user how to fix them.

use std::fmt;

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

/// The hint an error carries anywhere in its chain, if any.
pub fn hint_of(error: &anyhow::Error) -> Option<&str> {
    error
        .chain()
        .find_map(|cause| cause.downcast_ref::<Hint>())
        .map(|h| h.hint.as_str())
}
