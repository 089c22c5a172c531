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
    let intro = render::push_prompt_intro(ui, &checked, policy.min_reason_chars);
    let no_terminal = hinted(
        "no terminal to ask for the reason",
        "approvals are given by a human: run this in your own terminal",
    );
    let Some(reason) = reason_from_a_human(ui, policy, reason, &intro, no_terminal, out)? else {
        return Ok(Outcome::Blocked);
    };
    let approval =
        judge::approval_for_commit(repo, &commit, &checked.report, &reason, Via::Override)?;
    let block = crate::signature::seal(repo, &rules, &approval)?;
    note_store::append(repo, &policy.notes_ref, commit.id(), &block)?;
    render::override_done(out, &checked.target, &policy.notes_ref)?;
    Ok(Outcome::Allowed)
}

/// `override REV --tests ID…`: approves exactly the named tests, whose vanishing or
/// skipping the test reports of a range holding `REV` show, with a note on `REV`
/// (`Guard-Tests`, one line per id). The reason is asked on the terminal, or taken from
/// `--reason` where the policy allows it, as for commits. REV's own protected change, if
/// any, is not approved by this: that is `override REV` without `--tests`.
pub fn tests(
    repo: &Repo,
    ui: &Ui,
    rev: &str,
    ids: &[String],
    reason: Option<&str>,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let commit = repo.commit(rev)?;
    let mut ids: Vec<String> = ids.iter().map(|id| id.trim().to_string()).collect();
    if let Some(bad) = ids.iter().find(|id| !id.contains("::")) {
        return Err(hinted(
            format!("`{bad}` is not a test id"),
            "a test id is `<classname>::<name>`, exactly as `git guard ci --results … --baseline …` \
             lists it, e.g. --tests 'tests.test_invoice::test_tax_rate'",
        ));
    }
    ids.sort();
    ids.dedup();
    let parent = commit.parent(0).ok();
    let rules = Rules::load_for(repo, parent.as_ref())?;
    let policy = &rules.config.approval;
    let target = crate::repo::short_id(commit.id());
    let intro = render::tests_prompt_intro(&target, &ids);
    let no_terminal = hinted(
        "no terminal to ask for the reason",
        format!(
            "a human runs it from their own terminal: {}",
            render::tests_override_command(&target, &ids)
        ),
    );
    let Some(reason) = reason_from_a_human(ui, policy, reason, &intro, no_terminal, out)? else {
        return Ok(Outcome::Blocked);
    };
    let approval = judge::approval_of_tests(repo, ids.clone(), &reason, Via::Override);
    let block = crate::signature::seal(repo, &rules, &approval)?;
    note_store::append(repo, &policy.notes_ref, commit.id(), &block)?;
    render::tests_override_done(out, &target, &ids, &policy.notes_ref)?;
    Ok(Outcome::Allowed)
}

/// The reason for an override: given with `--reason` (its length checked; refused
/// without a terminal unless the policy allows it), else asked on the terminal.
/// `None` when refused or aborted (the command is then blocked); `no_terminal` is the
/// error when there is neither a reason nor a terminal.
fn reason_from_a_human(
    ui: &Ui,
    policy: &crate::config::Approval,
    reason: Option<&str>,
    intro: &str,
    no_terminal: anyhow::Error,
    out: &mut dyn Write,
) -> anyhow::Result<Option<String>> {
    if let Some(reason) = reason {
        prompt::check_reason(reason, policy.min_reason_chars)?;
        if !policy.allow_without_tty && prompt::open_terminal().is_none() {
            render::allow_refused(out)?;
            return Ok(None);
        }
        return Ok(Some(reason.to_string()));
    }
    let Some(tty) = prompt::open_terminal() else {
        return Err(no_terminal);
    };
    match prompt::ask_reason(
        ui,
        tty,
        intro,
        render::REASON_PROMPT,
        policy.min_reason_chars,
    ) {
        Answer::Reason(reason) => Ok(Some(reason)),
        Answer::Aborted => Ok(None),
    }
}
