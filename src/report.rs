//! Changes + policy → a [`Report`] of protected paths and findings.
//!
//! Pure: it reads no git state and prints nothing, so every entry point (hooks, `check`,
//! `allow`, `ci`, the agent hook) reaches the same report from the same inputs.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::changes::{BlobChange, Blobs, Change, Status};
use crate::finding::Finding;
use crate::policy::Rules;
use crate::{runner, weakening};

/// A changed file that touches a protected path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Protected {
    /// How the file changed.
    pub status: Status,
    /// Its path before, if any.
    #[serde(serialize_with = "crate::paths::serialize_opt_path")]
    pub old_path: Option<Vec<u8>>,
    /// Its path after, if any.
    #[serde(serialize_with = "crate::paths::serialize_opt_path")]
    pub new_path: Option<Vec<u8>>,
    /// Each of its paths that is protected, with the pattern that protects it.
    pub matched: Vec<Match>,
}

/// One protected path and the pattern that protects it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Match {
    /// The protected path.
    #[serde(serialize_with = "crate::paths::serialize_path")]
    pub path: Vec<u8>,
    /// The `[protect].paths` pattern (or the always-protected `guard.toml`, or the
    /// `[protect.keys] "file pattern"` that names the file).
    pub pattern: String,
    /// For a file protected by `[protect.keys]`: the keys whose values changed (empty
    /// when the file could not be parsed and is protected whole).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// For a file protected by `[protect.keys]`: why, in one line
    /// (`pyproject.toml: tool.pytest.ini_options.addopts changed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What a set of changes does to the protected paths and the tests.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// How many files changed in all.
    pub files_changed: usize,
    /// Changed files on protected paths.
    pub protected: Vec<Protected>,
    /// Weakening findings, blocking or not.
    pub findings: Vec<Finding>,
    /// The exact changes an approval must name (`Guard-Change`): every change of a
    /// path in [`Report::approval_paths`], by object id.
    #[serde(skip)]
    pub required: Vec<BlobChange>,
}

impl Report {
    /// Evaluates `changes` against the policy, reading contents for the weakening
    /// analysis from `blobs`.
    pub fn evaluate(changes: &[Change], rules: &Rules, blobs: &dyn Blobs) -> Report {
        let (config, policy) = (&rules.config, &rules.paths);
        let protected = changes
            .iter()
            .filter_map(|change| {
                let matched: Vec<Match> = change
                    .paths()
                    .filter_map(|path| {
                        policy.protecting_pattern(path).map(|pattern| Match {
                            path: path.to_vec(),
                            pattern: pattern.to_string(),
                            keys: Vec::new(),
                            reason: None,
                        })
                    })
                    .collect();
                // A file the paths protect whole needs no look at its keys.
                let matched = if matched.is_empty() {
                    runner::protected_keys(change, &rules.keys, blobs)
                        .into_iter()
                        .map(|k| Match {
                            path: k.path,
                            pattern: k.pattern,
                            keys: k.keys,
                            reason: Some(k.reason),
                        })
                        .collect()
                } else {
                    matched
                };
                (!matched.is_empty()).then(|| Protected {
                    status: change.status,
                    old_path: change.old_path.clone(),
                    new_path: change.new_path.clone(),
                    matched,
                })
            })
            .collect();
        let mut findings = if config.weakening.enabled {
            let mut findings = weakening::findings(changes, policy, config, blobs);
            findings.extend(runner::build_findings(changes, blobs));
            findings
        } else {
            Vec::new()
        };
        for finding in &mut findings {
            finding.blocking = config.blocks(finding.kind);
        }
        let mut report = Report {
            files_changed: changes.len(),
            protected,
            findings,
            required: Vec::new(),
        };
        let paths = report.approval_paths();
        report.required = changes
            .iter()
            .flat_map(Change::blob_changes)
            .filter(|c| paths.binary_search(&c.path).is_ok())
            .collect();
        report.required.sort();
        report
    }

    /// Whether this change needs a human's reason before it may land.
    pub fn needs_approval(&self) -> bool {
        !self.protected.is_empty() || self.findings.iter().any(|f| f.blocking)
    }

    /// Every path an approval must name (`Guard-Paths`): the protected ones and those
    /// with a blocking finding, sorted and without repeats.
    pub fn approval_paths(&self) -> Vec<Vec<u8>> {
        let protected = self
            .protected
            .iter()
            .flat_map(|p| &p.matched)
            .map(|m| &m.path);
        let flagged = self.findings.iter().filter(|f| f.blocking).map(|f| &f.path);
        protected
            .chain(flagged)
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// `kind path:line` for each blocking finding, as `Guard-Findings` records them.
    pub fn finding_labels(&self) -> Vec<String> {
        self.findings
            .iter()
            .filter(|f| f.blocking)
            .map(Finding::label)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn change(status: Status, old: Option<&str>, new: Option<&str>) -> Change {
        Change {
            status,
            old_path: old.map(|p| p.as_bytes().to_vec()),
            new_path: new.map(|p| p.as_bytes().to_vec()),
            old_id: None,
            new_id: None,
        }
    }

    fn evaluate(changes: &[Change]) -> Report {
        Report::evaluate(changes, &Rules::defaults(), &crate::changes::NoBlobs)
    }

    fn rules(config: Config) -> Rules {
        Rules::compile(config, "guard.toml", crate::policy::PolicySource::Defaults).unwrap()
    }

    #[test]
    fn unprotected_change_needs_nothing() {
        let r = evaluate(&[change(Status::Modified, Some("src/a.py"), Some("src/a.py"))]);
        assert!(!r.needs_approval());
        assert_eq!(r.files_changed, 1);
        assert!(r.approval_paths().is_empty());
    }

    #[test]
    fn rename_out_of_tests_is_protected_by_its_old_path_and_a_finding() {
        let r = evaluate(&[change(
            Status::Renamed,
            Some("tests/t.py"),
            Some("checks/t.py"),
        )]);
        assert!(r.needs_approval());
        assert_eq!(
            r.protected[0].matched,
            vec![Match {
                path: b"tests/t.py".to_vec(),
                pattern: "tests/**".into(),
                keys: Vec::new(),
                reason: None,
            }]
        );
        assert_eq!(r.findings.len(), 1);
        assert_eq!(
            r.findings[0].kind,
            crate::finding::FindingKind::ProtectedMoved
        );
        assert!(r.findings[0].blocking);
        assert_eq!(
            r.approval_paths(),
            vec![b"checks/t.py".to_vec(), b"tests/t.py".to_vec()]
        );
    }

    #[test]
    fn rename_within_protected_paths_is_protected_but_not_a_finding() {
        let r = evaluate(&[change(
            Status::Renamed,
            Some("tests/a.py"),
            Some("tests/b.py"),
        )]);
        assert_eq!(r.protected[0].matched.len(), 2);
        assert!(r.findings.is_empty());
    }

    #[test]
    fn rename_into_tests_is_protected_by_its_new_path() {
        let r = evaluate(&[change(
            Status::Renamed,
            Some("src/x.py"),
            Some("tests/x.py"),
        )]);
        assert_eq!(r.approval_paths(), vec![b"tests/x.py".to_vec()]);
        assert!(r.findings.is_empty());
    }

    #[test]
    fn deletion_of_a_protected_file_is_protected() {
        let r = evaluate(&[change(Status::Deleted, Some("conftest.py"), None)]);
        assert!(r.needs_approval());
        assert_eq!(r.approval_paths(), vec![b"conftest.py".to_vec()]);
    }

    #[test]
    fn a_finding_not_in_block_is_shown_but_does_not_block() {
        let mut config = Config::default();
        config.protect.paths = vec!["tests/**".into()];
        config.weakening.block.clear();
        let changes = [change(
            Status::Renamed,
            Some("tests/t.py"),
            Some("checks/t.py"),
        )];
        let r = Report::evaluate(&changes, &rules(config), &crate::changes::NoBlobs);
        assert_eq!(r.findings.len(), 1);
        assert!(!r.findings[0].blocking);
        assert_eq!(r.approval_paths(), vec![b"tests/t.py".to_vec()]);
    }

    #[test]
    fn weakening_disabled_reports_no_findings() {
        let mut config = Config::default();
        config.weakening.enabled = false;
        let changes = [change(
            Status::Renamed,
            Some("tests/t.py"),
            Some("checks/t.py"),
        )];
        assert!(
            Report::evaluate(&changes, &rules(config), &crate::changes::NoBlobs)
                .findings
                .is_empty()
        );
    }
}
