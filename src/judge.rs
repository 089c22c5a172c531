//! Judging: the changes, the policy in force and the approvals found → a [`Checked`].
//!
//! The hooks, `check`, `allow`, `override` and `ci` all come through here, so they cannot
//! disagree: one staged judge, one commit judge, one range judge, and the one place
//! that builds an approval.

use anyhow::Context;
use git2::{Commit, Oid};

use crate::changes::{self, BlobChange, Change};
use crate::exit::hinted;
use crate::ledger;
use crate::note_store::NoteStore;
use crate::notes::{self, Approval, Via};
use crate::pending;
use crate::policy::Rules;
use crate::repo::{Repo, short_id};
use crate::report::Report;
use crate::reports::{self, ReportSet};
use crate::signature::{Trust, Verifier};
use crate::verdict::{ApprovalProblem, ApprovalView, ApprovedBy, Checked, TestsChecked, Verdict};

/// The staged change, judged.
pub struct Staged {
    /// The policy in force (the one at HEAD).
    pub rules: Rules,
    /// What the change does.
    pub report: Report,
    /// A hash of HEAD and the staged diff: the ledger's name for this exact change.
    pub fingerprint: String,
    /// The approval pending for exactly this change, when there is one and it covers it.
    pub pending: Option<Approval>,
}

impl Staged {
    /// Records a human's approval of exactly this staged change (`via`: prompt or
    /// allow), counting the blocked attempts that preceded it; returns the key it is
    /// stored under (a hash of the changes it names).
    pub fn approve(&self, repo: &Repo, reason: &str, via: Via) -> anyhow::Result<String> {
        let blocked = ledger::blocked_attempts_for_diff(repo, &self.fingerprint);
        // The patch id is known once committed, and is information only: none here.
        let approval = approval(repo, &self.report, reason, via, None, blocked);
        let block = crate::signature::seal(repo, &self.rules, &approval)?;
        pending::save(repo, &self.report.required, &block)?;
        Ok(pending::key(&self.report.required))
    }

    /// The staged change as one checked unit, for `check`.
    pub fn checked(self) -> Checked {
        let mut checked = Checked::new("staged".into(), None, self.report);
        if let Some(pending) = &self.pending
            && checked.verdict == Verdict::NeedsApproval
        {
            checked.verdict = Verdict::Approved(ApprovedBy::Note);
            let trust = Verifier::new(&self.rules).trust(pending);
            checked.approvals.push(ApprovalView::new(pending, trust));
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
    let staged_policy = staged_policy(repo, &changes)?;
    let rules = match Rules::load(repo) {
        Ok(rules) => rules,
        // HEAD's policy is broken: the commit that repairs it is judged under the
        // defaults (guard.toml is always protected, so a human still approves it).
        Err(_) if staged_policy.is_some() => Rules::defaults(),
        Err(e) => {
            return Err(hinted(
                format!(
                    "the policy committed at HEAD is invalid, so no commit can be judged: {e:#}"
                ),
                "fix guard.toml, stage it and commit: a commit that makes the policy valid again is \
                 judged under the defaults (a human approves it at the prompt)",
            ));
        }
    };
    let report = Report::evaluate(&changes, &rules, repo)?;
    let head = repo.head_commit()?.map(|c| c.id());
    let fingerprint = changes::fingerprint(head, &changes);
    let pending = if report.needs_approval() && pending::any(repo) {
        let min = rules.config.approval.min_reason_chars;
        let verifier = Verifier::new(&rules);
        // A pending file is as forgeable as a note: it counts only as its signature does.
        pending::load(repo, &report.required)?
            .map(|(_, approval)| approval)
            .filter(|a| verifier.counts(&verifier.trust(a)))
            .filter(|a| notes::covers(std::slice::from_ref(a), &report.required, min))
    } else {
        None
    };
    Ok(Some(Staged {
        rules,
        report,
        fingerprint,
        pending,
    }))
}

/// The staged `guard.toml`, validated: an invalid new policy is refused before it is
/// approved or committed (once committed, it would lock everyone out). `None` when the
/// change does not stage a `guard.toml`.
fn staged_policy(repo: &Repo, changes: &[Change]) -> anyhow::Result<Option<Rules>> {
    let name = crate::config::FILE_NAME.as_bytes();
    let Some(id) = changes
        .iter()
        .find(|c| c.new_path.as_deref() == Some(name))
        .and_then(|c| c.new_id)
    else {
        return Ok(None);
    };
    let blob = repo
        .git
        .find_blob(id)
        .with_context(|| format!("reading the staged guard.toml ({id})"))?;
    let origin = "guard.toml (staged)";
    Rules::parse(
        blob.content(),
        origin,
        crate::policy::PolicySource::WorkTree,
    )
    .map(Some)
    .map_err(|e| {
        hinted(
            format!(
                "the staged guard.toml is invalid and would lock every later commit out: {e:#}"
            ),
            "fix that line, `git add guard.toml`, and commit again",
        )
    })
}

/// How a commit's approval is looked for.
pub struct Approvers<'a, 'r> {
    /// The notes to read.
    pub notes: &'a NoteStore<'r>,
    /// The override label, when the PR/MR carries it (CI only).
    pub label: Option<&'a str>,
    /// What the range builds on (CI's base, what the remote has): an approval on a
    /// commit reachable from here is history and is not carried to another commit.
    pub base: Option<Oid>,
    /// Checks each approval's signature against the signers of the policy in force.
    pub verifier: &'a Verifier,
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

/// The commits of a range, judged.
#[derive(Debug, Default)]
pub struct Judged {
    /// Each judged commit, oldest first.
    pub commits: Vec<(Oid, Checked)>,
    /// Commits from before the repository adopted git-guard, which are not judged.
    pub before_adoption: usize,
}

/// Judges every commit of `revs`, oldest first: the one range judge that pre-push,
/// `ci` and `check --range` share. History from before git-guard was adopted is not
/// judged (see [`before_adoption`]).
pub fn range(
    repo: &Repo,
    revs: &Revs,
    rules: &Rules,
    approvers: &Approvers<'_, '_>,
    progress: &dyn Fn(usize, usize),
) -> anyhow::Result<Judged> {
    // The walk gives the total up front; it is cheap next to the diffs.
    let ids = revs.walk(repo)?;
    // Only a walk with no base (a new branch pushed to a new remote, a whole history)
    // can reach history from before adoption; a range with a base (CI, a push onto a
    // known remote branch) is new work under the base's policy, every commit of it, so
    // an orphan chain without guard.toml cannot exempt itself.
    let skip = if revs.exclude.is_empty() {
        before_adoption(repo, revs.include, &ids)?
    } else {
        Default::default()
    };
    let total = ids.len() - skip.len();
    let mut judged = Vec::with_capacity(total);
    changes::stream_range(repo, &revs.log_args(), &mut |id, changes| {
        if skip.contains(&id) {
            return Ok(());
        }
        let commit = repo.git.find_commit(id)?;
        judged.push((id, judge(repo, &commit, &changes, rules, approvers)?));
        progress(judged.len(), total);
        Ok(())
    })?;
    judged.reverse(); // oldest first
    Ok(Judged {
        commits: judged,
        before_adoption: skip.len(),
    })
}

/// Of `ids` (oldest first), the commits from before the repository adopted git-guard:
/// when the tip commits a `guard.toml`, a commit is judged only if its first parent
/// has one or was itself judged, so a push of a project's old history to a new remote
/// (a fork) judges only what came after adoption — and a branch that deletes
/// `guard.toml` on the way is still judged throughout. Without `guard.toml` at the tip
/// (the defaults apply), everything is judged.
pub fn before_adoption(
    repo: &Repo,
    tip: Oid,
    ids: &[Oid],
) -> anyhow::Result<std::collections::HashSet<Oid>> {
    let mut skip = std::collections::HashSet::new();
    let tip = repo.git.find_commit(tip)?;
    if repo.blob_at(&tip, crate::config::FILE_NAME)?.is_none() {
        return Ok(skip);
    }
    let has_policy = |id: Oid| -> anyhow::Result<bool> {
        let commit = repo.git.find_commit(id)?;
        Ok(commit.tree()?.get_name(crate::config::FILE_NAME).is_some())
    };
    let in_range: std::collections::HashSet<Oid> = ids.iter().copied().collect();
    for &id in ids {
        let commit = repo.git.find_commit(id)?;
        let adopted = match commit.parent_id(0) {
            Err(_) => false,
            Ok(parent) if in_range.contains(&parent) => {
                !skip.contains(&parent) || has_policy(parent)?
            }
            Ok(parent) => has_policy(parent)?,
        };
        if !adopted {
            skip.insert(id);
        }
    }
    Ok(skip)
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
    checked.id = Some(commit.id().to_string());
    if checked.verdict == Verdict::Clean {
        return Ok(checked);
    }
    let min = rules.config.approval.min_reason_chars;
    let required = &checked.report.required;
    let verifier = approvers.verifier;
    let own = approvers.notes.approvals(commit.id())?;
    let trusts: Vec<Trust> = own.iter().map(|a| verifier.trust(a)).collect();
    checked.approvals = own
        .iter()
        .zip(&trusts)
        .map(|(a, t)| ApprovalView::new(a, t.clone()))
        .collect();
    let counting: Vec<Approval> = own
        .iter()
        .zip(&trusts)
        .filter(|(_, t)| verifier.counts(t))
        .map(|(a, _)| a.clone())
        .collect();
    if notes::covers(&counting, required, min) {
        checked.verdict = Verdict::Approved(ApprovedBy::Note);
        return Ok(checked);
    }
    checked.problems = problems(&own, &trusts, verifier, required, min);
    if let Some((original, approval)) = transferred(repo, commit, required, min, approvers)? {
        checked.verdict = Verdict::Approved(ApprovedBy::PatchId {
            original: original.to_string(),
        });
        let trust = verifier.trust(&approval);
        checked.approvals.push(ApprovalView::new(&approval, trust));
        checked.problems.clear();
        return Ok(checked);
    }
    Ok(finish_unapproved(checked, approvers.label))
}

/// Why the approvals on a commit do not cover it, for the report.
fn problems(
    own: &[Approval],
    trusts: &[Trust],
    verifier: &Verifier,
    required: &[BlobChange],
    min: usize,
) -> Vec<ApprovalProblem> {
    let mut problems: Vec<ApprovalProblem> = own
        .iter()
        .zip(trusts)
        .filter_map(|(a, trust)| {
            if !verifier.counts(trust) {
                Some(ApprovalProblem::Signature(trust.code()))
            } else if !a.reason_is_long_enough(min) {
                Some(ApprovalProblem::ReasonTooShort)
            } else if notes::is_stale(a, required) {
                Some(ApprovalProblem::Stale)
            } else {
                None
            }
        })
        .collect();
    problems.sort();
    problems.dedup();
    problems
}

/// An approval of exactly this change on another commit (rebased or cherry-picked
/// without `notes.rewriteRef`). It counts only from a commit that is not in the history
/// this one builds on, nor in the base's: a change approved, reverted and replayed
/// needs a new approval.
fn transferred(
    repo: &Repo,
    commit: &Commit<'_>,
    required: &[BlobChange],
    min: usize,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<Option<(Oid, Approval)>> {
    let Some(first) = required.first() else {
        return Ok(None);
    };
    let parent = commit.parent_id(0).ok();
    let reachable = |from: Option<Oid>, other: Oid| -> bool {
        from.is_some_and(|from| {
            from == other || repo.git.graph_descendant_of(from, other).unwrap_or(true)
        })
    };
    for (original, approval) in approvers.notes.naming(first)? {
        if *original == commit.id()
            || !approvers
                .verifier
                .counts(&approvers.verifier.trust(approval))
            || !notes::covers(std::slice::from_ref(approval), required, min)
            || reachable(parent, *original)
            || reachable(approvers.base, *original)
        {
            continue;
        }
        return Ok(Some((*original, approval.clone())));
    }
    Ok(None)
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
        changes: report.required.clone(),
        tests: Vec::new(),
        patch_id,
        blocked_attempts,
        signature: None,
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

/// The test reports of a range, judged: the base's and the head's reports compared,
/// with the approvals on the range's commits (`range`, as [`range`] listed them) that
/// name test ids, and the label.
///
/// An approval counts when its reason is long enough and it is attached to a commit of
/// the range: one on history the base already has (an earlier pull request's) does not
/// carry over. It approves exactly the ids its `Guard-Tests` lines name.
pub fn tests(
    repo: &Repo,
    sides: (&ReportSet, &ReportSet),
    root: &std::path::Path,
    range: &[Oid],
    (base, head): (Option<Oid>, Oid),
    rules: &Rules,
    approvers: &Approvers<'_, '_>,
) -> anyhow::Result<TestsChecked> {
    let (base_set, head_set) = sides;
    let comparison = reports::compare(base_set, head_set);
    let min = rules.config.approval.min_reason_chars;
    let mut found: Vec<Approval> = Vec::new();
    for id in range {
        for approval in approvers.notes.approvals(*id)? {
            // Test approvals are signed and verified like any other approval.
            if !approval.tests.is_empty()
                && approval.reason_is_long_enough(min)
                && approvers
                    .verifier
                    .counts(&approvers.verifier.trust(&approval))
                && !found.contains(&approval)
            {
                found.push(approval);
            }
        }
    }
    let only =
        !comparison.vanished.is_empty() && only_tests_or_runner_config(repo, base, head, rules)?;
    let shown = |set: &ReportSet| -> Vec<String> {
        set.files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
            .collect()
    };
    let found: Vec<(Approval, Trust)> = found
        .into_iter()
        .map(|a| {
            let trust = approvers.verifier.trust(&a);
            (a, trust)
        })
        .collect();
    Ok(TestsChecked::new(
        comparison,
        (shown(base_set), shown(head_set)),
        &found,
        approvers.label.map(String::from),
        only,
    ))
}

/// Whether every path the range changes (from the merge base, renames as their two
/// sides) is protected, test code, or runner configuration.
fn only_tests_or_runner_config(
    repo: &Repo,
    base: Option<Oid>,
    head: Oid,
    rules: &Rules,
) -> anyhow::Result<bool> {
    let sides = match base {
        Some(base) => vec![format!("{base}...{head}")],
        None => vec![repo.empty_tree()?.to_string(), head.to_string()],
    };
    let mut args = vec!["diff", "--name-only", "-z", "--no-renames"];
    args.extend(sides.iter().map(String::as_str));
    args.push("--");
    // Unrelated histories have no merge base: then the range is not "only tests" (this
    // decides the order of the summary, never whether anything blocks).
    let Ok(names) = repo.run_git(&args) else {
        return Ok(false);
    };
    Ok(names.split(|b| *b == 0).filter(|p| !p.is_empty()).all(|p| {
        p == b"guard.toml"
            || rules.paths.is_protected(p)
            || crate::weakening::rules::is_test_path(p)
            || reports::is_runner_config(p)
    }))
}

/// An approval of exactly the named tests (`Guard-Tests`), made now: no paths, no
/// changes; it approves those ids in the test reports of a range holding the commit it
/// is attached to, and nothing else.
pub fn approval_of_tests(repo: &Repo, tests: Vec<String>, reason: &str, via: Via) -> Approval {
    Approval {
        reason: notes::one_line(reason),
        by: repo.identity(),
        at: notes::now(),
        via,
        tests,
        ..Approval::default()
    }
}
