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
pub const EXAMPLE: &str = include_str!("../../guard.toml.example");

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
    /// `[protect.keys]`: a file pattern (gitignore semantics) → the keys inside such a
    /// file whose values are protected (see `runner`). A table given in `guard.toml`
    /// replaces this default table entirely.
    pub keys: BTreeMap<KeyFile, Vec<KeyPath>>,
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

/// The default `[protect].paths`: the test trees and everything that decides what
/// "passing" means (SPEC, "Runner configuration").
pub const DEFAULT_PATHS: [&str; 29] = [
    "tests/**",
    "test/**",
    "**/__snapshots__/**",
    "*.snap",
    "**/testdata/**",
    "conftest.py",
    "pytest.ini",
    ".pytest.ini",
    "tox.ini",
    "noxfile.py",
    "jest.config.*",
    "vitest.config.*",
    ".mocharc*",
    "karma.conf.*",
    "playwright.config.*",
    "cypress.config.*",
    ".nextest/**",
    ".github/workflows/**",
    ".github/actions/**",
    ".gitlab-ci.yml",
    ".circleci/**",
    "Jenkinsfile",
    "azure-pipelines.yml",
    ".buildkite/**",
    "bitbucket-pipelines.yml",
    ".travis.yml",
    ".ci/**",
    "CODEOWNERS",
    ".github/CODEOWNERS",
];

/// The default `[protect.keys]` table.
pub const DEFAULT_KEYS: [(&str, &[&str]); 4] = [
    (
        "pyproject.toml",
        &["tool.pytest", "tool.coverage", "tool.hatch.envs.test"],
    ),
    ("setup.cfg", &["tool:pytest"]),
    (
        "package.json",
        &["jest", "vitest", "mocha", "ava", "scripts.test"],
    ),
    (
        "Cargo.toml",
        &[
            "lib.test",
            "bin.test",
            "test",
            "profile.test",
            "workspace.metadata.nextest",
        ],
    ),
];

impl Default for Protect {
    fn default() -> Self {
        let keys = DEFAULT_KEYS
            .iter()
            .map(|(file, keys)| {
                let file = KeyFile::try_from(file.to_string()).expect("default file patterns");
                let keys = keys
                    .iter()
                    .map(|k| KeyPath::try_from(k.to_string()).expect("default keys"))
                    .collect();
                (file, keys)
            })
            .collect();
        Protect {
            paths: DEFAULT_PATHS.map(String::from).to_vec(),
            keys,
            additions: Additions::Allow,
        }
    }
}

/// How a file named in `[protect.keys]` is read, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyFormat {
    /// `*.toml` (the `toml` crate).
    Toml,
    /// `*.json` (`serde_json`).
    Json,
    /// `*.cfg`, `*.ini`: Python's `configparser` dialect.
    Ini,
}

impl KeyFormat {
    /// The format of a file (or file pattern) named `name`, from its extension.
    pub fn of_name(name: &[u8]) -> Option<KeyFormat> {
        let base = name.rsplit(|b| *b == b'/').next().unwrap_or(name);
        let ext = base.rsplit(|b| *b == b'.').next()?;
        if ext.len() == base.len() {
            return None;
        }
        match ext.to_ascii_lowercase().as_slice() {
            b"toml" => Some(KeyFormat::Toml),
            b"json" => Some(KeyFormat::Json),
            b"cfg" | b"ini" => Some(KeyFormat::Ini),
            _ => None,
        }
    }
}

impl std::fmt::Display for KeyFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeyFormat::Toml => "TOML",
            KeyFormat::Json => "JSON",
            KeyFormat::Ini => "INI",
        })
    }
}

/// A file pattern in `[protect.keys]`: gitignore syntax, naming `.toml`, `.json`,
/// `.cfg` or `.ini` files (the format is read from the extension).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KeyFile(String);

impl KeyFile {
    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The format of the files it names.
    pub fn format(&self) -> KeyFormat {
        KeyFormat::of_name(self.0.as_bytes()).expect("checked when parsed")
    }
}

impl TryFrom<String> for KeyFile {
    type Error = String;

    fn try_from(pattern: String) -> Result<Self, Self::Error> {
        if pattern.starts_with('!') {
            return Err(format!(
                "[protect.keys] file pattern `{pattern}`: `!` is not allowed here \
                 (leave the file out of the table instead)"
            ));
        }
        if pattern.ends_with('/') {
            return Err(format!(
                "[protect.keys] file pattern `{pattern}` names a directory; name the files \
                 (e.g. \"config/*.json\")"
            ));
        }
        if KeyFormat::of_name(pattern.as_bytes()).is_none() {
            return Err(format!(
                "[protect.keys] file pattern `{pattern}`: cannot tell how to read it; \
                 name .toml, .json, .cfg or .ini files (e.g. \"pyproject.toml\", \"*.json\")"
            ));
        }
        Ok(KeyFile(pattern))
    }
}

impl From<KeyFile> for String {
    fn from(file: KeyFile) -> String {
        file.0
    }
}

impl std::fmt::Display for KeyFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A key in `[protect.keys]`: dotted segments (`tool.pytest.ini_options`); a segment
/// holding a dot or a space is quoted (`tool."my.tool"`). It protects the value under it
/// and everything below; in an array of tables (`[[bin]]`) it applies to every element.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KeyPath {
    text: String,
    segments: Vec<String>,
}

impl KeyPath {
    /// The key as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Its segments, unquoted.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }
}

impl TryFrom<String> for KeyPath {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        let bad = |why: &str| {
            Err(format!(
                "[protect.keys] invalid key `{text}`: {why}; keys are dotted names such as \
                 \"tool.pytest.ini_options\" (quote a segment holding a dot: tool.\"a.b\")"
            ))
        };
        let mut segments = Vec::new();
        let mut chars = text.chars().peekable();
        if text.is_empty() {
            return bad("it is empty");
        }
        loop {
            let mut segment = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    segment.push(c);
                }
                if !closed {
                    return bad("a quote is not closed");
                }
                if segment.is_empty() {
                    return bad("a quoted segment is empty");
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == '.' {
                        break;
                    }
                    if c.is_whitespace() || c.is_control() || "\"[]*?=,{}'\\".contains(c) {
                        return bad(&format!(
                            "`{c}` is not allowed in a key (quote the segment)"
                        ));
                    }
                    segment.push(c);
                    chars.next();
                }
                if segment.is_empty() {
                    return bad("it has an empty segment");
                }
            }
            segments.push(segment);
            match chars.next() {
                None => break,
                Some('.') if chars.peek().is_some() => {}
                Some('.') => return bad("it ends with a dot"),
                Some(c) => return bad(&format!("`{c}` after a quoted segment")),
            }
        }
        Ok(KeyPath { text, segments })
    }
}

impl From<KeyPath> for String {
    fn from(key: KeyPath) -> String {
        key.text
    }
}

impl std::fmt::Display for KeyPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
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
mod tests;
