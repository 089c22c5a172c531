//! Gathers what a verdict needs: the changes, the policy in force, and the approvals.
//!
//! The hooks, `check` and `allow` all come through here, so they cannot disagree.

use git2::{Commit, Oid};

use crate::changes;
use crate::check::Report;
use crate::config::Config;
use crate::notes::{self, Approval};
use crate::policy::Policy;
use crate::render::{Checked, Verdict};
use crate::repo::{PolicySource, Repo, short_id};
use crate::{approval, exit::hinted};

/// The staged change, judged.
pub struct Staged {
    /// The policy in force (the one at HEAD).
    pub config: Config,
    /// Where it came from.
    pub source: PolicySource,
    /// What the change does.
    pub report: Report,
    /// The tree the index would commit; only computed when an approval is needed.
    pub tree: Option<Oid>,
    /// The approval pending for that exact tree, when it covers the change.
    pub pending: Option<Approval>,
}

impl Staged {
    /// Whether the change may be committed without asking anyone.
    pub fn is_allowed(&self) -> bool {
        !self.report.needs_approval() || self.pending.is_some()
    }
}

/// Judges the staged change. `None` when nothing is staged at all (the fast path).
pub fn staged(repo: &Repo) -> anyhow::Result<Option<Staged>> {
    let changes = changes::staged(repo)?;
    if changes.is_empty() {
        return Ok(None);
    }
    let (config, source) = repo.policy()?;
    let policy = Policy::new(&config.protect.paths)?;
    let report = Report::evaluate(&changes, &config, &policy);
    let (tree, pending) = if report.needs_approval() {
        let tree = repo.index_tree()?;
        let pending = approval::load(repo, tree)?.filter(|a| {
            notes::covers(
                std::slice::from_ref(a),
                &report.approval_paths(),
                config.approval.min_reason_chars,
            )
        });
        (Some(tree), pending)
    } else {
        (None, None)
    };
    Ok(Some(Staged {
        config,
        source,
        report,
        tree,
        pending,
    }))
}

/// Judges one commit against its first parent, with the given policy and its notes.
pub fn commit(
    repo: &Repo,
    commit: &Commit<'_>,
    config: &Config,
    policy: &Policy,
) -> anyhow::Result<Checked> {
    let changes = changes::of_commit(repo, commit)?;
    let report = Report::evaluate(&changes, config, policy);
    let approval_paths = report.approval_paths();
    let approvals = if report.needs_approval() {
        notes::approvals(repo, &config.approval.notes_ref, commit.id())?
    } else {
        Vec::new()
    };
    let verdict = if !report.needs_approval() {
        Verdict::Clean
    } else if notes::covers(
        &approvals,
        &approval_paths,
        config.approval.min_reason_chars,
    ) {
        Verdict::Approved
    } else {
        Verdict::NeedsApproval
    };
    Ok(Checked {
        target: short_id(commit.id()),
        subject: Some(crate::repo::subject(commit)),
        verdict,
        report,
        approval_paths,
        approvals: approvals.iter().map(Into::into).collect(),
    })
}

/// The commits of `range` (`A..B`, or one revision meaning all its history), oldest first.
pub fn commits_in<'r>(repo: &'r Repo, range: &str) -> anyhow::Result<Vec<Commit<'r>>> {
    let bad = |e: git2::Error| {
        hinted(
            format!("bad range `{range}`: {}", e.message()),
            "give a range such as main..HEAD, or a single revision",
        )
    };
    let mut walk = repo.git.revwalk().map_err(bad)?;
    if range.contains("..") {
        walk.push_range(range).map_err(bad)?;
    } else {
        walk.push(repo.commit(range)?.id()).map_err(bad)?;
    }
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .map_err(bad)?;
    walk.map(|id| {
        let id = id.map_err(bad)?;
        repo.git.find_commit(id).map_err(bad)
    })
    .collect()
}
