//! `guard.toml`: the schema, its defaults, and parsing with exact error positions.
//!
//! Reading the file from the right place (a commit, the work tree) is `repo`'s job; this
//! module turns bytes into a validated [`Config`] or an error naming file, line and column.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::exit::hinted;
use crate::finding::FindingKind;

/// The file name of the policy, at the repository root.
pub const FILE_NAME: &str = "guard.toml";

/// The commented default policy that `git guard init` writes.
pub const EXAMPLE: &str = include_str!("../guard.toml.example");

/// Languages whose markers can be extended under `[weakening.markers.<lang>]`.
pub const LANGUAGES: [&str; 5] = ["python", "rust", "javascript", "go", "java"];

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
    /// Whether `allow` and `override --reason` also work without a terminal.
    pub allow_without_tty: bool,
    /// Path (in the repository) of an OpenSSH `allowed_signers` file; "" for none.
    pub signers: String,
    /// Only approvals signed by a key in `signers` count.
    pub require_signature: bool,
    /// Only security-key (FIDO, `sk-*`) signatures with user presence count.
    pub require_presence: bool,
}

impl Default for Approval {
    fn default() -> Self {
        Approval {
            label: "allow-test-edits".into(),
            min_reason_chars: 20,
            notes_ref: "refs/notes/guard".into(),
            allow_without_tty: false,
            signers: String::new(),
            require_signature: false,
            require_presence: false,
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
            let message = e.message().trim_end();
            // A value of the wrong kind: name its key, which serde's message does not.
            let about_a_value = message.starts_with("invalid ");
            let key = e.span().filter(|_| about_a_value);
            let message = match key.and_then(|span| key_path_at(text, span.start)) {
                Some(key) => format!("{key}: {}", readable_type_error(message)),
                None => message.to_string(),
            };
            hinted(
                format!("{origin}{position}: {message}"),
                "fix that line; README's guard.toml section lists every key and its default \
                 (`git guard init --force` rewrites the file with the defaults)",
            )
        })?;
        config.validate(origin)?;
        Ok(config)
    }

    /// Checks what serde cannot: names are known, values are sane (the globs are
    /// compiled, and checked, by `policy::Rules`).
    fn validate(&self, origin: &str) -> anyhow::Result<()> {
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
        if (self.approval.require_signature || self.approval.require_presence)
            && self.approval.signers.trim().is_empty()
        {
            return Err(hinted(
                format!(
                    "{origin}: [override] require_signature and require_presence need `signers`"
                ),
                "set signers = \".github/allowed_signers\" (OpenSSH allowed_signers format) and commit that file",
            ));
        }
        if self.approval.signers.starts_with('/') || self.approval.signers.contains("..") {
            return Err(hinted(
                format!(
                    "{origin}: [override] signers `{}` must be a path inside the repository",
                    self.approval.signers
                ),
                "give it relative to the repository root, e.g. \".github/allowed_signers\"",
            ));
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

/// The key whose value holds byte `offset` of `text`, as a reader finds it in the file:
/// `[override] min_reason_chars`, `[protect] paths[2]`, or a top-level `protect`.
/// `None` when the offset is in no value (a syntax error, an unknown key's name).
fn key_path_at(text: &str, offset: usize) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    type Value<'i> = toml::Spanned<DeValue<'i>>;

    fn in_value(value: &Value<'_>, offset: usize, path: &mut Vec<String>) -> bool {
        match value.get_ref() {
            DeValue::Table(table) => in_table(table, offset, path),
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if item.span().contains(&offset) {
                        path.push(format!("[{i}]"));
                        if in_value(item, offset, path) || !is_container(item) {
                            return true;
                        }
                        path.pop();
                    }
                }
                false
            }
            _ => value.span().contains(&offset),
        }
    }
    fn is_container(value: &Value<'_>) -> bool {
        matches!(value.get_ref(), DeValue::Table(_) | DeValue::Array(_))
    }
    fn in_table(table: &DeTable<'_>, offset: usize, path: &mut Vec<String>) -> bool {
        for (key, value) in table {
            path.push(key.get_ref().to_string());
            let leaf_here = !is_container(value) && value.span().contains(&offset);
            if leaf_here || (is_container(value) && in_value(value, offset, path)) {
                return true;
            }
            // A whole array or inline table given where something else was expected.
            if is_container(value) && value.span().contains(&offset) {
                return true;
            }
            path.pop();
        }
        false
    }

    let document = DeTable::parse(text).ok()?;
    let mut path = Vec::new();
    if !in_table(document.get_ref(), offset, &mut path) {
        return None;
    }
    // The key is the last name before any array index: `paths[1]`, not `1`.
    let key_end = path
        .iter()
        .position(|p| p.starts_with('['))
        .map_or(path.len(), |i| i)
        .saturating_sub(1);
    let (tables, rest) = path.split_at(key_end);
    let key = rest.concat();
    Some(if tables.is_empty() {
        key
    } else {
        format!("[{}] {key}", tables.join("."))
    })
}

/// serde's "invalid type: string \"twenty\", expected usize" in a reader's words:
/// "expected an integer, found a string \"twenty\"". Other messages pass unchanged.
fn readable_type_error(message: &str) -> String {
    let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    else {
        return message.to_string();
    };
    let kind = |word: &str| -> String {
        let word = word
            .strip_prefix("a ")
            .or_else(|| word.strip_prefix("an "))
            .unwrap_or(word);
        let (head, tail) = word.split_once(' ').unwrap_or((word, ""));
        let (name, keep_tail) = match head {
            "string" => ("a string", true),
            "integer" => ("an integer", true),
            "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
                ("an integer", false)
            }
            "floating" | "f32" | "f64" => ("a number", false),
            "boolean" | "bool" => ("a boolean", true),
            "sequence" => ("an array", false),
            "map" | "struct" => ("a table", false),
            _ => return word.to_string(),
        };
        let tail = tail.trim_matches('`');
        if keep_tail && !tail.is_empty() {
            format!("{name} {tail}")
        } else {
            name.to_string()
        }
    };
    format!("expected {}, found {}", kind(expected), kind(found))
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
    fn wrong_type_names_the_key_with_file_line_and_column() {
        let e = error_of("[override]\nmin_reason_chars = \"twenty\"\n");
        assert!(
            e.starts_with(
                "guard.toml:2:20: [override] min_reason_chars: expected an integer, found a string \"twenty\""
            ),
            "{e}"
        );
        let e = error_of("[weakening]\nenabled = 1\n");
        assert!(
            e.starts_with(
                "guard.toml:2:11: [weakening] enabled: expected a boolean, found an integer 1"
            ),
            "{e}"
        );
        let e = error_of("[protect]\npaths = [\"tests/**\", 3]\n");
        assert!(
            e.starts_with(
                "guard.toml:2:22: [protect] paths[1]: expected a string, found an integer 3"
            ),
            "{e}"
        );
        let e = error_of("[ledger]\nmax_attempts = [1]\n");
        assert!(
            e.starts_with("guard.toml:2:16: [ledger] max_attempts: "),
            "{e}"
        );
        let e = error_of("[weakening.markers.python]\nskip = \"@x\"\n");
        assert!(
            e.starts_with("guard.toml:2:8: [weakening.markers.python] skip: expected an array"),
            "{e}"
        );
    }

    #[test]
    fn unknown_finding_and_language_are_errors() {
        assert!(error_of("[weakening]\nblock = [\"skipped\"]\n").contains("`skipped`"));
        let e = error_of("[weakening.markers.cobol]\nskip = [\"X\"]\n");
        assert!(e.contains("weakening.markers.cobol"), "{e}");
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
