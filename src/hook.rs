//! The entry points the installed hooks call: `git guard hook <name>`.
//!
//! pre-commit judges the index against HEAD and either lets the commit through, asks a
//! human on the terminal, or blocks with the next steps. post-commit turns the approval
//! for the committed tree into a note on the new commit.

use std::collections::HashSet;
use std::io::{Read, Write};

use anyhow::Context;
use clap::ValueEnum;

use crate::check::Report;
use crate::exit::Outcome;
use crate::notes::NoteStore;
use crate::notes::{self, Approval};
use crate::policy::Policy;
use crate::prompt::{self, Answer};
use crate::render;
use crate::render::{Checked, Verdict};
use crate::repo::{Repo, short_id};
use crate::{approval, changes, gate, ledger};
use git2::Oid;

/// The hooks git-guard answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookName {
    /// Before a commit is recorded: judge the staged change.
    PreCommit,
    /// After a commit is recorded: attach the approval as a note.
    PostCommit,
    /// Before a push: judge every outgoing commit, then push the notes.
    PrePush,
    /// Called by the pre-commit framework (pre-commit, prek) at any of its stages.
    ///
    /// The framework hides git's hook name and pre-push stdin, so the stage is read off
    /// its environment: `PRE_COMMIT_REMOTE_NAME` means pre-push (the refs come from
    /// `PRE_COMMIT_FROM_REF`/`TO_REF`); otherwise a staged change means pre-commit, and an
    /// empty index means post-commit.
    PreCommitFramework,
}

/// Runs one hook.
pub fn run(name: HookName, args: &[String], err: &mut dyn Write) -> anyhow::Result<Outcome> {
    let started = std::time::Instant::now();
    let repo = Repo::open()?;
    let outcome = match name {
        HookName::PreCommit => pre_commit(&repo, err),
        HookName::PostCommit => post_commit(&repo, err),
        HookName::PrePush => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .context("reading the ref lines git gives pre-push")?;
            let remote = args.first().map(String::as_str).unwrap_or("origin");
            pre_push(&repo, remote, &input, err)
        }
        HookName::PreCommitFramework => match framework_push(&repo)? {
            Some((remote, line)) => pre_push(&repo, &remote, &line, err),
            None => match gate::staged(&repo)? {
                Some(staged) => judge_staged(&repo, staged, err),
                None => post_commit(&repo, err),
            },
        },
    }?;
    let what = name.to_possible_value().map(|v| v.get_name().to_string());
    render::verbose_elapsed(err, &what.unwrap_or_default(), started.elapsed())?;
    Ok(outcome)
}

fn pre_commit(repo: &Repo, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    match gate::staged(repo)? {
        Some(staged) => judge_staged(repo, staged, err),
        None => Ok(Outcome::Allowed),
    }
}

/// pre-commit once something is staged: allow, ask on the terminal, or block.
fn judge_staged(repo: &Repo, staged: gate::Staged, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    render::verbose_staged(err, &staged.report, &staged.source)?;
    if !staged.report.needs_approval() {
        if !staged.report.findings.is_empty() {
            render::warnings(err, &staged.report)?;
        }
        return Ok(Outcome::Allowed);
    }
    if let Some(pending) = &staged.pending {
        render::commit_approved(err, pending)?;
        return Ok(Outcome::Allowed);
    }
    let block = |terminal: bool, err: &mut dyn Write| {
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
                    .map(|p| render::path(p))
                    .collect(),
            ),
            findings: Some(staged.report.finding_labels()),
            ..ledger::Entry::default()
        };
        if let Err(e) = ledger::record_block(repo, entry) {
            let _ = render::ledger_write_failed(err, &format!("{e:#}"));
        }
    };
    let Some(tty) = prompt::open_terminal() else {
        render::commit_blocked(
            err,
            &staged.report,
            &staged.source,
            staged.config.approval.allow_without_tty,
        )?;
        block(false, err);
        return Ok(Outcome::Blocked);
    };
    let intro = render::prompt_intro(&staged.report, &staged.source);
    match prompt::ask_reason(
        tty,
        &intro,
        render::REASON_PROMPT,
        staged.config.approval.min_reason_chars,
    ) {
        Answer::Reason(reason) => {
            staged.approve(repo, &reason, "prompt")?;
            Ok(Outcome::Allowed)
        }
        Answer::Aborted => {
            render::commit_aborted(err)?;
            block(true, err);
            Ok(Outcome::Blocked)
        }
    }
}

fn post_commit(repo: &Repo, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    if !approval::any_pending(repo) {
        return Ok(Outcome::Allowed);
    }
    let Some(head) = repo.head_commit()? else {
        return Ok(Outcome::Allowed);
    };
    let tree = head.tree_id();
    let Some(pending) = approval::load(repo, tree)? else {
        return Ok(Outcome::Allowed);
    };
    let parent = head.parent(0).ok();
    let (config, _) = repo.policy_for(parent.as_ref())?;
    let notes_ref = &config.approval.notes_ref;
    let mut pending = pending;
    pending.patch_id = Some(changes::patch_id(repo, &head, &[])?);
    notes::append(repo, notes_ref, head.id(), &pending)?;
    approval::remove(repo, tree)?;
    render::note_written(err, &short_id(head.id()), notes_ref)?;
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
fn pre_push(
    repo: &Repo,
    remote: &str,
    input: &str,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut seen = HashSet::new();
    let mut unapproved: Vec<(Oid, Checked)> = Vec::new();
    let mut policy_in_force = None;
    for line in parse_push_lines(input)? {
        if line.local.is_zero() || line.local_ref.starts_with("refs/notes/") {
            continue;
        }
        let commits = outgoing(repo, remote, &line)?;
        let Some(oldest) = commits.first() else {
            continue;
        };
        // The policy is the one the pushed range builds on: what the remote has, else
        // the parent of the oldest outgoing commit.
        let base = match repo.git.find_commit(line.remote) {
            Ok(known) => Some(known),
            Err(_) => repo.git.find_commit(*oldest)?.parent(0).ok(),
        };
        let (config, _) = repo.policy_for(base.as_ref())?;
        let policy = Policy::new(&config.protect.paths)?;
        let store = NoteStore::new(repo, notes::local_refs(&config.approval.notes_ref));
        let approvers = gate::Approvers {
            notes: &store,
            label: None,
        };
        // One `git log` for the changes of all outgoing commits (see changes::of_range).
        let mut revs = vec![line.local.to_string()];
        if repo.git.find_commit(line.remote).is_ok() {
            revs.push(format!("^{}", line.remote));
        } else if line.remote.is_zero() {
            revs.extend(["--not".to_string(), format!("--remotes={remote}")]);
        }
        let mut by_id: std::collections::HashMap<Oid, Vec<changes::Change>> =
            changes::of_range(repo, &revs)?.into_iter().collect();
        for id in commits {
            if seen.insert(id) {
                let commit = repo.git.find_commit(id)?;
                let checked = match by_id.remove(&id) {
                    Some(changes) => {
                        gate::judge(repo, &commit, &changes, &config, &policy, &approvers)?
                    }
                    None => gate::commit(repo, &commit, &config, &policy, &approvers)?,
                };
                if checked.verdict == Verdict::NeedsApproval {
                    unapproved.push((id, checked));
                }
            }
        }
        policy_in_force.get_or_insert(config);
    }
    let Some(config) = policy_in_force else {
        return Ok(Outcome::Allowed);
    };
    let notes_ref = &config.approval.notes_ref;
    if !unapproved.is_empty() {
        let Some(tty) = prompt::open_terminal() else {
            let checked: Vec<&Checked> = unapproved.iter().map(|(_, c)| c).collect();
            render::push_blocked(err, &checked, config.approval.allow_without_tty)?;
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
            return Ok(Outcome::Blocked);
        };
        for (id, checked) in &unapproved {
            let terminal = tty.try_clone().context("reusing the terminal")?;
            let intro = render::push_prompt_intro(checked);
            let min = config.approval.min_reason_chars;
            match prompt::ask_reason(terminal, &intro, render::REASON_PROMPT, min) {
                Answer::Reason(reason) => {
                    let commit = repo.git.find_commit(*id)?;
                    let approval = approval_for(repo, &commit, &checked.report, reason, "prompt")?;
                    notes::append(repo, notes_ref, *id, &approval)?;
                    render::note_written(err, &checked.target, notes_ref)?;
                }
                Answer::Aborted => {
                    render::push_aborted(err)?;
                    return Ok(Outcome::Blocked);
                }
            }
        }
    }
    if repo.git.find_reference(notes_ref).is_ok()
        && let Err(message) = notes::push(repo, remote, notes_ref)
    {
        render::notes_push_failed(err, remote, notes_ref, &message)?;
    }
    Ok(Outcome::Allowed)
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

/// A note block approving `commit`'s change now.
pub fn approval_for(
    repo: &Repo,
    commit: &git2::Commit<'_>,
    report: &Report,
    reason: String,
    via: &str,
) -> anyhow::Result<Approval> {
    Ok(Approval {
        reason: notes::one_line(&reason),
        by: repo.identity(),
        at: notes::now(),
        via: via.into(),
        paths: report.approval_paths(),
        findings: report.finding_labels(),
        patch_id: Some(changes::patch_id(repo, commit, &[])?),
        blocked_attempts: ledger::blocked_attempts_for_commit(repo, &commit.id().to_string()),
    })
}

/// Commits reachable from the pushed sha and not from what the remote has, oldest first.
/// For a new remote ref, "what the remote has" is every ref of that remote we know.
fn outgoing(repo: &Repo, remote: &str, line: &PushLine) -> anyhow::Result<Vec<Oid>> {
    let mut walk = repo.git.revwalk()?;
    walk.push(line.local)
        .with_context(|| format!("the pushed commit {} is not in this repository", line.local))?;
    if !line.remote.is_zero() {
        // Unknown locally (someone else pushed): git will refuse a non-fast-forward anyway.
        let _ = walk.hide(line.remote);
    } else {
        let _ = walk.hide_glob(&format!("refs/remotes/{remote}/*"));
    }
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
    walk.collect::<Result<Vec<_>, _>>()
        .context("listing outgoing commits")
}
