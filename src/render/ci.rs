//! Words of `git guard ci`: the review summary, JSON, GitHub annotations and Markdown.

use std::io::{self, Write};

use super::{
    override_command, path, plural, problem_lines, report_lines, tests_annotations, tests_banner,
    tests_markdown, tests_text, trust_text,
};
use crate::ui::{Role, Stream, Ui};
use crate::verdict::{ApprovedBy, Checked, CiSummary, Verdict};

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
    match &c.verdict {
        Verdict::Approved(ApprovedBy::PatchId { original }) => format!(
            "by the note on {}, an identical patch (rebased or cherry-picked; its note did not follow)",
            short(original)
        ),
        Verdict::Approved(ApprovedBy::Label(label)) => {
            format!("by the PR/MR label `{label}` (Guard-Via: label)")
        }
        Verdict::Approved(ApprovedBy::Note) => "by note".to_string(),
        _ => String::new(),
    }
}

fn approval_lines(w: &mut dyn Write, c: &Checked) -> io::Result<()> {
    for a in &c.approvals {
        writeln!(w, "    reason: {}", a.reason)?;
        writeln!(w, "            {} at {} via {}", a.by, a.at, a.via)?;
        writeln!(w, "            {}", trust_text(&a.trust))?;
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
pub fn ci_text(ui: &Ui, w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    writeln!(
        w,
        "git-guard ci: {} {} in {}..{} ({}; policy: {})",
        s.counts.commits,
        plural(s.counts.commits, "commit", "commits"),
        short(&s.base),
        short(&s.head),
        s.provider,
        s.policy
    )?;
    if s.before_adoption > 0 {
        writeln!(
            w,
            "{} {} from before git-guard was adopted (no guard.toml in the parent) not judged.",
            s.before_adoption,
            plural(s.before_adoption, "commit", "commits")
        )?;
    }
    if let Some(workflow) = &s.untrusted_workflow {
        writeln!(
            w,
            "!! This range edits {workflow}, the workflow running this check: its flags and labels are ignored."
        )?;
    }
    if s.test_only_vanishing {
        tests_banner(w)?;
    }
    if s.test_only_weakening {
        writeln!(
            w,
            "!! This range changes only protected test code and weakens it: the shape of a \"make CI green\" change."
        )?;
    }
    if s.counts.needs_approval > 0 {
        writeln!(
            w,
            "{} {} {} protected paths without an approval.",
            ui.paint(Stream::Stdout, Role::Blocked, "BLOCKED:"),
            s.counts.needs_approval,
            plural(s.counts.needs_approval, "commit changes", "commits change")
        )?;
    }
    let tests_unapproved = s.tests.as_ref().map_or(0, |t| t.unapproved().len());
    if tests_unapproved > 0 {
        writeln!(
            w,
            "{} {tests_unapproved} {} or newly skipped in the test reports without an approval.",
            ui.paint(Stream::Stdout, Role::Blocked, "BLOCKED:"),
            plural(tests_unapproved, "test vanished", "tests vanished")
        )?;
    }
    if !s.blocked {
        writeln!(
            w,
            "{} every protected change is approved.",
            ui.paint(Stream::Stdout, Role::Good, "OK:")
        )?;
    }
    // Risk order: the test reports lead when tests vanished in a test-only range;
    // otherwise they come after the commits of the same verdict.
    let tests_rank = s.tests.as_ref().map(|t| {
        if t.ranked_first() {
            0
        } else {
            verdict_rank(&t.verdict)
        }
    });
    let mut tests_shown = false;
    let mut show_tests = |w: &mut dyn Write, before: usize| -> io::Result<()> {
        if let (Some(t), Some(rank)) = (&s.tests, tests_rank)
            && !tests_shown
            && rank < before
        {
            tests_shown = true;
            writeln!(w)?;
            tests_text(ui, w, t, &s.head, &s.override_label)?;
        }
        Ok(())
    };
    for c in s.commits.iter().filter(|c| c.verdict != Verdict::Clean) {
        show_tests(w, verdict_rank(&c.verdict) + 1)?;
        writeln!(w)?;
        let label = if c.verdict == Verdict::NeedsApproval {
            ui.paint(Stream::Stdout, Role::Blocked, "NEEDS APPROVAL")
        } else {
            ui.paint(Stream::Stdout, Role::Good, "approved")
        };
        writeln!(
            w,
            "{label}  {} {}",
            c.target,
            c.subject.as_deref().unwrap_or_default()
        )?;
        report_lines(ui, w, &c.report, Stream::Stdout)?;
        problem_lines(w, &c.problems)?;
        if c.verdict == Verdict::NeedsApproval {
            writeln!(
                w,
                "    fix the code, not the test; if the test must change, a human approves in their own terminal:\n    {}  (or labels the PR/MR `{}`); an approval made after the push reaches CI once the notes\n    are pushed too: git push origin refs/notes/guard",
                override_command(&c.target),
                s.override_label
            )?;
        } else {
            writeln!(w, "    approved {}", via_text(c))?;
            approval_lines(w, c)?;
        }
    }
    show_tests(w, usize::MAX)?;
    let strengthening: Vec<&Checked> = s
        .commits
        .iter()
        .filter(|c| c.verdict == Verdict::Clean && !c.report.strengthened.is_empty())
        .collect();
    if !strengthening.is_empty() {
        writeln!(w)?;
        for c in strengthening {
            let paths: Vec<String> = c.report.strengthened.iter().map(|p| path(p)).collect();
            writeln!(
                w,
                "strengthened  {} {} only adds tests and checks: {}",
                c.target,
                c.subject.as_deref().unwrap_or_default(),
                paths.join(", ")
            )?;
        }
    }
    // Strengthening commits are clean too, and listed above by name.
    let plain_clean = s
        .commits
        .iter()
        .filter(|c| c.verdict == Verdict::Clean && c.report.strengthened.is_empty())
        .count();
    if plain_clean > 0 {
        writeln!(w)?;
        writeln!(
            w,
            "clean  {} {} nothing protected",
            plain_clean,
            plural(plain_clean, "commit changes", "commits change")
        )?;
    }
    Ok(())
}

/// 1 for what needs approval, 2 for approved, 3 for clean (0 is reserved for the test
/// reports when they lead).
fn verdict_rank(verdict: &Verdict) -> usize {
    match verdict {
        Verdict::NeedsApproval => 1,
        Verdict::Approved(_) => 2,
        Verdict::Clean => 3,
    }
}

/// `git guard ci --format json`: one stable document (schema in README).
pub fn ci_json(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, s)?;
    writeln!(w)
}

/// A full commit id abbreviated as git shows it.
fn short(id: &str) -> &str {
    &id[..id.len().min(7)]
}

/// Escapes a GitHub workflow-command message (`%`, CR, LF).
pub(super) fn gh_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a GitHub workflow-command property (also `:` and `,`).
pub(super) fn gh_property(text: &str) -> String {
    gh_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=…,line=…::` annotations for every unapproved protected path and finding,
/// and `::error` for each unapproved test finding of the reports.
pub fn ci_github_annotations(w: &mut dyn Write, s: &CiSummary) -> io::Result<()> {
    if let Some(t) = &s.tests {
        tests_annotations(w, t, &s.head)?;
    }
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
                        "Commit {} changes this protected path (pattern `{}`{}) without an approval note. \
                         Fix the code under test; if the test must change, a human approves in their own terminal: {}",
                        c.target,
                        m.pattern,
                        m.reason
                            .as_deref()
                            .map(|r| format!(": {r}"))
                            .unwrap_or_default(),
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
    if s.test_only_vanishing {
        writeln!(
            w,
            "> **Tests vanished from the reports of a range that changes only test code or runner configuration.**"
        )?;
        writeln!(w)?;
    }
    if s.test_only_weakening {
        writeln!(
            w,
            "> **This range changes only protected test code and weakens it.**"
        )?;
        writeln!(w)?;
    }
    if let Some(t) = s.tests.as_ref().filter(|t| t.ranked_first()) {
        tests_markdown(w, t)?;
        writeln!(w)?;
    }
    writeln!(
        w,
        "{} commits in `{}..{}`: {} need approval, {} approved, {} clean. Policy: {}.",
        s.counts.commits,
        short(&s.base),
        short(&s.head),
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
            .map(|m| match &m.reason {
                Some(reason) => format!("`{}` ({})", path(&m.path), reason.replace('|', "\\|")),
                None => format!("`{}`", path(&m.path)),
            })
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
    if let Some(t) = s.tests.as_ref().filter(|t| !t.ranked_first()) {
        writeln!(w)?;
        tests_markdown(w, t)?;
    }
    Ok(())
}
