//! A weakening finding as a value: its kind, where it is, what it did.
//!
//! The analyser produces findings, the policy decides which block, and every report,
//! note and ledger line names them by [`FindingKind::name`].

use serde::Serialize;

/// What a change did to the tests; the names are the ones `[weakening].block` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    /// Fewer `skip`/`ignore`/`.only`/… markers before than after.
    SkipAdded,
    /// Fewer assertions after than before.
    AssertionsRemoved,
    /// An equality assertion replaced by a weaker one in the same hunk.
    AssertionLoosened,
    /// Fewer test definitions after than before, or a test file deleted.
    TestRemoved,
    /// A file moved from a protected path to an unprotected one.
    ProtectedMoved,
    /// A Maven, Gradle or MSBuild build that skips tests, ignores their failures or
    /// excludes some, or an MSBuild test project that runs on fewer target frameworks.
    RunnerConfigWeakened,
}

impl FindingKind {
    /// Every kind, in the order `guard.toml`'s default `block` list names them.
    pub const ALL: [FindingKind; 6] = [
        FindingKind::SkipAdded,
        FindingKind::AssertionsRemoved,
        FindingKind::AssertionLoosened,
        FindingKind::TestRemoved,
        FindingKind::ProtectedMoved,
        FindingKind::RunnerConfigWeakened,
    ];

    /// The kind's name, as `guard.toml`, notes and reports spell it.
    pub const fn name(self) -> &'static str {
        match self {
            FindingKind::SkipAdded => "skip-added",
            FindingKind::AssertionsRemoved => "assertions-removed",
            FindingKind::AssertionLoosened => "assertion-loosened",
            FindingKind::TestRemoved => "test-removed",
            FindingKind::ProtectedMoved => "protected-moved",
            FindingKind::RunnerConfigWeakened => "runner-config-weakened",
        }
    }

    /// The kind named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<FindingKind> {
        FindingKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for FindingKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One thing a change did that weakens the tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The finding's kind.
    pub kind: FindingKind,
    /// The file it is in (the new path when the file still exists).
    #[serde(serialize_with = "crate::paths::serialize_path")]
    pub path: Vec<u8>,
    /// The 1-based line in the new content (for a deleted file, none).
    pub line: Option<u32>,
    /// A short human description.
    pub detail: String,
    /// Whether the policy makes this finding need an override.
    pub blocking: bool,
    /// The test it is about (qualified by class or suite), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
}

impl Finding {
    /// `path:line` (or the path alone), the path quoted as git quotes it.
    pub fn location(&self) -> String {
        let path = crate::paths::quote_path(&self.path);
        match self.line {
            Some(line) => format!("{path}:{line}"),
            None => path,
        }
    }

    /// `kind path:line`, as notes (`Guard-Findings`) and the ledger record it.
    pub fn label(&self) -> String {
        format!("{} {}", self.kind, self.location())
    }
}
