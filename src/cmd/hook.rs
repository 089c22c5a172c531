//! The entry points the installed hooks call: `git guard hook <name>`.
//!
//! pre-commit judges the index against HEAD and either lets the commit through, asks a
//! human on the terminal, or blocks with the next steps. post-commit turns the approval
//! for the committed tree into a note on the new commit.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

use anyhow::Context;
use git2::Oid;

use crate::changes::{self, BlobChange};
use crate::exit::Outcome;
use crate::judge::{self, Approvers, Revs};
use crate::ledger;
use crate::note_store::{self, NoteStore};
use crate::notes::Via;
use crate::paths::quote_path;
use crate::pending;
use crate::policy::Rules;
use crate::prompt::{self, Answer};
use crate::render;
use crate::repo::{Repo, short_id};
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::{Checked, Verdict};

/// pre-commit: judge the staged change against HEAD.
pub fn pre_commit(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    match judge::staged(repo)? {
        Some(staged) => judge_staged(repo, ui, staged, err),
        None => Ok(Outcome::Allowed),
    }
}

/// pre-push: reads git's ref lines from stdin; `args` are the remote's name and URL.
pub fn pre_push(
    repo: &Repo,
    ui: &Ui,
    args: &[String],
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading the ref lines git gives pre-push")?;
    let remote = args.first().map(String::as_str).unwrap_or("origin");
    judge_push(repo, ui, remote, &input, err)
}

/// The pre-commit framework's entry: its stage read off its environment.
pub fn framework(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    match framework_push(repo)? {
        Some((remote, line)) => judge_push(repo, ui, &remote, &line, err),
        None => match judge::staged(repo)? {
            Some(staged) => judge_staged(repo, ui, staged, err),
            None => post_commit(repo, ui, err),
        },
    }
}

/// pre-commit once something is staged: allow, ask on the terminal, or block.
fn judge_staged(
    repo: &Repo,
    ui: &Ui,
    staged: judge::Staged,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    render::verbose_staged(ui, err, &staged.report, &staged.rules.source)?;
    if !staged.report.needs_approval() {
        if !staged.report.findings.is_empty() {
            render::warnings(ui, err, &staged.report)?;
        }
        return Ok(Outcome::Allowed);
    }
    if let Some(pending) = &staged.pending {
        render::commit_approved(ui, err, pending)?;
        return Ok(Outcome::Allowed);
    }
    let approval = &staged.rules.config.approval;
    let Some(tty) = prompt::open_terminal() else {
        render::commit_blocked(ui, err, &staged.report, &staged.rules.source)?;
        record_commit_block(repo, &staged, false, err);
        return Ok(Outcome::Blocked);
    };
    let intro = render::prompt_intro(ui, &staged.report, &staged.rules.source);
    match prompt::ask_reason(
        ui,
        tty,
        &intro,
        render::REASON_PROMPT,
        approval.min_reason_chars,
    ) {
        Answer::Reason(reason) => {
            staged.approve(repo, &reason, Via::Prompt)?;
            Ok(Outcome::Allowed)
        }
        Answer::Aborted => {
            render::commit_aborted(err)?;
            record_commit_block(repo, &staged, true, err);
            Ok(Outcome::Blocked)
        }
    }
}

/// Appends a blocked commit to the ledger; a failure to record is a warning only.
fn record_commit_block(repo: &Repo, staged: &judge::Staged, terminal: bool, err: &mut dyn Write) {
    let entry = ledger::Entry {
        hook: Some("pre-commit".into()),
        terminal: Some(terminal),
        head: repo
            .head_commit()
            .ok()
            .flatten()
            .map(|c| c.id().to_string()),
        staged_diff: Some(staged.fingerprint.clone()),
        protected_changed: Some(
            staged
                .report
                .approval_paths()
                .iter()
                .map(|p| quote_path(p))
                .collect(),
        ),
        findings: Some(staged.report.finding_labels()),
        ..ledger::Entry::default()
    };
    if let Err(e) = ledger::record_block(repo, entry) {
        let _ = render::ledger_write_failed(err, &format!("{e:#}"));
    }
}

/// post-commit: the approval pending for the committed tree becomes a note on it.
pub fn post_commit(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    if !pending::any(repo) {
        return Ok(Outcome::Allowed);
    }
    let Some(head) = repo.head_commit()? else {
        return Ok(Outcome::Allowed);
    };
    let committed: Vec<BlobChange> = changes::of_commit(repo, &head)?
        .iter()
        .flat_map(changes::Change::blob_changes)
        .collect();
    let parent = head.parent(0).ok();
    let rules = Rules::load_for(repo, parent.as_ref())?;
    let notes_ref = &rules.config.approval.notes_ref;
    for (path, text, approval) in pending::all(repo)? {
        // The commit carries out exactly the approved change (coverage is judged again
        // wherever the note is read; this only decides where the note goes).
        if approval.changes.is_empty() || !approval.changes.iter().all(|c| committed.contains(c)) {
            continue;
        }
        note_store::append(repo, notes_ref, head.id(), &text)?;
        pending::remove(repo, &path)?;
        render::note_written(ui, err, &short_id(head.id()), notes_ref)?;
    }
    Ok(Outcome::Allowed)
}

/// One line of pre-push input: `<local ref> <local sha> <remote ref> <remote sha>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushLine {
    /// The local ref being pushed (`refs/heads/x`, or `(delete)`).
    pub local_ref: String,
    /// The commit being pushed; zero for a deletion.
    pub local: Oid,
    /// The ref on the remote.
    pub remote_ref: String,
    /// What the remote has now; zero for a new ref.
    pub remote: Oid,
}

/// Parses git's pre-push stdin; blank lines are skipped, anything else malformed is an error.
pub fn parse_push_lines(input: &str) -> anyhow::Result<Vec<PushLine>> {
    input
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let [local_ref, local, remote_ref, remote] = fields[..] else {
                anyhow::bail!("malformed pre-push line `{line}`: expected 4 fields");
            };
            let oid = |s: &str| {
                Oid::from_str(s)
                    .ok()
                    .filter(|_| s.len() >= 40)
                    .with_context(|| format!("malformed object id `{s}` in pre-push line `{line}`"))
            };
            Ok(PushLine {
                local_ref: local_ref.to_string(),
                local: oid(local)?,
                remote_ref: remote_ref.to_string(),
                remote: oid(remote)?,
            })
        })
        .collect()
}

/// pre-push: every outgoing commit needs a valid note when it changes protected paths.
fn judge_push(
    repo: &Repo,
    ui: &Ui,
    remote: &str,
    input: &str,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut before_adoption = 0;
    let outgoing = judge_outgoing(repo, remote, input, &mut before_adoption)?;
    render::not_judged_before_adoption(ui, err, before_adoption)?;
    let Some((rules, unapproved)) = outgoing else {
        return Ok(Outcome::Allowed);
    };
    let policy = &rules.config.approval;
    if !unapproved.is_empty() {
        let Some(tty) = prompt::open_terminal() else {
            let checked: Vec<&Checked> = unapproved.iter().map(|(_, c)| c).collect();
            render::push_blocked(ui, err, &checked)?;
            record_push_block(repo, &checked, &unapproved, err)?;
            return Ok(Outcome::Blocked);
        };
        for (id, checked) in &unapproved {
            let terminal = tty.try_clone().context("reusing the terminal")?;
            let intro = render::push_prompt_intro(ui, checked);
            let min = policy.min_reason_chars;
            match prompt::ask_reason(ui, terminal, &intro, render::REASON_PROMPT, min) {
                Answer::Reason(reason) => {
                    let commit = repo.git.find_commit(*id)?;
                    let approval = judge::approval_for_commit(
                        repo,
                        &commit,
                        &checked.report,
                        &reason,
                        Via::Prompt,
                    )?;
                    let block = crate::signature::seal(repo, &rules, &approval)?;
                    note_store::append(repo, &policy.notes_ref, *id, &block)?;
                    render::note_written(ui, err, &checked.target, &policy.notes_ref)?;
                }
                Answer::Aborted => {
                    render::push_aborted(err)?;
                    return Ok(Outcome::Blocked);
                }
            }
        }
    }
    if repo.git.find_reference(&policy.notes_ref).is_ok()
        && let Err(message) = note_store::push(repo, remote, &policy.notes_ref)
    {
        render::notes_push_failed(err, remote, &policy.notes_ref, &message)?;
    }
    Ok(Outcome::Allowed)
}

/// Outgoing commits that need an approval, with their verdicts.
type Unapproved = Vec<(Oid, Checked)>;

/// Every outgoing commit of the push, judged under the policy its range builds on;
/// returns that policy and the commits that need an approval (`None`: nothing to push).
fn judge_outgoing(
    repo: &Repo,
    remote: &str,
    input: &str,
    before_adoption: &mut usize,
) -> anyhow::Result<Option<(Rules, Unapproved)>> {
    let mut seen = HashSet::new();
    let mut unapproved: Vec<(Oid, Checked)> = Vec::new();
    let mut policy_in_force = None;
    for line in parse_push_lines(input)? {
        if line.local.is_zero() || line.local_ref.starts_with("refs/notes/") {
            continue;
        }
        let revs = outgoing(repo, remote, &line);
        let commits = revs.walk(repo)?;
        let Some(oldest) = commits.first() else {
            continue;
        };
        // The policy is the one the pushed range builds on: what the remote has, else
        // the parent of the oldest outgoing commit.
        let base = match repo.git.find_commit(line.remote) {
            Ok(known) => Some(known),
            Err(_) => repo.git.find_commit(*oldest)?.parent(0).ok(),
        };
        let rules = Rules::load_for(repo, base.as_ref())?;
        let store = NoteStore::new(
            repo,
            note_store::local_refs(&rules.config.approval.notes_ref),
        );
        let verifier = Verifier::new(&rules);
        let approvers = Approvers {
            notes: &store,
            label: None,
            base: base.as_ref().map(|b| b.id()),
            verifier: &verifier,
        };
        let judged = judge::range(repo, &revs, &rules, &approvers, &|_, _| {})?;
        *before_adoption += judged.before_adoption;
        let mut judged: HashMap<Oid, Checked> = judged.commits.into_iter().collect();
        // In the walk's order; commits from before adoption were not judged.
        for id in commits {
            if !seen.insert(id) {
                continue;
            }
            if let Some(checked) = judged.remove(&id)
                && checked.verdict == Verdict::NeedsApproval
            {
                unapproved.push((id, checked));
            }
        }
        policy_in_force.get_or_insert(rules);
    }
    Ok(policy_in_force.map(|rules| (rules, unapproved)))
}

/// Appends a blocked push to the ledger; a failure to record is a warning only.
fn record_push_block(
    repo: &Repo,
    checked: &[&Checked],
    unapproved: &[(Oid, Checked)],
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let entry = ledger::Entry {
        hook: Some("pre-push".into()),
        terminal: Some(false),
        commits: Some(unapproved.iter().map(|(id, _)| id.to_string()).collect()),
        findings: Some(
            checked
                .iter()
                .flat_map(|c| c.report.finding_labels())
                .collect(),
        ),
        ..ledger::Entry::default()
    };
    if let Err(e) = ledger::record_block(repo, entry) {
        render::ledger_write_failed(err, &format!("{e:#}"))?;
    }
    Ok(())
}

/// The push the pre-commit framework is checking, as a pre-push line, from its
/// environment; `None` outside its pre-push stage.
///
/// The framework passes one ref (the first with outgoing commits) and, for a ref new to
/// the remote, sets `FROM_REF` to the parent of the oldest outgoing commit, or nothing
/// when the push includes a root commit.
fn framework_push(repo: &Repo) -> anyhow::Result<Option<(String, String)>> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Some(remote) = var("PRE_COMMIT_REMOTE_NAME") else {
        return Ok(None);
    };
    let local_ref = var("PRE_COMMIT_LOCAL_BRANCH").unwrap_or_else(|| "HEAD".into());
    let remote_ref = var("PRE_COMMIT_REMOTE_BRANCH").unwrap_or_else(|| local_ref.clone());
    let local = match var("PRE_COMMIT_TO_REF") {
        Some(sha) => sha,
        None => repo
            .git
            .revparse_single(&local_ref)
            .with_context(|| format!("resolving {local_ref}, the ref pre-commit is pushing"))?
            .id()
            .to_string(),
    };
    let from = var("PRE_COMMIT_FROM_REF").unwrap_or_else(|| Oid::ZERO_SHA1.to_string());
    Ok(Some((
        remote,
        format!("{local_ref} {local} {remote_ref} {from}\n"),
    )))
}

/// Commits reachable from the pushed sha and not from what the remote has. For a new
/// remote ref, "what the remote has" is every ref of that remote we know; a remote sha
/// unknown here (someone else pushed) hides nothing: git refuses a non-fast-forward.
fn outgoing(repo: &Repo, remote: &str, line: &PushLine) -> Revs {
    let mut revs = Revs::between(None, line.local);
    if line.remote.is_zero() {
        revs.exclude_remote = Some(remote.to_string());
    } else if repo.git.find_commit(line.remote).is_ok() {
        revs.exclude.push(line.remote);
    }
    revs
}
