//! `guard.toml`: the schema, its defaults, and parsing with exact error positions.
//!
//! Reading the file from the right place (a commit, the work tree) is `repo`'s job; this
//! module turns bytes into a validated [`Config`] or an error naming file, line and column.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::exit::hinted;
use crate::finding::FindingKind;
use crate::policy::Policy;

/// The file name of the policy, at the repository root.
pub const FILE_NAME: &str = "guard.toml";

/// The commented default policy that `git guard init` writes.
pub const EXAMPLE: &str = include_str!("../guard.toml.example");

/// Languages whose markers can be extended under `[weakening.markers.<lang>]`.
pub const LANGUAGES: [&str; 7] = [
    "python",
    "rust",
    "javascript",
    "go",
    "java",
    "ruby",
    "csharp",
];

/// The whole policy, as `guard.toml` states it (absent keys take their defaults).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[protect]`: which paths need a reason to change.
    pub protect: Protect,
    /// `[override]`: how a change is approved.
    #[serde(rename = "override")]
    pub approval: Approval,
    /// `[weakening]`: content analysis of test code.
    pub weakening: Weakening,
    /// `[ledger]`: the agent attempt budget.
    pub ledger: Ledger,
}

/// `[protect]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Protect {
    /// Gitignore-style patterns; see `policy`.
    pub paths: Vec<String>,
    /// What a change that only adds tests and checks needs under protected paths.
    pub additions: Additions,
}

/// `[protect].additions`: whether a pure strengthening needs a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Additions {
    /// A change that only adds tests and checks passes without a reason.
    #[default]
    Allow,
    /// It needs a reason like any other protected change.
    Ask,
}

impl Default for Protect {
    fn default() -> Self {
        let paths = [
            "tests/**",
            "test/**",
            "**/__snapshots__/**",
            "*.snap",
            "conftest.py",
            "pytest.ini",
            "tox.ini",
            "jest.config.*",
            "vitest.config.*",
            ".github/workflows/**",
            ".gitlab-ci.yml",
            ".ci/**",
        ];
        Protect {
            paths: paths.map(String::from).to_vec(),
            additions: Additions::Allow,
        }
    }
}

/// `[override]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Approval {
    /// The PR/MR label the CI re-check accepts instead of notes.
    pub label: String,
    /// Reasons shorter than this (in characters) are refused.
    pub min_reason_chars: usize,
    /// The notes ref that holds override notes.
    pub notes_ref: String,
    /// Whether `git guard allow` may approve without the interactive prompt.
    pub allow_without_tty: bool,
}

impl Default for Approval {
    fn default() -> Self {
        Approval {
            label: "allow-test-edits".into(),
            min_reason_chars: 20,
            notes_ref: "refs/notes/guard".into(),
            allow_without_tty: true,
        }
    }
}

/// `[weakening]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weakening {
    /// Whether test code is analysed at all.
    pub enabled: bool,
    /// Finding kinds that need an override wherever they occur.
    pub block: Vec<String>,
    /// Extra markers per language.
    pub markers: BTreeMap<String, Markers>,
}

impl Default for Weakening {
    fn default() -> Self {
        Weakening {
            enabled: true,
            block: FindingKind::ALL.map(|k| k.name().to_string()).to_vec(),
            markers: BTreeMap::new(),
        }
    }
}

/// `[weakening.markers.<lang>]`: extra tokens recognised for one language.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Markers {
    /// Tokens that skip or disable a test.
    pub skip: Vec<String>,
    /// Tokens that assert.
    pub assert: Vec<String>,
    /// Tokens that define a test.
    pub test: Vec<String>,
}

/// `[ledger]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Ledger {
    /// Attempts allowed before `git guard run` refuses.
    pub max_attempts: u32,
}

impl Default for Ledger {
    fn default() -> Self {
        Ledger { max_attempts: 4 }
    }
}

impl Config {
    /// Parses and validates `guard.toml` bytes; `origin` names the file in errors
    /// (for example `guard.toml` or `guard.toml at 1a2b3c4`).
    pub fn parse(bytes: &[u8], origin: &str) -> anyhow::Result<Config> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            hinted(
                format!(
                    "{origin}: not UTF-8 text (invalid byte at offset {})",
                    e.valid_up_to()
                ),
                "guard.toml must be a TOML text file; `git guard init --force` writes the defaults",
            )
        })?;
        let config: Config = toml::from_str(text).map_err(|e| {
            let position = e
                .span()
                .map(|span| {
                    let (line, column) = line_column(text, span.start);
                    format!(":{line}:{column}")
                })
                .unwrap_or_default();
            hinted(
                format!("{origin}{position}: {}", e.message().trim_end()),
                "fix that line; every key and its default is listed in guard.toml.example \
                 (`git guard init --force` rewrites the file with the defaults)",
            )
        })?;
        config.validate(origin)?;
        Ok(config)
    }

    /// Checks what serde cannot: globs compile, names are known, values are sane.
    fn validate(&self, origin: &str) -> anyhow::Result<()> {
        Policy::new(&self.protect.paths).map_err(|e| {
            let message = format!("{origin}: [protect].paths: {e:#}");
            hinted(
                message,
                "patterns use gitignore syntax: `tests/**`, `*.snap`, `!tests/data/big.bin`",
            )
        })?;
        for kind in &self.weakening.block {
            if FindingKind::from_name(kind).is_none() {
                let known: Vec<&str> = FindingKind::ALL.map(FindingKind::name).to_vec();
                return Err(hinted(
                    format!("{origin}: [weakening].block: unknown finding `{kind}`"),
                    format!("known findings: {}", known.join(", ")),
                ));
            }
        }
        for lang in self.weakening.markers.keys() {
            if !LANGUAGES.contains(&lang.as_str()) {
                return Err(hinted(
                    format!("{origin}: unknown key `weakening.markers.{lang}`"),
                    format!("languages with markers: {}", LANGUAGES.join(", ")),
                ));
            }
        }
        if !self.approval.notes_ref.starts_with("refs/notes/")
            || !git2::Reference::is_valid_name(&self.approval.notes_ref)
        {
            return Err(hinted(
                format!(
                    "{origin}: [override].notes_ref `{}` is not a valid ref under refs/notes/",
                    self.approval.notes_ref
                ),
                "use a ref such as \"refs/notes/guard\"",
            ));
        }
        Ok(())
    }

    /// Whether a finding of this kind needs an override.
    pub fn blocks(&self, kind: FindingKind) -> bool {
        self.weakening.block.iter().any(|k| k == kind.name())
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        format!(
            "{:#}",
            Config::parse(text.as_bytes(), "guard.toml").unwrap_err()
        )
    }

    #[test]
    fn the_example_file_states_exactly_the_defaults() {
        assert_eq!(
            Config::parse(EXAMPLE.as_bytes(), "x").unwrap(),
            Config::default()
        );
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(Config::parse(b"", "x").unwrap(), Config::default());
    }

    #[test]
    fn partial_sections_keep_the_other_defaults() {
        let c = Config::parse(b"[override]\nmin_reason_chars = 5\n", "x").unwrap();
        assert_eq!(c.approval.min_reason_chars, 5);
        assert_eq!(c.approval.label, "allow-test-edits");
        assert_eq!(c.protect, Protect::default());
    }

    #[test]
    fn unknown_key_names_key_line_and_column() {
        let e = error_of("[protect]\npaths = []\n  colour = true\n");
        assert!(
            e.starts_with("guard.toml:3:3: unknown field `colour`"),
            "{e}"
        );
    }

    #[test]
    fn unknown_section_is_an_error() {
        let e = error_of("[protection]\npaths = []\n");
        assert!(
            e.starts_with("guard.toml:1:2: unknown field `protection`"),
            "{e}"
        );
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let e = error_of("[override]\nlabel = \n");
        assert!(e.starts_with("guard.toml:2:9:"), "{e}");
    }

    #[test]
    fn wrong_type_names_position() {
        let e = error_of("[override]\nmin_reason_chars = \"many\"\n");
        assert!(e.starts_with("guard.toml:2:20:"), "{e}");
    }

    #[test]
    fn invalid_glob_names_the_pattern() {
        let e = error_of("[protect]\npaths = [\"tests/[abc\"]\n");
        assert!(e.contains("`tests/[abc`"), "{e}");
    }

    #[test]
    fn unknown_finding_and_language_are_errors() {
        assert!(error_of("[weakening]\nblock = [\"skipped\"]\n").contains("`skipped`"));
        let e = error_of("[weakening.markers.cobol]\nskip = [\"X\"]\n");
        assert!(e.contains("weakening.markers.cobol"), "{e}");
    }

    #[test]
    fn additions_is_allow_or_ask() {
        assert_eq!(Config::default().protect.additions, Additions::Allow);
        let c = Config::parse(b"[protect]\nadditions = \"ask\"\n", "x").unwrap();
        assert_eq!(c.protect.additions, Additions::Ask);
        let e = error_of("[protect]\nadditions = \"sometimes\"\n");
        assert!(e.starts_with("guard.toml:2:13:"), "{e}");
    }

    #[test]
    fn ruby_and_csharp_markers_parse() {
        let c = Config::parse(b"[weakening.markers.ruby]\nskip = [\"skip_on_ci\"]\n[weakening.markers.csharp]\nskip = [\"[Quarantine\"]\n", "x").unwrap();
        assert_eq!(c.weakening.markers["ruby"].skip, vec!["skip_on_ci"]);
        assert_eq!(c.weakening.markers["csharp"].skip, vec!["[Quarantine"]);
    }

    #[test]
    fn markers_parse() {
        let c = Config::parse(b"[weakening.markers.python]\nskip = [\"@my_skip\"]\n", "x").unwrap();
        assert_eq!(c.weakening.markers["python"].skip, vec!["@my_skip"]);
    }

    #[test]
    fn binary_garbage_is_an_error_not_a_panic() {
        let e = Config::parse(&[0xff, 0xfe, 0x00, 0x80], "guard.toml").unwrap_err();
        assert!(format!("{e:#}").contains("not UTF-8"));
    }

    #[test]
    fn notes_ref_must_live_under_refs_notes() {
        assert!(error_of("[override]\nnotes_ref = \"refs/heads/x\"\n").contains("notes_ref"));
        assert!(error_of("[override]\nnotes_ref = \"refs/notes/a..b\"\n").contains("notes_ref"));
    }
}
