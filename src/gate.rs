//! Gathers what a verdict needs: the changes, the policy in force, and the approvals.
//!
//! The hooks, `check` and `allow` all come through here, so they cannot disagree.

use git2::{Commit, Oid};

use crate::changes;
use crate::check::Report;
use crate::config::Config;
use crate::notes::{self, Approval, NoteStore};
use crate::policy::Policy;
use crate::render::{Checked, Verdict, Via};
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
    /// A hash of HEAD and the staged diff: the ledger's name for this exact change.
    pub fingerprint: String,
    /// The tree the index would commit, when it was needed to look for an approval.
    pub tree: Option<Oid>,
    /// The approval pending for that exact tree, when it covers the change.
    pub pending: Option<Approval>,
}

impl Staged {
    /// Records a human's approval of exactly this staged change (`via`: `prompt` or
    /// `allow`), counting the blocked attempts that preceded it; returns the tree it
    /// is bound to.
    pub fn approve(&self, repo: &Repo, reason: &str, via: &str) -> anyhow::Result<Oid> {
        let approval = Approval {
            reason: notes::one_line(reason),
            by: repo.identity(),
            at: notes::now(),
            via: via.into(),
            paths: self.report.approval_paths(),
            findings: self.report.finding_labels(),
            patch_id: None, // known once committed: post-commit adds it
            blocked_attempts: crate::ledger::blocked_attempts_for_diff(repo, &self.fingerprint),
        };
        let tree = self.tree(repo)?;
        approval::save(repo, tree, &approval)?;
        Ok(tree)
    }

    /// The tree the index would commit (computed now if it was not needed before).
    pub fn tree(&self, repo: &Repo) -> anyhow::Result<Oid> {
        match self.tree {
            Some(tree) => Ok(tree),
            None => repo.index_tree(),
        }
    }
}

/// Judges the staged change. `None` when nothing is staged at all (the fast path).
pub fn staged(repo: &Repo) -> anyhow::Result<Option<Staged>> {
    repo.work_tree()?;
    let changes = changes::staged(repo)?;
    if changes.is_empty() {
        return Ok(None);
    }
    let (config, source) = repo.policy()?;
    let policy = Policy::new(&config.protect.paths)?;
    let report = Report::evaluate(&changes, &config, &policy, repo);
    let head = repo.head_commit()?.map(|c| c.id());
    let fingerprint = changes::fingerprint(head, &changes);
    // Writing the index as a tree costs a pass over it: only when an approval could be
    // waiting for it.
    let (tree, pending) = if report.needs_approval() && approval::any_pending(repo) {
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
        fingerprint,
        tree,
        pending,
    }))
}

/// How a commit's approval is looked for.
pub struct Approvers<'a, 'r> {
    /// The notes to read.
    pub notes: &'a NoteStore<'r>,
    /// The override label, when the PR/MR carries it (CI only).
    pub label: Option<&'a str>,
}

/// Judges one commit (merge rule included) with the given policy and approvals.
pub fn commit(
    repo: &Repo,
    commit: &Commit<'_>,
    config: &Config,
    policy: &Policy,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<Checked> {
    let changes = changes::of_commit(repo, commit)?;
    judge(repo, commit, &changes, config, policy, approvers)
}

/// Judges every commit of a revision range (`["head", "^base"]`), oldest first.
pub fn range(
    repo: &Repo,
    revs: &[String],
    config: &Config,
    policy: &Policy,
    approvers: &Approvers<'_, '_>,
    progress: &dyn Fn(usize, usize),
) -> anyhow::Result<Vec<(Oid, Checked)>> {
    // The total is known up front only from a walk; it is cheap next to the diffs.
    let total = {
        let mut walk = repo.git.revwalk()?;
        for rev in revs {
            match rev.strip_prefix('^') {
                Some(hidden) => walk.hide(repo.commit(hidden)?.id())?,
                None => walk.push(repo.commit(rev)?.id())?,
            }
        }
        walk.count()
    };
    let mut judged = Vec::with_capacity(total);
    changes::stream_range(repo, revs, &mut |id, changes| {
        let commit = repo.git.find_commit(id)?;
        judged.push((
            id,
            judge(repo, &commit, &changes, config, policy, approvers)?,
        ));
        progress(judged.len(), total);
        Ok(())
    })?;
    judged.reverse(); // oldest first
    Ok(judged)
}

/// Judges a commit whose changes are already known.
pub fn judge(
    repo: &Repo,
    commit: &Commit<'_>,
    changes: &[changes::Change],
    config: &Config,
    policy: &Policy,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<Checked> {
    let report = Report::evaluate(changes, config, policy, repo);
    let approval_paths = report.approval_paths();
    let min = config.approval.min_reason_chars;
    let mut checked = Checked {
        target: short_id(commit.id()),
        subject: Some(crate::repo::subject(commit)),
        verdict: Verdict::Clean,
        approved_via: None,
        patch_id_of: None,
        report,
        approval_paths,
        approvals: Vec::new(),
    };
    if !checked.report.needs_approval() {
        return Ok(checked);
    }
    let own = approvers.notes.approvals(commit.id())?;
    checked.approvals = own.iter().map(Into::into).collect();
    if notes::covers(&own, &checked.approval_paths, min) {
        checked.verdict = Verdict::Approved;
        checked.approved_via = Some(Via::Note);
        return Ok(checked);
    }
    // A patch id costs a full diff with content: compute it only when some note
    // elsewhere carries a patch id and names every path this commit needs approved.
    if !approvers
        .notes
        .may_match_by_patch_id(&checked.approval_paths)?
    {
        return Ok(finish_unapproved(checked, approvers.label));
    }
    let patch_id = changes::patch_id(repo, commit, changes)?;
    for (original, approval) in approvers.notes.with_patch_id(&patch_id)? {
        if *original != commit.id()
            && notes::covers(std::slice::from_ref(approval), &checked.approval_paths, min)
        {
            checked.verdict = Verdict::Approved;
            checked.approved_via = Some(Via::PatchId);
            checked.patch_id_of = Some(short_id(*original));
            checked.approvals.push(approval.into());
            return Ok(checked);
        }
    }
    Ok(finish_unapproved(checked, approvers.label))
}

/// No note approves the commit: the label does, or it needs approval.
fn finish_unapproved(mut checked: Checked, label: Option<&str>) -> Checked {
    match label {
        Some(label) => {
            checked.verdict = Verdict::Approved;
            checked.approved_via = Some(Via::Label(label.to_string()));
        }
        None => checked.verdict = Verdict::NeedsApproval,
    }
    checked
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
