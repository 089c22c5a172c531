//! Words of `git guard check` and `git guard log`.

use std::io::{self, Write};

use super::{
    defaults_notice, path, plural, policy_source, problem_lines, report_lines, summary,
    tests_banner, tests_text, trust_text,
};
use crate::notes::Approval;
use crate::policy::PolicySource;
use crate::signature::Trust;
use crate::ui::{Role, Stream, Ui};
use crate::verdict::{Checked, TestsChecked, Verdict};

/// The test reports compared by `check --range … --results … --baseline …`, with what
/// their words need: the head an approval goes on and the override label.
#[derive(Debug, Clone, Copy)]
pub struct TestsPart<'a> {
    /// The comparison, judged.
    pub checked: &'a TestsChecked,
    /// Short id of the range's head.
    pub head: &'a str,
    /// The override label of the policy.
    pub label: &'a str,
}

/// `check` as text; `tests`, when reports were compared, after the commits (first when
/// tests vanished in a range that changes only test code or runner configuration).
pub fn check_text(
    ui: &Ui,
    w: &mut dyn Write,
    checked: &[Checked],
    tests: Option<TestsPart<'_>>,
    source: &PolicySource,
) -> io::Result<()> {
    let first = tests.filter(|t| t.checked.ranked_first());
    if let Some(t) = first {
        tests_banner(w)?;
        tests_text(ui, w, t.checked, t.head, t.label)?;
    }
    defaults_notice(ui, w, source)?;
    if checked.is_empty() {
        writeln!(w, "Nothing to check: nothing is staged.")?;
    }
    for c in checked {
        let title = match &c.subject {
            Some(subject) => format!("commit {} {subject}", c.target),
            None => "staged changes".to_string(),
        };
        writeln!(w, "{title}: {}", summary(&c.report))?;
        report_lines(ui, w, &c.report, Stream::Stdout)?;
        problem_lines(w, &c.problems)?;
        for a in &c.approvals {
            writeln!(
                w,
                "  approved via {} by {} at {}: {}",
                a.via, a.by, a.at, a.reason
            )?;
            writeln!(w, "    {}", trust_text(&a.trust))?;
        }
        let verdict = match c.verdict {
            Verdict::Clean => ui.paint(Stream::Stdout, Role::Good, "nothing needs approval"),
            Verdict::Approved(_) => ui.paint(Stream::Stdout, Role::Good, "approved"),
            Verdict::NeedsApproval => ui.paint(Stream::Stdout, Role::Blocked, "NEEDS APPROVAL"),
        };
        writeln!(w, "  => {verdict}")?;
    }
    if let Some(t) = tests.filter(|t| !t.checked.ranked_first()) {
        tests_text(ui, w, t.checked, t.head, t.label)?;
    }
    writeln!(w, "policy: {}", policy_source(source))
}

/// `check --format json`: `{"policy": …, "checked": [...], "tests": …}`, one document
/// (`tests` is `null` unless reports were compared).
pub fn check_json(
    w: &mut dyn Write,
    checked: &[Checked],
    tests: Option<&TestsChecked>,
    source: &PolicySource,
) -> io::Result<()> {
    let value = serde_json::json!({
        "version": 1,
        "policy": policy_source(source),
        "blocked": checked.iter().any(|c| c.verdict == Verdict::NeedsApproval)
            || tests.is_some_and(|t| t.verdict == Verdict::NeedsApproval),
        "checked": checked,
        "tests": tests,
    });
    serde_json::to_writer_pretty(&mut *w, &value)?;
    writeln!(w)
}

/// One commit's approvals for `git guard log`.
pub fn log_entry(
    w: &mut dyn Write,
    commit: &str,
    subject: &str,
    approvals: &[(Approval, Trust)],
) -> io::Result<()> {
    writeln!(w, "{commit} {subject}")?;
    for (a, trust) in approvals {
        writeln!(w, "  reason:   {}", a.reason)?;
        writeln!(w, "  by:       {} at {} via {}", a.by, a.at, a.via)?;
        writeln!(w, "  trust:    {}", trust_text(trust))?;
        for p in &a.paths {
            writeln!(w, "  path:     {}", path(p))?;
        }
        for f in &a.findings {
            writeln!(w, "  finding:  {f}")?;
        }
        for t in &a.tests {
            writeln!(w, "  test:     {t}")?;
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
