//! Words of the hooks and of the commands that approve: blocks, prompts, approvals.

use std::io::{self, Write};

use super::{
    defaults_notice, override_command, path, plural, policy_source, problem_lines, report_lines,
    summary,
};
use crate::notes::Approval;
use crate::policy::PolicySource;
use crate::report::Report;
use crate::ui::{Role, Stream, Ui};
use crate::verdict::Checked;

/// Pre-commit with no terminal: what was found and the legitimate next steps. The
/// reader is often an agent: it is told to fix the code or to ask a human, and is never
/// handed a command that approves.
pub fn commit_blocked(
    ui: &Ui,
    w: &mut dyn Write,
    report: &Report,
    source: &PolicySource,
) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: {} it changes what decides whether the tests pass.",
        ui.paint(Stream::Stderr, Role::Blocked, "commit blocked:")
    )?;
    defaults_notice(ui, w, source)?;
    report_lines(ui, w, report, Stream::Stderr)?;
    writeln!(w)?;
    writeln!(
        w,
        "No terminal is attached, so no one could be asked why. Next steps, in this order:"
    )?;
    let paths: Vec<String> = report.approval_paths().iter().map(|p| path(p)).collect();
    let policy_only = report.protected.iter().all(|p| {
        p.matched
            .iter()
            .all(|m| m.pattern == crate::policy::ALWAYS || m.pattern == crate::policy::SIGNERS)
    }) && report.findings.is_empty();
    if policy_only {
        // The policy itself (the first guard.toml, a new reviewer key): nothing to undo.
        writeln!(
            w,
            "  This commit changes the policy itself ({}): every change to it, the first one included,\n  is approved by a human, who commits it from their own terminal.",
            paths.join(", ")
        )?;
        return Ok(());
    }
    if !report.findings.iter().any(|f| f.blocking) {
        writeln!(
            w,
            "  1. 0 weakening findings: this only adds or edits what decides whether the tests pass\n     (a protected path). Nothing to undo if it is what you meant."
        )?;
    } else {
        writeln!(
            w,
            "  1. Fix the code under test, not the test: put the test back (`git restore --staged --worktree -- {}`)\n     and change the code until the original test passes.",
            paths.join(" ")
        )?;
    }
    writeln!(w, "{HUMAN_STEP}")?;
    Ok(())
}

/// Step 2 of every block message: only a human approves, in their own terminal.
const HUMAN_STEP: &str = "  2. If the test itself must change, stop and ask a human. They approve it in their own\n     terminal (`git commit` there asks for the reason); an approval an agent makes\n     does not count where signatures are required.";

/// Shown on the terminal before asking for the reason.
pub fn prompt_intro(ui: &Ui, report: &Report, source: &PolicySource, min: usize) -> String {
    let mut buf = Vec::new();
    let _ = writeln!(
        buf,
        "git-guard: this commit changes what decides whether the tests pass."
    );
    let _ = defaults_notice(ui, &mut buf, source);
    let _ = report_lines(ui, &mut buf, report, Stream::Stderr);
    let _ = writeln!(
        buf,
        "Say in one sentence (at least {min} characters) why the test itself must change (empty or Ctrl-C aborts the commit)."
    );
    String::from_utf8_lossy(&buf).into_owned()
}

/// The prompt was left empty or interrupted.
pub fn commit_aborted(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: no reason given; commit aborted. Your staged changes are untouched."
    )
}

/// A commit let through by a pending approval or the prompt.
pub fn commit_approved(ui: &Ui, w: &mut dyn Write, approval: &Approval) -> io::Result<()> {
    if ui.quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: protected change approved via {} by {}: {}",
        approval.via, approval.by, approval.reason
    )
}

/// Findings that do not block, shown on an otherwise allowed commit.
pub fn warnings(ui: &Ui, w: &mut dyn Write, report: &Report) -> io::Result<()> {
    if ui.quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: {} weakening found (not blocking under this policy):",
        ui.paint(Stream::Stderr, Role::Warning, "warning:")
    )?;
    report_lines(ui, w, report, Stream::Stderr)
}

/// `-v`: what a hook looked at and the policy it used.
pub fn verbose_staged(
    ui: &Ui,
    w: &mut dyn Write,
    report: &Report,
    source: &PolicySource,
) -> io::Result<()> {
    if !ui.verbose() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: staged: {}; policy: {}",
        summary(report),
        policy_source(source)
    )
}

/// `-v`: how long a command took.
pub fn verbose_elapsed(
    ui: &Ui,
    w: &mut dyn Write,
    what: &str,
    elapsed: std::time::Duration,
) -> io::Result<()> {
    if !ui.verbose() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: {what} done in {:.1} ms",
        elapsed.as_secs_f64() * 1000.0
    )
}

/// Post-commit: the approval became a note.
pub fn note_written(ui: &Ui, w: &mut dyn Write, commit: &str, notes_ref: &str) -> io::Result<()> {
    if ui.quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: override note recorded on {commit} ({notes_ref})"
    )
}

/// `git guard allow` succeeded.
pub fn allowed(ui: &Ui, w: &mut dyn Write, report: &Report, key: &str) -> io::Result<()> {
    writeln!(
        w,
        "Approved the staged change (change {key}); the next commit of exactly these changes carries the note:"
    )?;
    report_lines(ui, w, report, Stream::Stdout)?;
    writeln!(w, "Any further change to the index is not covered.")
}

/// `git guard allow` with nothing that needs approval.
pub fn nothing_to_allow(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "Nothing staged needs approval; no approval was recorded."
    )
}

/// `allow` or `override --reason` without a terminal, which the policy refuses.
pub fn allow_refused(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: refused: no terminal is attached, and this repository sets [override] allow_without_tty = false.\n\
         Nothing was recorded. Approvals are given by a human in their own terminal."
    )
}

/// How many blocked commits a push lists before it summarises the rest.
const PUSH_LIST_CAP: usize = 10;

/// pre-push with no terminal: the commits that need a note, and how to give one.
pub fn push_blocked(ui: &Ui, w: &mut dyn Write, checked: &[&Checked]) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: {} {} {} what decides whether the tests pass, without an approval note.",
        ui.paint(Stream::Stderr, Role::Blocked, "push blocked:"),
        checked.len(),
        plural(checked.len(), "commit changes", "commits change")
    )?;
    let shown = &checked[..checked.len().min(PUSH_LIST_CAP)];
    for c in shown {
        writeln!(
            w,
            "commit {} {}",
            c.target,
            c.subject.as_deref().unwrap_or_default()
        )?;
        report_lines(ui, w, &c.report, Stream::Stderr)?;
        problem_lines(w, &c.problems)?;
    }
    let hidden = checked.len() - shown.len();
    if hidden > 0 {
        writeln!(
            w,
            "… and {hidden} more. So many commits at once usually means history the remote does not\n\
             have yet (a new fork or remote): fetch it first (`git fetch <remote>`) so only your\n\
             commits are outgoing, or push just your branch. `git guard check --range` lists them all."
        )?;
    }
    writeln!(w)?;
    writeln!(w, "Next steps, in this order:")?;
    writeln!(
        w,
        "  1. Fix the code under test, not the test: rework these commits so the original tests pass."
    )?;
    writeln!(
        w,
        "  2. If the tests themselves must change, stop and ask a human. They push from their own\n     terminal and answer the prompt, or run there:"
    )?;
    for c in shown {
        writeln!(w, "       {}", override_command(&c.target))?;
    }
    writeln!(
        w,
        "     An approval an agent makes does not count where signatures are required."
    )?;
    Ok(())
}

/// Shown on the terminal before asking for a commit's reason at push time.
pub fn push_prompt_intro(ui: &Ui, checked: &Checked, min: usize) -> String {
    let mut buf = Vec::new();
    let _ = writeln!(
        buf,
        "git-guard: commit {} \"{}\" changes what decides whether the tests pass and has no approval note.",
        checked.target,
        checked.subject.as_deref().unwrap_or_default()
    );
    let _ = report_lines(ui, &mut buf, &checked.report, Stream::Stderr);
    let _ = writeln!(
        buf,
        "Say in one sentence (at least {min} characters) why the test itself must change (empty or Ctrl-C aborts the push)."
    );
    String::from_utf8_lossy(&buf).into_owned()
}

/// The push prompt was left empty or interrupted.
pub fn push_aborted(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: no reason given; push aborted. Nothing was pushed or changed."
    )
}

/// The notes could not be pushed: loud, but the code push goes on.
pub fn notes_push_failed(
    w: &mut dyn Write,
    remote: &str,
    notes_ref: &str,
    message: &str,
) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: WARNING: could not push {notes_ref} to {remote}; the code push continues,"
    )?;
    writeln!(
        w,
        "but CI will not see the approvals until the notes arrive."
    )?;
    for line in message.lines() {
        writeln!(w, "  {line}")?;
    }
    Ok(())
}

/// pre-push could not ask the remote which commits it has: remote-tracking refs are
/// not trusted, so more commits are judged than usual.
pub fn remote_unverified(w: &mut dyn Write, remote: &str, message: &str) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: warning: could not ask {remote} which commits it has, to confirm the remote-tracking refs;"
    )?;
    writeln!(
        w,
        "every pushed commit not under a ref the push names is judged."
    )?;
    for line in message.lines() {
        writeln!(w, "  {line}")?;
    }
    Ok(())
}

/// `git guard override` wrote a note.
pub fn override_done(w: &mut dyn Write, target: &str, notes_ref: &str) -> io::Result<()> {
    writeln!(
        w,
        "Override recorded on {target} ({notes_ref}). Push to share it: git push origin {notes_ref}"
    )
}

/// `git guard override` on a commit that needs none.
pub fn nothing_to_override(w: &mut dyn Write, target: &str) -> io::Result<()> {
    writeln!(
        w,
        "Commit {target} changes nothing protected; no override was recorded."
    )
}

/// A block could not be written to the ledger; the block itself stands.
pub fn ledger_write_failed(w: &mut dyn Write, message: &str) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: warning: could not record this block in the ledger: {message}"
    )
}

/// pre-push: commits from before adoption were not judged (a fork's old history).
pub fn not_judged_before_adoption(ui: &Ui, w: &mut dyn Write, count: usize) -> io::Result<()> {
    if count == 0 || ui.quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: {count} {} from before git-guard was adopted (no guard.toml in the parent) not judged.",
        plural(count, "commit", "commits")
    )
}
