//! Changes + policy → a [`Report`] of protected paths and findings.
//!
//! Pure: it reads no git state and prints nothing, so every entry point (hooks, `check`,
//! `allow`, `ci`, the agent hook) reaches the same report from the same inputs.

use std::collections::BTreeSet;

use serde::Serialize;

use git2::Oid;

use crate::changes::{BlobChange, Blobs, Change, Status};
use crate::finding::{Finding, FindingKind};
use crate::policy::{Policy, Rules};
use crate::weakening::rules::{Language, is_test_path};
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
    /// For a submodule (gitlink), the submodule commits before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub submodule: Option<Submodule>,
}

/// The submodule commits a gitlink change moves between (absent on a side that is not a
/// submodule, or does not exist).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Submodule {
    /// The submodule commit before.
    pub old: Option<String>,
    /// The submodule commit after.
    pub new: Option<String>,
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
    /// Test files on protected paths that only gain tests and checks, let through
    /// without a reason under `[protect] additions = "allow"`.
    #[serde(serialize_with = "crate::paths::serialize_paths")]
    pub strengthened: Vec<Vec<u8>>,
}

impl Report {
    /// Evaluates `changes` against the policy, reading contents for the weakening
    /// analysis from `blobs`.
    ///
    /// Fails closed: when a blob the verdict depends on (either side of a protected
    /// change, or what the analyser reads) cannot be read, the error names its path and
    /// object rather than the analysis quietly finding nothing.
    pub fn evaluate(
        changes: &[Change],
        rules: &Rules,
        blobs: &dyn Blobs,
    ) -> anyhow::Result<Report> {
        let (config, policy) = (&rules.config, &rules.paths);
        let mut protected_at = vec![false; changes.len()];
        let protected: Vec<Protected> = changes
            .iter()
            .enumerate()
            .filter_map(|(i, change)| {
                let matched: Vec<Match> = change
                    .paths()
                    .filter_map(|path| {
                        protecting_pattern(policy, change, path).map(|pattern| Match {
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
                protected_at[i] = !matched.is_empty();
                (!matched.is_empty()).then(|| Protected {
                    status: change.status,
                    old_path: change.old_path.clone(),
                    new_path: change.new_path.clone(),
                    matched,
                    submodule: change.is_gitlink().then(|| Submodule {
                        old: change
                            .old_id
                            .filter(|_| change.old_is_gitlink())
                            .map(|id| id.to_string()),
                        new: change
                            .new_id
                            .filter(|_| change.new_is_gitlink())
                            .map(|id| id.to_string()),
                    }),
                })
            })
            .collect();
        let needed = needed_blobs(changes, &protected_at, rules);
        blobs.ensure_readable(&needed)?;
        too_large_to_analyse(changes, rules, blobs)?;
        let mut findings = if config.weakening.enabled {
            analysis(changes, rules, blobs)
        } else {
            Vec::new()
        };
        for finding in &mut findings {
            finding.blocking = config.blocks(finding.kind);
        }
        // `[protect] additions = "allow"`: a test file that only gains tests and checks
        // passes without a reason, even on a protected path (never guard.toml, the
        // signers file, runner configuration, conftest or fixtures: the analyser says
        // which files qualify).
        let mut strengthened = Vec::new();
        let protected = if config.protect.additions == crate::config::Additions::Allow {
            let mut kept = Vec::with_capacity(protected.len());
            for p in protected {
                let change = changes.iter().find(|c| {
                    c.new_path == p.new_path && c.old_path == p.old_path && c.status == p.status
                });
                let always = p.matched.iter().any(|m| {
                    m.pattern == crate::policy::ALWAYS
                        || m.pattern == crate::policy::SIGNERS
                        || m.reason.is_some()
                });
                match change {
                    Some(c)
                        if !always
                            && !findings
                                .iter()
                                .any(|f| Some(&f.path) == c.new_path.as_ref())
                            && weakening::is_strengthening(c, config, blobs) =>
                    {
                        strengthened.push(c.path().to_vec());
                    }
                    _ => kept.push(p),
                }
            }
            kept
        } else {
            protected
        };
        let mut report = Report {
            files_changed: changes.len(),
            protected,
            findings,
            required: Vec::new(),
            strengthened,
        };
        let paths = report.approval_paths();
        report.required = changes
            .iter()
            .flat_map(Change::blob_changes)
            .filter(|c| paths.binary_search(&c.path).is_ok())
            .collect();
        report.required.sort();
        Ok(report)
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

/// The pattern protecting `path` of `change`. A submodule (gitlink) is matched as the
/// directory it is: a gitlink at `tests` is protected by `tests/**`, as its files would be.
fn protecting_pattern<'p>(policy: &'p Policy, change: &Change, path: &[u8]) -> Option<&'p str> {
    let gitlink = (change.old_path.as_deref() == Some(path) && change.old_is_gitlink())
        || (change.new_path.as_deref() == Some(path) && change.new_is_gitlink());
    if gitlink {
        policy.protecting_pattern_of_dir(path)
    } else {
        policy.protecting_pattern(path)
    }
}

/// Every blob the verdict depends on, with the path it is read for: both sides of each
/// protected change (`protected_at[i]`: change `i` is), and each blob the weakening
/// analyser will read (its own conditions, restated: a changed file in a known language
/// that is test code by path or protected, or whose language keeps tests inline).
/// A test file the analyser would read but that is larger than it reads is an error
/// (exit 2), never a silent pass.
fn too_large_to_analyse(
    changes: &[Change],
    rules: &Rules,
    blobs: &dyn Blobs,
) -> anyhow::Result<()> {
    if !rules.config.weakening.enabled {
        return Ok(());
    }
    for change in changes {
        let analysed = change.paths().any(|p| Language::of_path(p).is_some())
            && change
                .paths()
                .any(|p| is_test_path(p) || rules.paths.is_protected(p));
        if !analysed {
            continue;
        }
        for (id, path) in change.blobs() {
            if let Some(size) = blobs.size(id)
                && size > weakening::MAX_ANALYSED_BYTES
            {
                return Err(crate::exit::hinted(
                    format!(
                        "{} is {} MiB, larger than the {} MiB the weakening analysis reads (object {id})",
                        crate::paths::quote_path(path),
                        size >> 20,
                        weakening::MAX_ANALYSED_BYTES >> 20
                    ),
                    "split the file, or move generated data out of test code; git-guard blocks rather than pass a test file unread",
                ));
            }
        }
    }
    Ok(())
}

/// The weakening and runner findings of a set of changes.
///
/// A merge's change against the second parent's side of a conflict is judged on its
/// own, less what the first parent's own change of that file since the merge base does
/// too: that was judged in the first parent's own commits (a branch that deleted a test
/// main later edited keeps it deleted, and that is not the merge's doing).
fn analysis(changes: &[Change], rules: &Rules, blobs: &dyn Blobs) -> Vec<Finding> {
    let (config, policy) = (&rules.config, &rules.paths);
    let of = |changes: &[Change]| {
        let mut findings = weakening::findings(changes, policy, config, blobs);
        findings.extend(runner::build_findings(changes, blobs));
        findings
    };
    // (Only a merge's conflicted files have a second side: every other change set,
    // the commit hook's among them, is judged as it is, nothing copied.)
    if changes.iter().all(|c| c.first_parents_own.is_none()) {
        return of(changes);
    }
    let (sides, mut plain): (Vec<Change>, Vec<Change>) = changes
        .iter()
        .cloned()
        .partition(|c| c.first_parents_own.is_some());
    let mut findings = of(&plain);
    for side in sides {
        let own_change = side.first_parents_own_change();
        let own = own_change
            .as_ref()
            .map_or_else(Vec::new, |own| of(std::slice::from_ref(own)));
        // Judged beside the merge's other changes, so a test moved to another file is
        // still a move.
        let lost = removed_tests(&side, config, blobs);
        let path = side.path().to_vec();
        plain.push(side);
        for finding in of(&plain) {
            let its_own = finding.path == path && made_by(&own, &lost, &finding);
            if !its_own && !findings.contains(&finding) {
                findings.push(finding);
            }
        }
        plain.pop();
    }
    findings
}

/// The tests in a change's old content that its new content no longer has, by name.
fn removed_tests(
    change: &Change,
    config: &crate::config::Config,
    blobs: &dyn Blobs,
) -> Vec<String> {
    let names = |id: Option<Oid>| {
        id.and_then(|id| blobs.blob(id))
            .map(|text| weakening::test_names(change.path(), &text, config))
            .unwrap_or_default()
    };
    let after = names(change.new_id);
    let mut removed = names(change.old_id);
    removed.retain(|name| !after.contains(name));
    removed
}

/// Whether the first parent's own change (its findings, `own`) already makes `finding`,
/// one of the merge's findings against the second parent's side, which loses the tests
/// `lost` (by name).
///
/// A test lost, or the checks that went with it, is the first parent's when its own
/// change reported every one of `lost` removed (findings group removed tests, so they
/// are judged by the names lost, not the one a finding shows; a test the branch renamed
/// without a finding is not excused, so main's checks added to it still count). Any
/// other finding is its when it makes one of the same kind naming the same tests
/// (counts and lines may differ).
fn made_by(own: &[Finding], lost: &[String], finding: &Finding) -> bool {
    let names = |f: &Finding| -> Vec<String> {
        let quoted = f.detail.split('`').skip(1).step_by(2).map(str::to_string);
        quoted.chain(f.test.clone()).collect()
    };
    // The same test, perhaps qualified by fewer enclosing suites on one side (a merged
    // side's text can nest differently), never by its own name alone (`'parses'` is not
    // `'strict' > 'parses'`).
    let same = |a: &str, b: &str| {
        let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        long == short
            || short.contains(" > ")
                && long
                    .strip_suffix(short)
                    .is_some_and(|head| head.ends_with(" > "))
    };
    let named = names(finding);
    let about_lost = matches!(
        finding.kind,
        FindingKind::TestRemoved | FindingKind::AssertionsRemoved
    ) && !named.is_empty()
        && named.iter().all(|n| lost.iter().any(|l| same(l, n)));
    if about_lost {
        let removed: Vec<String> = own
            .iter()
            .filter(|o| o.kind == FindingKind::TestRemoved)
            .flat_map(names)
            .collect();
        return lost.iter().all(|l| removed.iter().any(|r| same(r, l)));
    }
    // Checks lost from one test: the merge may not lose more of them than the branch
    // itself did (main's checks added to a test the branch weakened still count).
    if let Some(lost_here) = checks_lost(&finding.detail) {
        return own.iter().any(|o| {
            o.kind == finding.kind
                && checks_lost(&o.detail).is_some_and(|n| n >= lost_here)
                && named.iter().all(|n| names(o).iter().any(|m| same(m, n)))
        });
    }
    let own_names: Vec<String> = own.iter().flat_map(names).collect();
    own.iter().any(|o| o.kind == finding.kind)
        && named.iter().all(|n| own_names.iter().any(|o| same(o, n)))
}

/// How many checks a finding's "N checks before, M after" says were lost.
fn checks_lost(detail: &str) -> Option<usize> {
    let (head, tail) = detail.split_once(" checks before, ")?;
    let before: usize = head.rsplit(' ').next()?.parse().ok()?;
    let after: usize = tail.split(' ').next()?.parse().ok()?;
    Some(before.saturating_sub(after))
}

fn needed_blobs<'c>(
    changes: &'c [Change],
    protected_at: &[bool],
    rules: &Rules,
) -> Vec<(Oid, &'c [u8])> {
    let analysed = |change: &Change, protected: bool| {
        if !rules.config.weakening.enabled
            || change.old_id.is_none()
            || change.new_id == change.old_id
        {
            return false;
        }
        let Some(language) = change.paths().find_map(Language::of_path) else {
            return false;
        };
        protected || !language.inline_test_markers().is_empty() || change.paths().any(is_test_path)
    };
    changes
        .iter()
        .zip(protected_at)
        .filter(|(c, protected)| **protected || analysed(c, **protected))
        .flat_map(|(c, _)| c.blobs())
        .collect()
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
            ..Change::default()
        }
    }

    fn evaluate(changes: &[Change]) -> Report {
        Report::evaluate(changes, &Rules::defaults(), &crate::changes::NoBlobs).unwrap()
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
        let r = Report::evaluate(&changes, &rules(config), &crate::changes::NoBlobs).unwrap();
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
                .unwrap()
                .findings
                .is_empty()
        );
    }
}
