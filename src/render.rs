//! Every word the user sees: reports, block messages, prompts, JSON.
//!
//! Commands decide; this module says it. Paths are shown quoted the way git quotes them.

use std::io::{self, Write};

use serde::Serializer;

use crate::check::Report;
use crate::notes::Approval;
use crate::paths::{quote_path, serialize_paths};
use crate::repo::PolicySource;
use crate::settings::{self, FindingsDetail, Stream};

/// What a piece of coloured text means; the colour follows from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `error:`, and what blocked.
    Blocked,
    /// `hint:`.
    Hint,
    /// A warning that does not block.
    Warning,
    /// Allowed, approved, written.
    Good,
    /// A headline.
    Strong,
}

/// `text` in the colour of `role` when `stream` gets colour (see [`settings::colour`]).
pub fn paint(stream: Stream, role: Role, text: &str) -> String {
    if !settings::colour(stream) {
        return text.to_string();
    }
    let code = match role {
        Role::Blocked => "1;31",
        Role::Hint => "33",
        Role::Warning => "33",
        Role::Good => "32",
        Role::Strong => "1",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// A path for people: as git shows it (`"tests/a b.py"` quoted, plain otherwise).
pub fn path(bytes: &[u8]) -> String {
    quote_path(bytes)
}

/// Where the policy came from, for one line of context.
pub fn policy_source(source: &PolicySource) -> String {
    match source {
        PolicySource::Commit(id) => format!("guard.toml at {id}"),
        PolicySource::WorkTree => "guard.toml (work tree, not yet committed)".into(),
        PolicySource::Defaults => "built-in defaults".into(),
    }
}

/// The one-line notice for a repository without `guard.toml`.
pub fn defaults_notice(w: &mut dyn Write, source: &PolicySource) -> io::Result<()> {
    if settings::quiet() {
        return Ok(());
    }
    if *source == PolicySource::Defaults {
        writeln!(
            w,
            "note: no guard.toml here; using the default policy (`git guard init` writes it out)"
        )?;
    }
    Ok(())
}

/// The protected paths and findings of a report, one per line, indented.
pub fn report_lines(w: &mut dyn Write, report: &Report, stream: Stream) -> io::Result<()> {
    for p in &report.protected {
        let shown = match (&p.old_path, &p.new_path) {
            (Some(old), Some(new)) if old != new => format!("{} -> {}", path(old), path(new)),
            (_, Some(new)) => path(new),
            (Some(old), None) => path(old),
            (None, None) => String::new(),
        };
        let mut patterns: Vec<String> = p
            .matched
            .iter()
            .map(|m| format!("`{}`", m.pattern))
            .collect();
        patterns.dedup(); // a rename within `tests/**` names the pattern once
        writeln!(
            w,
            "  {} {shown}  (protected by {})",
            p.status.letter(),
            patterns.join(", ")
        )?;
    }
    for f in &report.findings {
        let at = f.location();
        let (mark, severity) = if f.blocking {
            (paint(stream, Role::Blocked, "!"), "")
        } else {
            (paint(stream, Role::Warning, "!"), " (warning only)")
        };
        match settings::current().findings {
            FindingsDetail::Detail => {
                writeln!(w, "  {mark} {} {at}: {}{severity}", f.kind, f.detail)?
            }
            FindingsDetail::Summary => writeln!(w, "  {mark} {} {at}{severity}", f.kind)?,
        }
    }
    Ok(())
}

/// A one-line count: "1 protected path, 1 finding in 3 changed files".
fn summary(report: &Report) -> String {
    let protected = report.protected.len();
    let findings = report.findings.len();
    format!(
        "{protected} protected {}, {findings} {} in {} changed {}",
        plural(protected, "change", "changes"),
        plural(findings, "finding", "findings"),
        report.files_changed,
        plural(report.files_changed, "file", "files"),
    )
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// The exact command a human runs to approve the staged change.
pub const ALLOW_COMMAND: &str =
    "git guard allow --reason \"<one sentence: why the test itself must change>\"";

/// Pre-commit with no terminal: what was found and the legitimate next steps.
pub fn commit_blocked(
    w: &mut dyn Write,
    report: &Report,
    source: &PolicySource,
    allow_without_tty: bool,
) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: {} it changes what decides whether the tests pass.",
        paint(Stream::Stderr, Role::Blocked, "commit blocked:")
    )?;
    defaults_notice(w, source)?;
    report_lines(w, report, Stream::Stderr)?;
    writeln!(w)?;
    writeln!(
        w,
        "No terminal is attached, so no one could be asked why. Next steps, in this order:"
    )?;
    writeln!(
        w,
        "  1. Fix the code under test, not the test: put the test back (`git restore --staged --worktree <path>`)\n     and change the code until the original test passes."
    )?;
    if allow_without_tty {
        writeln!(
            w,
            "  2. If the test itself must change, a human approves this exact staged change:\n       {ALLOW_COMMAND}\n     then runs the same `git commit` again."
        )?;
    } else {
        writeln!(
            w,
            "  2. If the test itself must change, a human runs `git commit` from a terminal and\n     answers the prompt (this repository turns `git guard allow` off)."
        )?;
    }
    Ok(())
}

/// Shown on the terminal before asking for the reason.
pub fn prompt_intro(report: &Report, source: &PolicySource) -> String {
    let mut buf = Vec::new();
    let _ = writeln!(
        buf,
        "git-guard: this commit changes what decides whether the tests pass."
    );
    let _ = defaults_notice(&mut buf, source);
    let _ = report_lines(&mut buf, report, Stream::Stderr);
    let _ = writeln!(
        buf,
        "Say in one sentence why the test itself must change (empty or Ctrl-C aborts the commit)."
    );
    String::from_utf8_lossy(&buf).into_owned()
}

/// The prompt label.
pub const REASON_PROMPT: &str = "Reason";

/// The validator's message for a short reason.
pub fn reason_too_short(length: usize, min: usize) -> String {
    format!("please write at least {min} characters ({length} so far)")
}

/// The prompt was left empty or interrupted.
pub fn commit_aborted(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: no reason given; commit aborted. Your staged changes are untouched."
    )
}

/// A commit let through by a pending approval or the prompt.
pub fn commit_approved(w: &mut dyn Write, approval: &Approval) -> io::Result<()> {
    if settings::quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: protected change approved via {} by {}: {}",
        approval.via, approval.by, approval.reason
    )
}

/// Findings that do not block, shown on an otherwise allowed commit.
pub fn warnings(w: &mut dyn Write, report: &Report) -> io::Result<()> {
    if settings::quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: {} weakening found (not blocking under this policy):",
        paint(Stream::Stderr, Role::Warning, "warning:")
    )?;
    report_lines(w, report, Stream::Stderr)
}

/// `-v`: what a hook looked at and the policy it used.
pub fn verbose_staged(w: &mut dyn Write, report: &Report, source: &PolicySource) -> io::Result<()> {
    if !settings::verbose() {
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
    w: &mut dyn Write,
    what: &str,
    elapsed: std::time::Duration,
) -> io::Result<()> {
    if !settings::verbose() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: {what} done in {:.1} ms",
        elapsed.as_secs_f64() * 1000.0
    )
}

/// Post-commit: the approval became a note.
pub fn note_written(w: &mut dyn Write, commit: &str, notes_ref: &str) -> io::Result<()> {
    if settings::quiet() {
        return Ok(());
    }
    writeln!(
        w,
        "git-guard: override note recorded on {commit} ({notes_ref})"
    )
}

/// `git guard allow` succeeded.
pub fn allowed(w: &mut dyn Write, report: &Report, tree: &str) -> io::Result<()> {
    writeln!(
        w,
        "Approved the staged change (tree {tree}); the next commit of exactly this index carries the note:"
    )?;
    report_lines(w, report, Stream::Stdout)?;
    writeln!(w, "Any further change to the index is not covered.")
}

/// `git guard allow` with nothing that needs approval.
pub fn nothing_to_allow(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "Nothing staged needs approval; no approval was recorded."
    )
}

/// `git guard allow` when the policy requires the prompt.
pub fn allow_refused(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: refused: this repository sets [override] allow_without_tty = false.\n\
         A human must run `git commit` from a terminal and answer the prompt."
    )
}

/// How `check` ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No approval needed.
    Clean,
    /// Needs approval and has one.
    Approved,
    /// Needs approval and has none.
    NeedsApproval,
}

/// What approved a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// A note on the commit (or a pending approval for a staged change).
    Note,
    /// A note on another commit with the same patch id (rebased or cherry-picked).
    PatchId,
    /// The PR/MR label.
    Label(String),
}

impl serde::Serialize for Via {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Via::Note => "note",
            Via::PatchId => "patch-id",
            Via::Label(_) => "label",
        })
    }
}

/// One checked unit (the staged change or a commit) for `check` output.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Checked {
    /// `staged` or the commit id.
    pub target: String,
    /// The commit's subject, when it is a commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// What approved it, when approved.
    pub approved_via: Option<Via>,
    /// The commit whose note approved it through an identical patch id.
    pub patch_id_of: Option<String>,
    /// The findings and protected paths.
    #[serde(flatten)]
    pub report: Report,
    /// Paths an approval must name.
    #[serde(serialize_with = "serialize_paths")]
    pub approval_paths: Vec<Vec<u8>>,
    /// The approvals found (pending or notes).
    pub approvals: Vec<ApprovalView>,
}

/// An approval as `check --format json` shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ApprovalView {
    /// The reason.
    pub reason: String,
    /// Who.
    pub by: String,
    /// When.
    pub at: String,
    /// How.
    pub via: String,
    /// What it covers.
    #[serde(serialize_with = "serialize_paths")]
    pub paths: Vec<Vec<u8>>,
    /// Blocked attempts that preceded it, when recorded.
    pub blocked_attempts: Option<u32>,
}

impl From<&Approval> for ApprovalView {
    fn from(a: &Approval) -> Self {
        ApprovalView {
            reason: a.reason.clone(),
            by: a.by.clone(),
            at: a.at.clone(),
            via: a.via.clone(),
            paths: a.paths.clone(),
            blocked_attempts: a.blocked_attempts,
        }
    }
}

/// `check` as text.
pub fn check_text(w: &mut dyn Write, checked: &[Checked], source: &PolicySource) -> io::Result<()> {
    defaults_notice(w, source)?;
    for c in checked {
        let title = match &c.subject {
            Some(subject) => format!("commit {} {subject}", c.target),
            None => "staged changes".to_string(),
        };
        writeln!(w, "{title}: {}", summary(&c.report))?;
        report_lines(w, &c.report, Stream::Stdout)?;
        for a in &c.approvals {
            writeln!(
                w,
                "  approved via {} by {} at {}: {}",
                a.via, a.by, a.at, a.reason
            )?;
        }
        let verdict = match c.verdict {
            Verdict::Clean => paint(Stream::Stdout, Role::Good, "nothing needs approval"),
            Verdict::Approved => paint(Stream::Stdout, Role::Good, "approved"),
            Verdict::NeedsApproval => paint(Stream::Stdout, Role::Blocked, "NEEDS APPROVAL"),
        };
        writeln!(w, "  => {verdict}")?;
    }
    writeln!(w, "policy: {}", policy_source(source))
}

/// `check --format json`: `{"policy": …, "checked": [...]}`, one document.
pub fn check_json(w: &mut dyn Write, checked: &[Checked], source: &PolicySource) -> io::Result<()> {
    let value = serde_json::json!({
        "version": 1,
        "policy": policy_source(source),
        "blocked": checked.iter().any(|c| c.verdict == Verdict::NeedsApproval),
        "checked": checked,
    });
    serde_json::to_writer_pretty(&mut *w, &value)?;
    writeln!(w)
}

/// One commit's approvals for `git guard log`.
pub fn log_entry(
    w: &mut dyn Write,
    commit: &str,
    subject: &str,
    approvals: &[Approval],
) -> io::Result<()> {
    writeln!(w, "{commit} {subject}")?;
    for a in approvals {
        writeln!(w, "  reason:   {}", a.reason)?;
        writeln!(w, "  by:       {} at {} via {}", a.by, a.at, a.via)?;
        for p in &a.paths {
            writeln!(w, "  path:     {}", path(p))?;
        }
        for f in &a.findings {
            writeln!(w, "  finding:  {f}")?;
        }
        if let Some(n) = a.blocked_attempts.filter(|n| *n > 0) {
            writeln!(
                w,
                "  preceded by {n} blocked {}",
                plural(n as usize, "attempt", "attempts")
            )?;
        }
    }
    Ok(())
}

/// `git guard log` found nothing.
pub fn log_empty(w: &mut dyn Write, notes_ref: &str) -> io::Result<()> {
    writeln!(w, "No overrides recorded in {notes_ref} for this range.")
}

/// `git guard init` wrote the file.
pub fn init_done(w: &mut dyn Write, file: &str) -> io::Result<()> {
    writeln!(
        w,
        "Wrote {file} with the default policy. Commit it, then run `git guard install`."
    )
}

/// What `install` or `uninstall` did to one hook.
pub fn hook_action(w: &mut dyn Write, name: &str, action: &str) -> io::Result<()> {
    writeln!(w, "  {name:<12} {action}")
}

/// `git guard install` headline.
pub fn install_done(w: &mut dyn Write, dir: &str, notes_ref: &str) -> io::Result<()> {
    writeln!(w, "git-guard hooks installed in {dir}")?;
    writeln!(
        w,
        "notes.rewriteRef includes {notes_ref}, so amend and rebase carry overrides."
    )
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
pub fn doctor(w: &mut dyn Write, checks: &[crate::doctor::Check]) -> io::Result<()> {
    for c in checks {
        match &c.fix {
            None => writeln!(
                w,
                "  {}  {}",
                paint(Stream::Stdout, Role::Good, "ok "),
                c.finding
            )?,
            Some(fix) => {
                writeln!(
                    w,
                    "  {}  {}",
                    paint(Stream::Stdout, Role::Blocked, "FIX"),
                    c.finding
                )?;
                for line in fix.lines() {
                    writeln!(w, "       {line}")?;
                }
            }
        }
    }
    let problems = checks.iter().filter(|c| c.fix.is_some()).count();
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

/// The reason an agent's edit is refused: the findings and what to do instead.
pub fn agent_denial(report: &Report) -> String {
    let mut buf = Vec::new();
    let _ = writeln!(
        buf,
        "git-guard: this edit weakens a test, so it is refused before it reaches the disk."
    );
    for f in report.findings.iter().filter(|f| f.blocking) {
        let _ = writeln!(buf, "  {}: {}", f.label(), f.detail);
    }
    let _ = write!(
        buf,
        "Fix the code under test so the existing test passes; do not loosen, skip or delete the test. \
         If the test itself is wrong, stop and ask the user: only a human can approve that change, with a reason, at commit."
    );
    String::from_utf8_lossy(&buf).into_owned()
}

/// The question put to the user for an agent's edit of a protected path.
pub fn agent_question(report: &Report) -> String {
    let paths: Vec<String> = report.approval_paths().iter().map(|p| path(p)).collect();
    format!(
        "git-guard: {} protected by guard.toml (it decides whether the tests pass). \
         Allow the agent to change it? The commit will still need a human's reason.",
        paths.join(", ")
    )
}

/// A Claude Code `PreToolUse` answer: nothing for no opinion, else the JSON decision.
pub fn claude_code_decision(
    w: &mut dyn Write,
    decision: &crate::agent::Decision,
) -> io::Result<()> {
    use crate::agent::Decision;
    let (verdict, reason) = match decision {
        Decision::Pass => return Ok(()),
        Decision::Ask(reason) => ("ask", reason),
        Decision::Deny(reason) => ("deny", reason),
    };
    let value = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": verdict,
            "permissionDecisionReason": reason,
        }
    });
    serde_json::to_writer(&mut *w, &value)?;
    writeln!(w)
}

/// `git guard uninstall` headline.
pub fn uninstall_done(w: &mut dyn Write, dir: &str) -> io::Result<()> {
    writeln!(w, "git-guard hooks removed from {dir}")
}

/// pre-push with no terminal: the commits that need a note, and how to give one.
pub fn push_blocked(
    w: &mut dyn Write,
    checked: &[&Checked],
    allow_without_tty: bool,
) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: {} {} {} what decides whether the tests pass, without an approval note.",
        paint(Stream::Stderr, Role::Blocked, "push blocked:"),
        checked.len(),
        plural(checked.len(), "commit changes", "commits change")
    )?;
    for c in checked {
        writeln!(
            w,
            "commit {} {}",
            c.target,
            c.subject.as_deref().unwrap_or_default()
        )?;
        report_lines(w, &c.report, Stream::Stderr)?;
    }
    writeln!(w)?;
    writeln!(w, "Next steps, in this order:")?;
    writeln!(
        w,
        "  1. Fix the code under test, not the test: rework these commits so the original tests pass."
    )?;
    if allow_without_tty {
        writeln!(
            w,
            "  2. If the tests themselves must change, a human approves each commit:"
        )?;
        for c in checked {
            writeln!(w, "       {}", override_command(&c.target))?;
        }
        writeln!(w, "     then pushes again.")?;
    } else {
        writeln!(
            w,
            "  2. If the tests themselves must change, a human pushes from a terminal and answers the prompt."
        )?;
    }
    Ok(())
}

/// The exact command that approves one commit.
pub fn override_command(target: &str) -> String {
    format!(
        "git guard override {target} --reason \"<one sentence: why the test itself must change>\""
    )
}

/// Shown on the terminal before asking for a commit's reason at push time.
pub fn push_prompt_intro(checked: &Checked) -> String {
    let mut buf = Vec::new();
    let _ = writeln!(
        buf,
        "git-guard: commit {} \"{}\" changes what decides whether the tests pass and has no approval note.",
        checked.target,
        checked.subject.as_deref().unwrap_or_default()
    );
    let _ = report_lines(&mut buf, &checked.report, Stream::Stderr);
    let _ = writeln!(
        buf,
        "Say in one sentence why the test itself must change (empty or Ctrl-C aborts the push)."
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

/// Everything `git guard ci` reports, ordered by risk.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CiSummary {
    /// Stable schema version of the JSON.
    pub version: u32,
    /// Which CI environment supplied base and labels.
    pub provider: String,
    /// Short id of the base commit.
    pub base: String,
    /// Short id of the head commit.
    pub head: String,
    /// Where the policy came from (always the base commit, or defaults).
    pub policy: String,
    /// The PR/MR labels seen.
    pub labels: Vec<String>,
    /// The override label, when present on the PR/MR.
    pub label_applied: Option<String>,
    /// The label the policy accepts.
    pub override_label: String,
    /// Whether any commit lacks an approval.
    pub blocked: bool,
    /// Every changed file is protected and the range weakens tests: the incident shape.
    pub test_only_weakening: bool,
    /// Counts.
    pub counts: CiCounts,
    /// The commits, riskiest first.
    pub commits: Vec<Checked>,
}

/// Commit counts of a CI summary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CiCounts {
    /// Commits in the range.
    pub commits: usize,
    /// Commits without a needed approval.
    pub needs_approval: usize,
    /// Commits approved by note, patch id or label.
    pub approved: usize,
    /// Commits that change nothing protected.
    pub clean: usize,
}

impl CiSummary {
    /// Builds the summary from commits already ranked by risk.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        provider: &str,
        base: String,
        head: String,
        policy: String,
        labels: Vec<String>,
        label_applied: Option<String>,
        override_label: String,
        commits: Vec<Checked>,
    ) -> CiSummary {
        let count = |v: Verdict| commits.iter().filter(|c| c.verdict == v).count();
        let counts = CiCounts {
            commits: commits.len(),
            needs_approval: count(Verdict::NeedsApproval),
            approved: count(Verdict::Approved),
            clean: count(Verdict::Clean),
        };
        let touches_protected = commits.iter().any(|c| !c.report.protected.is_empty());
        let only_protected = commits
            .iter()
            .all(|c| c.report.protected.len() == c.report.files_changed);
        let weakens = commits.iter().any(|c| !c.report.findings.is_empty());
        CiSummary {
            version: 1,
            provider: provider.to_string(),
            base,
            head,
            policy,
            labels,
            label_applied,
            override_label,
            blocked: counts.needs_approval > 0,
            test_only_weakening: touches_protected && only_protected && weakens,
            counts,
            commits,
        }
    }
}

/// A progress bar on stderr for long ranges, hidden when stderr is not a terminal.
pub fn ci_progress(len: usize) -> indicatif::ProgressBar {
    if len < 200 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_message("checking commits");
    bar
}

/// The remote notes could not be fetched: the check goes on with local notes.
pub fn ci_notes_fetch_failed(w: &mut dyn Write, notes_ref: &str, message: &str) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: warning: could not fetch {notes_ref} from origin; using local notes only"
    )?;
    for line in message.lines() {
        writeln!(w, "  {line}")?;
    }
    Ok(())
}

fn via_text(c: &Checked) -> String {
    match (&c.approved_via, &c.patch_id_of) {
        (Some(Via::PatchId), Some(original)) => format!(
            "by the note on {original}, an identical patch (rebased or cherry-picked; its note did not follow)"
        ),
        (Some(Via::Label(label)), _) => format!("by the PR/MR label `{label}` (Guard-Via: label)"),
        (Some(_), _) => "by note".to_string(),
        (None, _) => String::new(),
    }
}

fn approval_lines(w: &mut dyn Write, c: &Checked) -> io::Result<()> {
    for a in &c.approvals {
        writeln!(w, "    reason: {}", a.reason)?;
        writeln!(w, "            {} at {} via {}", a.by, a.at, a.via)?;
        if let Some(n) = a.blocked_attempts.filter(|n| *n > 0) {
            writeln!(
                w,
                "            {n} blocked {} preceded this approval",
                plural(n as usize, "attempt", "attempts")
            )?;
        }
    }
    Ok(())
}

/// `git guard ci` as text: the review summary, riskiest first.
pub fn ci_text(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    writeln!(
        w,
        "git-guard ci: {} {} in {}..{} ({}; policy: {})",
        s.counts.commits,
        plural(s.counts.commits, "commit", "commits"),
        s.base,
        s.head,
        s.provider,
        s.policy
    )?;
    if s.test_only_weakening {
        writeln!(
            w,
            "!! This range changes only protected test code and weakens it: the shape of a \"make CI green\" change."
        )?;
    }
    if s.blocked {
        writeln!(
            w,
            "{} {} {} protected paths without an approval.",
            paint(Stream::Stdout, Role::Blocked, "BLOCKED:"),
            s.counts.needs_approval,
            plural(s.counts.needs_approval, "commit changes", "commits change")
        )?;
    } else {
        writeln!(
            w,
            "{} every protected change is approved.",
            paint(Stream::Stdout, Role::Good, "OK:")
        )?;
    }
    for c in s.commits.iter().filter(|c| c.verdict != Verdict::Clean) {
        writeln!(w)?;
        let label = if c.verdict == Verdict::NeedsApproval {
            paint(Stream::Stdout, Role::Blocked, "NEEDS APPROVAL")
        } else {
            paint(Stream::Stdout, Role::Good, "approved")
        };
        writeln!(
            w,
            "{label}  {} {}",
            c.target,
            c.subject.as_deref().unwrap_or_default()
        )?;
        report_lines(w, &c.report, Stream::Stdout)?;
        if c.verdict == Verdict::NeedsApproval {
            writeln!(
                w,
                "    fix the code, not the test; or approve: {}  (or label the PR/MR `{}`)",
                override_command(&c.target),
                s.override_label
            )?;
        } else {
            writeln!(w, "    approved {}", via_text(c))?;
            approval_lines(w, c)?;
        }
    }
    if s.counts.clean > 0 {
        writeln!(w)?;
        writeln!(
            w,
            "clean  {} {} change nothing protected",
            s.counts.clean,
            plural(s.counts.clean, "commit", "commits")
        )?;
    }
    Ok(())
}

/// `git guard ci --format json`: one stable document (schema in README).
pub fn ci_json(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, s)?;
    writeln!(w)
}

/// Escapes a GitHub workflow-command message (`%`, CR, LF).
fn gh_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a GitHub workflow-command property (also `:` and `,`).
fn gh_property(text: &str) -> String {
    gh_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=…,line=…::` annotations for every unapproved protected path and finding.
pub fn ci_github_annotations(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    for c in s
        .commits
        .iter()
        .filter(|c| c.verdict == Verdict::NeedsApproval)
    {
        for p in &c.report.protected {
            for m in &p.matched {
                writeln!(
                    w,
                    "::error file={},title={}::{}",
                    gh_property(&String::from_utf8_lossy(&m.path)),
                    gh_property("git-guard: protected change without approval"),
                    gh_data(&format!(
                        "Commit {} changes this protected path (pattern `{}`) without an approval note. \
                         Fix the code under test, or approve: {}",
                        c.target,
                        m.pattern,
                        override_command(&c.target)
                    ))
                )?;
            }
        }
        for f in c.report.findings.iter().filter(|f| f.blocking) {
            let line = f.line.map(|l| format!(",line={l}")).unwrap_or_default();
            writeln!(
                w,
                "::error file={}{line},title={}::{}",
                gh_property(&String::from_utf8_lossy(&f.path)),
                gh_property(&format!("git-guard: {}", f.kind)),
                gh_data(&format!("{} (commit {})", f.detail, c.target))
            )?;
        }
    }
    Ok(())
}

/// Markdown for `$GITHUB_STEP_SUMMARY`.
pub fn ci_markdown(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    writeln!(
        w,
        "## git-guard: {}",
        if s.blocked { "blocked" } else { "ok" }
    )?;
    writeln!(w)?;
    if s.test_only_weakening {
        writeln!(
            w,
            "> **This range changes only protected test code and weakens it.**"
        )?;
        writeln!(w)?;
    }
    writeln!(
        w,
        "{} commits in `{}..{}`: {} need approval, {} approved, {} clean. Policy: {}.",
        s.counts.commits,
        s.base,
        s.head,
        s.counts.needs_approval,
        s.counts.approved,
        s.counts.clean,
        s.policy
    )?;
    writeln!(w)?;
    writeln!(
        w,
        "| commit | verdict | protected paths | findings | reason |"
    )?;
    writeln!(w, "|---|---|---|---|---|")?;
    for c in s.commits.iter().filter(|c| c.verdict != Verdict::Clean) {
        let paths: Vec<String> = c
            .report
            .protected
            .iter()
            .flat_map(|p| &p.matched)
            .map(|m| format!("`{}`", path(&m.path)))
            .collect();
        let findings: Vec<String> = c
            .report
            .findings
            .iter()
            .map(|f| f.kind.to_string())
            .collect();
        let reason = c
            .approvals
            .iter()
            .map(|a| format!("{} ({}, {})", a.reason, a.by, a.at))
            .collect::<Vec<_>>()
            .join("; ");
        let verdict = match c.verdict {
            Verdict::NeedsApproval => "**needs approval**".to_string(),
            _ => format!("approved {}", via_text(c)),
        };
        writeln!(
            w,
            "| `{}` {} | {verdict} | {} | {} | {} |",
            c.target,
            c.subject.as_deref().unwrap_or_default().replace('|', "\\|"),
            paths.join(" "),
            findings.join(", "),
            reason.replace('|', "\\|")
        )?;
    }
    Ok(())
}

/// `git guard run` recorded an attempt.
pub fn attempt_recorded(
    w: &mut dyn Write,
    used: u32,
    budget: u32,
    entry: &crate::ledger::Entry,
) -> io::Result<()> {
    let outcome = match (entry.exit, entry.signal) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        (None, None) => "unknown exit".into(),
    };
    writeln!(
        w,
        "git-guard: attempt {used} of {budget} recorded ({outcome}, {:.1}s)",
        entry.seconds.unwrap_or_default()
    )?;
    if let Some(paths) = entry.protected_changed.as_ref().filter(|p| !p.is_empty()) {
        writeln!(w, "  touched protected paths: {}", paths.join(", "))?;
    }
    if let Some(findings) = entry.findings.as_ref().filter(|f| !f.is_empty()) {
        writeln!(w, "  weakening: {}", findings.join("; "))?;
    }
    Ok(())
}

/// `git guard ledger --reset`.
pub fn ledger_reset(w: &mut dyn Write, path: &str, budget: u32) -> io::Result<()> {
    writeln!(
        w,
        "New attempt budget started ({budget} attempts); earlier history stays in {path}."
    )
}

/// What `git guard ledger` reports for the current budget period.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LedgerStats {
    /// Attempts in this period.
    pub attempts: usize,
    /// The budget.
    pub budget: u32,
    /// Attempts whose command failed (non-zero exit or a signal).
    pub failures: usize,
    /// Blocks by hooks in this period.
    pub blocked: usize,
    /// Total seconds spent in attempts.
    pub seconds: f64,
    /// Lines in the whole file, every period included.
    pub total_lines: usize,
    /// Attempts that touched protected paths, in order.
    pub touched_protected: Vec<LedgerAttempt>,
}

/// One attempt that touched protected paths.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LedgerAttempt {
    /// Its number in the period (1-based).
    pub attempt: usize,
    /// When.
    pub ts: String,
    /// Its exit code.
    pub exit: Option<i32>,
    /// The protected paths it changed.
    pub protected_changed: Vec<String>,
    /// The weakening findings in its changes.
    pub findings: Vec<String>,
}

impl LedgerStats {
    /// Summarises the entries of one budget period.
    pub fn new(period: &[crate::ledger::Entry], budget: u32, total_lines: usize) -> LedgerStats {
        let attempts: Vec<&crate::ledger::Entry> =
            period.iter().filter(|e| e.kind == "attempt").collect();
        LedgerStats {
            attempts: attempts.len(),
            budget,
            failures: attempts.iter().filter(|e| e.exit != Some(0)).count(),
            blocked: period.iter().filter(|e| e.kind == "blocked").count(),
            seconds: attempts.iter().filter_map(|e| e.seconds).sum(),
            total_lines,
            touched_protected: attempts
                .iter()
                .enumerate()
                .filter(|(_, e)| e.protected_changed.as_ref().is_some_and(|p| !p.is_empty()))
                .map(|(i, e)| LedgerAttempt {
                    attempt: i + 1,
                    ts: e.ts.clone(),
                    exit: e.exit,
                    protected_changed: e.protected_changed.clone().unwrap_or_default(),
                    findings: e.findings.clone().unwrap_or_default(),
                })
                .collect(),
        }
    }
}

/// `git guard ledger` as text.
pub fn ledger_text(w: &mut dyn Write, s: &LedgerStats, path: &str) -> io::Result<()> {
    writeln!(w, "ledger {path}")?;
    writeln!(w, "  attempts:  {} of {} used", s.attempts, s.budget)?;
    writeln!(w, "  failures:  {}", s.failures)?;
    writeln!(w, "  blocked:   {} by hooks", s.blocked)?;
    writeln!(w, "  time:      {:.1}s in attempts", s.seconds)?;
    if s.touched_protected.is_empty() {
        writeln!(w, "  no attempt touched protected paths")?;
    }
    for a in &s.touched_protected {
        let exit = a.exit.map_or("signal".to_string(), |c| format!("exit {c}"));
        writeln!(
            w,
            "  attempt {} ({}, {exit}) touched {}",
            a.attempt,
            a.ts,
            a.protected_changed.join(", ")
        )?;
        for f in &a.findings {
            writeln!(w, "    ! {f}")?;
        }
    }
    Ok(())
}

/// `git guard ledger --format json`.
pub fn ledger_json(w: &mut dyn Write, s: &LedgerStats) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, s)?;
    writeln!(w)
}

/// A block could not be written to the ledger; the block itself stands.
pub fn ledger_write_failed(w: &mut dyn Write, message: &str) -> io::Result<()> {
    writeln!(
        w,
        "git-guard: warning: could not record this block in the ledger: {message}"
    )
}
