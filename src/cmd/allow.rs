//! `git guard allow --reason "…"`: approves exactly the staged change, before the commit.

use std::io::Write;

use crate::exit::Outcome;
use crate::judge;
use crate::notes::Via;
use crate::prompt;
use crate::render;
use crate::repo::Repo;
use crate::ui::Ui;

/// Binds an approval to the exact staged tree.
pub fn run(repo: &Repo, ui: &Ui, reason: &str, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let Some(staged) = judge::staged(repo)? else {
        render::nothing_to_allow(out)?;
        return Ok(Outcome::Allowed);
    };
    if !staged.report.needs_approval() {
        render::nothing_to_allow(out)?;
        return Ok(Outcome::Allowed);
    }
    let approval = &staged.rules.config.approval;
    prompt::check_reason(reason, approval.min_reason_chars)?;
    // A terminal is where a human types; without one only an explicit policy allows it.
    if !approval.allow_without_tty && prompt::open_terminal().is_none() {
        render::allow_refused(out)?;
        return Ok(Outcome::Blocked);
    }
    let key = staged.approve(repo, reason, Via::Allow)?;
    render::allowed(ui, out, &staged.report, &key[..12])?;
    Ok(Outcome::Allowed)
}
