//! How git-guard talks to this person, as a value passed to every command and renderer.
//!
//! Built once per run from the personal settings and the flags (`settings::resolve`);
//! nothing reads a global. Like jj's `Ui` and prek's `Printer`: colour, verbosity and
//! finding detail are decided here, and the words themselves live in `render`.

use std::io::{IsTerminal, Write};

use crate::exit::hint_of;
use crate::settings::{ColorChoice, FindingsDetail, PromptStyle, Settings, Verbosity};

/// Which stream a piece of output goes to, for the terminal test.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// What a piece of coloured text means; the colour follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `error:`, and what blocked.
    Blocked,
    /// `hint:`.
    Hint,
    /// A warning that does not block.
    Warning,
    /// Allowed, approved, written.
    Good,
    /// A headline.
    Strong,
}

/// The settings in force for this run, with the terminal tests already made.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    settings: Settings,
    stdout_colour: bool,
    stderr_colour: bool,
}

impl Default for Ui {
    /// The defaults, as library users and unit tests get them.
    fn default() -> Self {
        Ui::new(Settings::default())
    }
}

impl Ui {
    /// The printer for `settings` (colour `auto` looks at the streams now).
    pub fn new(settings: Settings) -> Ui {
        let auto = |terminal: bool| {
            terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        };
        let (stdout_colour, stderr_colour) = match settings.color {
            ColorChoice::Always => (true, true),
            ColorChoice::Never => (false, false),
            ColorChoice::Auto => (
                auto(std::io::stdout().is_terminal()),
                auto(std::io::stderr().is_terminal()),
            ),
        };
        Ui {
            settings,
            stdout_colour,
            stderr_colour,
        }
    }

    /// The settings behind this printer.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Whether output on `stream` gets colour.
    pub fn colour(&self, stream: Stream) -> bool {
        match stream {
            Stream::Stdout => self.stdout_colour,
            Stream::Stderr => self.stderr_colour,
        }
    }

    /// Whether informational output is wanted.
    pub fn quiet(&self) -> bool {
        self.settings.verbosity == Verbosity::Quiet
    }

    /// Whether extra detail is wanted.
    pub fn verbose(&self) -> bool {
        self.settings.verbosity == Verbosity::Verbose
    }

    /// How findings are listed.
    pub fn findings(&self) -> FindingsDetail {
        self.settings.findings
    }

    /// Whether the reason prompt uses the colourful theme (never against `--color never`).
    pub fn colourful_prompt(&self) -> bool {
        self.settings.prompt == PromptStyle::Colorful && self.settings.color != ColorChoice::Never
    }

    /// `text` in the colour of `role` when `stream` gets colour.
    pub fn paint(&self, stream: Stream, role: Role, text: &str) -> String {
        if !self.colour(stream) {
            return text.to_string();
        }
        let code = match role {
            Role::Blocked => "1;31",
            Role::Hint => "33",
            Role::Warning => "33",
            Role::Good => "32",
            Role::Strong => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }

    /// Prints `error: <cause chain>` and `hint: <fix>` to `err`, never a backtrace.
    pub fn print_error(&self, err: &mut dyn Write, error: &anyhow::Error) {
        let hint = hint_of(error).unwrap_or(FALLBACK_HINT);
        let chain: Vec<String> = error.chain().map(ToString::to_string).collect();
        let error_word = self.paint(Stream::Stderr, Role::Blocked, "error:");
        let hint_word = self.paint(Stream::Stderr, Role::Hint, "hint:");
        let _ = writeln!(err, "{error_word} {}", chain.join(": "));
        for line in hint.lines() {
            let _ = writeln!(err, "{hint_word} {line}");
        }
    }
}

/// The hint given when an error carries none of its own.
const FALLBACK_HINT: &str = "nothing was changed; if this persists, report it with the command you ran \
     and the output of `git --version`";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::hinted;
    use anyhow::Context;

    fn print_error(buf: &mut Vec<u8>, e: &anyhow::Error) {
        Ui::default().print_error(buf, e)
    }

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
