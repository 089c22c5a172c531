//! `git guard override REV [--reason "…"]`: approves an existing commit with a note.

use std::io::Write;

use crate::exit::{Outcome, hinted};
use crate::judge::{self, Approvers};
use crate::note_store::{self, NoteStore};
use crate::notes::Via;
use crate::policy::Rules;
use crate::prompt::{self, Answer};
use crate::render;
use crate::repo::Repo;
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::Verdict;

/// Judges `rev` under its parent's policy and, when it needs approval, records one.
pub fn run(
    repo: &Repo,
    ui: &Ui,
    rev: &str,
    reason: Option<&str>,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let commit = repo.commit(rev)?;
    let parent = commit.parent(0).ok();
    let rules = Rules::load_for(repo, parent.as_ref())?;
    let store = NoteStore::new(repo, vec![]);
    let verifier = Verifier::new(&rules);
    let approvers = Approvers {
        notes: &store,
        label: None,
        base: None,
        verifier: &verifier,
    };
    let checked = judge::commit(repo, &commit, &rules, &approvers)?;
    if checked.verdict == Verdict::Clean {
        render::nothing_to_override(out, &checked.target)?;
        return Ok(Outcome::Allowed);
    }
    let policy = &rules.config.approval;
    let reason = match reason {
        Some(reason) => {
            if !policy.allow_without_tty && prompt::open_terminal().is_none() {
                render::allow_refused(out)?;
                return Ok(Outcome::Blocked);
            }
            prompt::check_reason(reason, policy.min_reason_chars)?;
            reason.to_string()
        }
        None => {
            let Some(tty) = prompt::open_terminal() else {
                return Err(hinted(
                    "no terminal to ask for the reason",
                    "approvals are given by a human: run this in your own terminal",
                ));
            };
            let intro = render::push_prompt_intro(ui, &checked);
            match prompt::ask_reason(
                ui,
                tty,
                &intro,
                render::REASON_PROMPT,
                policy.min_reason_chars,
            ) {
                Answer::Reason(reason) => reason,
                Answer::Aborted => return Ok(Outcome::Blocked),
            }
        }
    };
    let approval =
        judge::approval_for_commit(repo, &commit, &checked.report, &reason, Via::Override)?;
    let block = crate::signature::seal(repo, &rules, &approval)?;
    note_store::append(repo, &policy.notes_ref, commit.id(), &block)?;
    render::override_done(out, &checked.target, &policy.notes_ref)?;
    Ok(Outcome::Allowed)
}
