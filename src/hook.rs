//! The entry points the installed hooks call: `git guard hook <name>`.
//!
//! pre-commit judges the index against HEAD and either lets the commit through, asks a
//! human on the terminal, or blocks with the next steps. post-commit turns the approval
//! for the committed tree into a note on the new commit.

use std::io::Write;

use anyhow::Context;

use crate::exit::Outcome;
use crate::notes::{self, Approval};
use crate::prompt::{self, Answer};
use crate::render;
use crate::repo::{Repo, short_id};
use crate::{approval, gate};

/// The hooks git-guard answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookName {
    /// Before a commit is recorded: judge the staged change.
    PreCommit,
    /// After a commit is recorded: attach the approval as a note.
    PostCommit,
}

/// Runs one hook.
pub fn run(name: HookName, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    let repo = Repo::open()?;
    match name {
        HookName::PreCommit => pre_commit(&repo, err),
        HookName::PostCommit => post_commit(&repo, err),
    }
}

fn pre_commit(repo: &Repo, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    let Some(staged) = gate::staged(repo)? else {
        return Ok(Outcome::Allowed);
    };
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
    let Some(tty) = prompt::open_terminal() else {
        render::commit_blocked(
            err,
            &staged.report,
            &staged.source,
            staged.config.approval.allow_without_tty,
        )?;
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
            let approval = Approval {
                reason,
                by: repo.identity(),
                at: notes::now(),
                via: "prompt".into(),
                paths: staged.report.approval_paths(),
                findings: staged.report.finding_labels(),
                patch_id: None,
                blocked_attempts: None,
            };
            let tree = staged.tree.context("the staged tree was not computed")?;
            approval::save(repo, tree, &approval)?;
            Ok(Outcome::Allowed)
        }
        Answer::Aborted => {
            render::commit_aborted(err)?;
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
    notes::append(repo, notes_ref, head.id(), &pending)?;
    approval::remove(repo, tree)?;
    render::note_written(err, &short_id(head.id()), notes_ref)?;
    Ok(Outcome::Allowed)
}
