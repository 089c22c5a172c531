//! Personal settings: how git-guard talks to one person. Never policy.
//!
//! The team's policy lives only in the repository's `guard.toml`. What is a matter of
//! taste (colour, verbosity, prompt style, how much finding detail to show) lives in the
//! user's config file, `$XDG_CONFIG_HOME/git-guard/config.toml` on Linux (found by the
//! `directories` crate), and can be overridden per run by `--color`, `-q` and `-v`.
//! Order of precedence: flag, then `NO_COLOR`, then the file, then the default.

use std::path::PathBuf;

use clap::ValueEnum;
use serde::Deserialize;

use crate::exit::hinted;

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Colour when the stream is a terminal, `TERM` is not `dumb` and `NO_COLOR` is unset.
    #[default]
    Auto,
    /// Always colour, even into a pipe.
    Always,
    /// Never colour.
    Never,
}

/// How much git-guard says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verbosity {
    /// Only errors and what blocked; the exit code says the rest.
    Quiet,
    /// The default.
    #[default]
    Normal,
    /// Also the policy in force and what each hook looked at, with its time.
    Verbose,
}

/// The look of the reason prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptStyle {
    /// `Reason: ` and plain text.
    #[default]
    Plain,
    /// dialoguer's colourful theme (only when colour is on for the terminal).
    Colorful,
}

/// How findings are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FindingsDetail {
    /// Each finding with what changed (`assert x == 1` replaced by `assert x >= 0`).
    #[default]
    Detail,
    /// Only the finding's name and location.
    Summary,
}

/// The personal config file, as written by the user. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    color: Option<ColorChoice>,
    verbosity: Option<Verbosity>,
    prompt: Option<PromptStyle>,
    findings: Option<FindingsDetail>,
}

/// The settings in force for this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Settings {
    /// When to colour.
    pub color: ColorChoice,
    /// How much to say.
    pub verbosity: Verbosity,
    /// The prompt's look.
    pub prompt: PromptStyle,
    /// How findings are listed.
    pub findings: FindingsDetail,
}

/// What the command line said; `None` leaves the choice to the file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags {
    /// `--color`.
    pub color: Option<ColorChoice>,
    /// `-q`.
    pub quiet: bool,
    /// `-v`.
    pub verbose: bool,
}

/// The personal config file's path, when the platform has a config directory.
pub fn path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "git-guard").map(|d| d.config_dir().join("config.toml"))
}

/// Reads the personal file (if any) and applies the flags.
pub fn resolve(flags: Flags) -> anyhow::Result<Settings> {
    let file = match path() {
        Some(p) => load(&p)?,
        None => File::default(),
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let color = match (flags.color, no_color) {
        (Some(flag), _) => flag,
        (None, true) => ColorChoice::Never,
        (None, false) => file.color.unwrap_or_default(),
    };
    let verbosity = if flags.quiet {
        Verbosity::Quiet
    } else if flags.verbose {
        Verbosity::Verbose
    } else {
        file.verbosity.unwrap_or_default()
    };
    let settings = Settings {
        color,
        verbosity,
        prompt: file.prompt.unwrap_or_default(),
        findings: file.findings.unwrap_or_default(),
    };
    Ok(settings)
}

fn load(path: &std::path::Path) -> anyhow::Result<File> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(File::default()),
        Err(e) => {
            return Err(hinted(
                format!("cannot read {}: {e}", path.display()),
                "fix its permissions or remove it; it only holds personal preferences",
            ));
        }
    };
    let text = String::from_utf8(text).map_err(|_| {
        hinted(
            format!("{} is not UTF-8 text", path.display()),
            "rewrite it as TOML (see README, \"Personal settings\"), or remove it",
        )
    })?;
    toml::from_str(&text).map_err(|e| {
        let message = e.message().to_string();
        hinted(
            format!("{}: {message}", path.display()),
            "valid keys: color = \"auto|always|never\", verbosity = \"quiet|normal|verbose\", \
             prompt = \"plain|colorful\", findings = \"detail|summary\"; team policy belongs in guard.toml",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_parses_every_key_and_refuses_policy_keys() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("config.toml");
        std::fs::write(
            &p,
            "color = \"never\"\nverbosity = \"verbose\"\nprompt = \"colorful\"\nfindings = \"summary\"\n",
        )
        .unwrap();
        let file = load(&p).unwrap();
        assert_eq!(file.color, Some(ColorChoice::Never));
        assert_eq!(file.verbosity, Some(Verbosity::Verbose));
        assert_eq!(file.prompt, Some(PromptStyle::Colorful));
        assert_eq!(file.findings, Some(FindingsDetail::Summary));

        std::fs::write(&p, "[protect]\npaths = []\n").unwrap();
        let e = format!("{:#}", load(&p).unwrap_err());
        assert!(e.contains("unknown field `protect`"), "{e}");

        assert!(
            load(&dir.path().join("absent.toml"))
                .unwrap()
                .color
                .is_none()
        );
    }
}
