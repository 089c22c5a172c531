//! Judging: the changes, the policy in force and the approvals found → a [`Checked`].
//!
//! The hooks, `check`, `allow`, `override` and `ci` all come through here, so they cannot
//! disagree: one staged judge, one commit judge, one range judge, and the one place
//! that builds an approval.

use git2::{Commit, Oid};

use crate::changes::{self, Change};
use crate::exit::hinted;
use crate::ledger;
use crate::note_store::NoteStore;
use crate::notes::{self, Approval, Via};
use crate::pending;
use crate::policy::Rules;
use crate::repo::{Repo, short_id};
use crate::report::Report;
use crate::verdict::{ApprovedBy, Checked, Verdict};

/// The staged change, judged.
pub struct Staged {
    /// The policy in force (the one at HEAD).
    pub rules: Rules,
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
    /// Records a human's approval of exactly this staged change (`via`: prompt or
    /// allow), counting the blocked attempts that preceded it; returns the tree it is
    /// bound to.
    pub fn approve(&self, repo: &Repo, reason: &str, via: Via) -> anyhow::Result<Oid> {
        let blocked = ledger::blocked_attempts_for_diff(repo, &self.fingerprint);
        // The patch id is known once committed: post-commit adds it.
        let approval = approval(repo, &self.report, reason, via, None, blocked);
        let tree = self.tree(repo)?;
        pending::save(repo, tree, &approval)?;
        Ok(tree)
    }

    /// The tree the index would commit (computed now if it was not needed before).
    pub fn tree(&self, repo: &Repo) -> anyhow::Result<Oid> {
        match self.tree {
            Some(tree) => Ok(tree),
            None => repo.index_tree(),
        }
    }

    /// The staged change as one checked unit, for `check`.
    pub fn checked(self) -> Checked {
        let mut checked = Checked::new("staged".into(), None, self.report);
        if let Some(pending) = &self.pending
            && checked.verdict == Verdict::NeedsApproval
        {
            checked.verdict = Verdict::Approved(ApprovedBy::Note);
            checked.approvals.push(pending.into());
        }
        checked
    }
}

/// Judges the staged change. `None` when nothing is staged at all (the fast path).
pub fn staged(repo: &Repo) -> anyhow::Result<Option<Staged>> {
    repo.work_tree()?;
    let changes = changes::staged(repo)?;
    if changes.is_empty() {
        return Ok(None);
    }
    let rules = Rules::load(repo)?;
    let report = Report::evaluate(&changes, &rules, repo)?;
    let head = repo.head_commit()?.map(|c| c.id());
    let fingerprint = changes::fingerprint(head, &changes);
    // Writing the index as a tree costs a pass over it: only when an approval could be
    // waiting for it.
    let (tree, pending) = if report.needs_approval() && pending::any(repo) {
        let tree = repo.index_tree()?;
        let pending = pending::load(repo, tree)?.filter(|a| {
            notes::covers(
                std::slice::from_ref(a),
                &report.approval_paths(),
                rules.config.approval.min_reason_chars,
            )
        });
        (Some(tree), pending)
    } else {
        (None, None)
    };
    Ok(Some(Staged {
        rules,
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
    rules: &Rules,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<Checked> {
    let changes = changes::of_commit(repo, commit)?;
    judge(repo, commit, &changes, rules, approvers)
}

/// The commits of a range, as a value: what to include and what to leave out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revs {
    /// The tip whose history is judged.
    pub include: Oid,
    /// Commits whose history is left out (the base, what the remote has).
    pub exclude: Vec<Oid>,
    /// A remote whose every remote-tracking ref is left out (a push of a new branch).
    pub exclude_remote: Option<String>,
}

impl Revs {
    /// The history of `include` that is not in `exclude`.
    pub fn between(exclude: Option<Oid>, include: Oid) -> Revs {
        Revs {
            include,
            exclude: exclude.into_iter().collect(),
            exclude_remote: None,
        }
    }

    /// The arguments that make `git log` list exactly these commits.
    pub fn log_args(&self) -> Vec<String> {
        let mut args = vec![self.include.to_string()];
        args.extend(self.exclude.iter().map(|id| format!("^{id}")));
        if let Some(remote) = &self.exclude_remote {
            args.extend(["--not".to_string(), format!("--remotes={remote}")]);
        }
        args
    }

    /// The commit ids, oldest first (topological), as a revision walk lists them.
    pub fn walk(&self, repo: &Repo) -> anyhow::Result<Vec<Oid>> {
        use anyhow::Context;
        let mut walk = repo.git.revwalk()?;
        walk.push(self.include)
            .with_context(|| format!("the commit {} is not in this repository", self.include))?;
        for id in &self.exclude {
            walk.hide(*id)?;
        }
        if let Some(remote) = &self.exclude_remote {
            walk.hide_glob(&format!("refs/remotes/{remote}/*"))?;
        }
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        walk.collect::<Result<Vec<_>, _>>()
            .context("listing the commits of a range")
    }
}

/// Judges every commit of `revs`, oldest first: the one range judge that pre-push,
/// `ci` and `check --range` share.
pub fn range(
    repo: &Repo,
    revs: &Revs,
    rules: &Rules,
    approvers: &Approvers<'_, '_>,
    progress: &dyn Fn(usize, usize),
) -> anyhow::Result<Vec<(Oid, Checked)>> {
    // The total is known up front only from a walk; it is cheap next to the diffs.
    let total = revs.walk(repo)?.len();
    let mut judged = Vec::with_capacity(total);
    changes::stream_range(repo, &revs.log_args(), &mut |id, changes| {
        let commit = repo.git.find_commit(id)?;
        judged.push((id, judge(repo, &commit, &changes, rules, approvers)?));
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
    changes: &[Change],
    rules: &Rules,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<Checked> {
    let report = Report::evaluate(changes, rules, repo)?;
    let mut checked = Checked::new(
        short_id(commit.id()),
        Some(crate::repo::subject(commit)),
        report,
    );
    if checked.verdict == Verdict::Clean {
        return Ok(checked);
    }
    let min = rules.config.approval.min_reason_chars;
    let own = approvers.notes.approvals(commit.id())?;
    checked.approvals = own.iter().map(Into::into).collect();
    if notes::covers(&own, &checked.approval_paths, min) {
        checked.verdict = Verdict::Approved(ApprovedBy::Note);
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
            checked.verdict = Verdict::Approved(ApprovedBy::PatchId {
                original: short_id(*original),
            });
            checked.approvals.push(approval.into());
            return Ok(checked);
        }
    }
    Ok(finish_unapproved(checked, approvers.label))
}

/// No note approves the commit: the label does, or it needs approval.
fn finish_unapproved(mut checked: Checked, label: Option<&str>) -> Checked {
    if let Some(label) = label {
        checked.verdict = Verdict::Approved(ApprovedBy::Label(label.to_string()));
    }
    checked
}

/// The one place an approval block is built: who is at the keyboard, now, and what the
/// report says needs approving.
pub fn approval(
    repo: &Repo,
    report: &Report,
    reason: &str,
    via: Via,
    patch_id: Option<String>,
    blocked_attempts: Option<u32>,
) -> Approval {
    Approval {
        reason: notes::one_line(reason),
        by: repo.identity(),
        at: notes::now(),
        via,
        paths: report.approval_paths(),
        findings: report.finding_labels(),
        patch_id,
        blocked_attempts,
    }
}

/// An approval of `commit`'s change, made now.
pub fn approval_for_commit(
    repo: &Repo,
    commit: &Commit<'_>,
    report: &Report,
    reason: &str,
    via: Via,
) -> anyhow::Result<Approval> {
    let patch_id = changes::patch_id(repo, commit, &[])?;
    let blocked = ledger::blocked_attempts_for_commit(repo, &commit.id().to_string());
    Ok(approval(repo, report, reason, via, Some(patch_id), blocked))
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
