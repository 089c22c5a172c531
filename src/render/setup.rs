//! Words of setting up: `init`, `install`, `uninstall`, `doctor`.

use std::io::{self, Write};

use super::plural;
use crate::ui::{Role, Stream, Ui};

/// What `install` or `uninstall` did to one hook file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookAction {
    /// Ours was already there, byte for byte.
    AlreadyInstalled,
    /// Ours was there in an older version and was rewritten.
    Updated,
    /// Written where there was none.
    Installed,
    /// Written, with the foreign hook kept beside it and run first.
    InstalledChaining,
    /// Ours removed.
    Removed,
    /// Ours removed and the chained hook put back.
    RemovedRestoring,
    /// Someone else's hook, untouched.
    NotOurs,
    /// Nothing there.
    NotInstalled,
}

impl HookAction {
    fn words(self) -> &'static str {
        match self {
            HookAction::AlreadyInstalled => "already installed",
            HookAction::Updated => "updated",
            HookAction::Installed => "installed",
            HookAction::InstalledChaining => "installed; the existing hook is kept and runs first",
            HookAction::Removed => "removed",
            HookAction::RemovedRestoring => "removed; the earlier hook is restored",
            HookAction::NotOurs => "not ours, left alone",
            HookAction::NotInstalled => "not installed",
        }
    }
}

/// One line of `git guard doctor`: what was found and, for a problem, the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was looked at and found.
    pub finding: String,
    /// How to fix it; `None` when all is well.
    pub fix: Option<String>,
    /// A weakness that does not stop git-guard working (shown, not counted as a problem).
    pub warning: bool,
}

impl Check {
    /// Something in order.
    pub fn ok(finding: impl Into<String>) -> Check {
        Check {
            finding: finding.into(),
            fix: None,
            warning: false,
        }
    }

    /// A weakness, and what would remove it; not counted as a problem.
    pub fn warn(finding: impl Into<String>, advice: impl Into<String>) -> Check {
        Check {
            finding: finding.into(),
            fix: Some(advice.into()),
            warning: true,
        }
    }

    /// A problem, and the command or edit that fixes it.
    pub fn fix(finding: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            finding: finding.into(),
            fix: Some(fix.into()),
            warning: false,
        }
    }
}

/// `git guard init` wrote the file.
pub fn init_done(w: &mut dyn Write, file: &str) -> io::Result<()> {
    writeln!(
        w,
        "Wrote {file} with the default policy. Commit it, then run `git guard install`."
    )
}

/// What `init` found in the repository and what the policy does with it.
pub fn init_found(
    w: &mut dyn Write,
    extra: &[(String, String)],
    runners: &[String],
    ci: &[String],
    quiet_workflows: &[String],
) -> io::Result<()> {
    for (pattern, why) in extra {
        writeln!(w, "  found {why}: protected by `{pattern}`")?;
    }
    for runner in runners {
        writeln!(w, "  found {runner}")?;
    }
    if !ci.is_empty() {
        writeln!(w, "  found CI: {} (protected)", ci.join(", "))?;
    }
    if !quiet_workflows.is_empty() {
        writeln!(
            w,
            "  workflows that may run no tests: {}; to leave one out, add `\"!<path>\"` to paths",
            quiet_workflows.join(", ")
        )?;
    }
    Ok(())
}

/// `init` found git's SSH signing key and turned signed approvals on.
pub fn init_signing_on(w: &mut dyn Write, signers: &str, key: &str) -> io::Result<()> {
    writeln!(
        w,
        "Signed approvals are on: your SSH signing key ({key}) is in {signers}, and only\n\
         approvals signed by a key listed there count (require_signature = true). Commit {signers} too;\n\
         add each reviewer's key to it (README, \"Signed approvals\")."
    )
}

/// `init` found no signing key: one line on how to make approvals unforgeable.
pub fn init_signing_off(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "Approvals are unsigned (anyone with push access could write one): set git's SSH signing key\n\
         (gpg.format = ssh, user.signingKey) and run `git guard init --force` to require signatures."
    )
}

/// What `install` or `uninstall` did to one hook.
pub fn hook_action(w: &mut dyn Write, name: &str, action: HookAction) -> io::Result<()> {
    writeln!(w, "  {name:<12} {}", action.words())
}

/// `git guard install` headline.
pub fn install_done(
    w: &mut dyn Write,
    dir: &str,
    notes_ref: &str,
    fetch: Option<&str>,
) -> io::Result<()> {
    writeln!(w, "git-guard hooks installed in {dir}")?;
    writeln!(
        w,
        "notes.rewriteRef includes {notes_ref}, so amend and rebase carry overrides."
    )?;
    if let Some(refspec) = fetch {
        writeln!(
            w,
            "remote.origin.fetch includes {refspec}, so `git fetch` brings the team's approvals."
        )?;
    }
    Ok(())
}

/// `git guard install` under husky: which team scripts got the block.
pub fn husky_installed(w: &mut dyn Write, scripts: &str, edited: &[String]) -> io::Result<()> {
    writeln!(
        w,
        "husky manages the hooks here: git-guard runs from the team's scripts in {scripts}"
    )?;
    if edited.is_empty() {
        writeln!(w, "  every script already runs git-guard")?;
    }
    for file in edited {
        writeln!(w, "  added the git-guard block to {file}")?;
    }
    if !edited.is_empty() {
        writeln!(
            w,
            "Commit these files so that everyone on the team runs git-guard."
        )?;
    }
    Ok(())
}

/// `git guard uninstall` under husky.
pub fn husky_uninstalled(w: &mut dyn Write, edited: &[String]) -> io::Result<()> {
    if edited.is_empty() {
        return writeln!(w, "No husky script runs git-guard; nothing to remove.");
    }
    for file in edited {
        writeln!(w, "removed the git-guard block from {file}")?;
    }
    Ok(())
}

/// `git guard install` when another manager's config already runs git-guard.
pub fn managed_elsewhere(w: &mut dyn Write, config: &str) -> io::Result<()> {
    writeln!(
        w,
        "{config} already runs git-guard, so no hook files were written; notes are configured."
    )
}

/// `git guard doctor`: one line per check, the fix under each problem, then a count.
pub fn doctor(ui: &Ui, w: &mut dyn Write, checks: &[Check]) -> io::Result<()> {
    for c in checks {
        match &c.fix {
            None => writeln!(
                w,
                "  {}  {}",
                ui.paint(Stream::Stdout, Role::Good, "ok "),
                c.finding
            )?,
            Some(fix) => {
                let mark = if c.warning {
                    ui.paint(Stream::Stdout, Role::Warning, "warn")
                } else {
                    ui.paint(Stream::Stdout, Role::Blocked, "FIX")
                };
                writeln!(w, "  {mark}  {}", c.finding)?;
                for line in fix.lines() {
                    writeln!(w, "       {line}")?;
                }
            }
        }
    }
    let problems = checks
        .iter()
        .filter(|c| c.fix.is_some() && !c.warning)
        .count();
    if problems == 0 {
        writeln!(w, "Everything is in order.")
    } else {
        writeln!(
            w,
            "{problems} {} to fix.",
            plural(problems, "problem", "problems")
        )
    }
}

/// `git guard uninstall` headline.
pub fn uninstall_done(w: &mut dyn Write, dir: &str) -> io::Result<()> {
    writeln!(w, "git-guard hooks removed from {dir}")
}
