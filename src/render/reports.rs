//! Words of the test-report comparison (`--results`/`--baseline` on `ci` and
//! `check --range`) and of approving tests (`override --tests`).

use std::io::{self, Write};

use super::plural;
use crate::reports::{Counts, Status};
use crate::ui::{Role, Stream, Ui};
use crate::verdict::{ApprovedBy, TestFinding, TestsChecked, Verdict};

/// At most this many ids are spelled out in a suggested `override --tests` command.
const IDS_IN_COMMAND: usize = 8;

/// At most this many findings (and as many new tests) are listed in text, Markdown and
/// annotations; the JSON lists all of them.
const LISTED: usize = 50;

fn more(w: &mut dyn Write, total: usize, what: &str) -> io::Result<()> {
    if total > LISTED {
        writeln!(
            w,
            "    … and {} more {what} (`--format json` lists every one)",
            total - LISTED
        )?;
    }
    Ok(())
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Skipped => "skipped",
        Status::Failed => "failed",
        Status::Error => "errored",
    }
}

/// "8 tests (6 passed, 2 skipped)".
pub fn counts_text(c: &Counts) -> String {
    let mut parts = vec![format!("{} passed", c.passed)];
    for (n, word) in [
        (c.failed, "failed"),
        (c.errors, "errored"),
        (c.skipped, "skipped"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    format!(
        "{} {} ({})",
        c.total,
        plural(c.total, "test", "tests"),
        parts.join(", ")
    )
}

fn files_text(files: &[String]) -> String {
    match files {
        [one] => one.clone(),
        few if few.len() <= 3 => few.join(", "),
        many => format!("{} files", many.len()),
    }
}

/// What a finding means, in words.
pub fn finding_text(f: &TestFinding<'_>) -> String {
    let after = if f.kind == crate::reports::TEST_VANISHED {
        "absent at the head"
    } else {
        "skipped at the head"
    };
    format!(
        "{} {}: {} at the base, {after}",
        f.kind,
        f.id,
        status_word(f.base)
    )
}

/// A word for the shell: bare when it is made of safe characters, else single-quoted.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:@=+,".contains(&b))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command with which a human approves exactly `ids` on the head commit.
pub fn tests_override_command(head: &str, ids: &[String]) -> String {
    let listed = if ids.len() <= IDS_IN_COMMAND {
        ids.iter()
            .map(|id| shell_quote(id))
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        "<each id listed above>".to_string()
    };
    format!("git guard override {head} --tests {listed}")
}

fn headline(t: &TestsChecked) -> String {
    let c = &t.comparison;
    format!(
        "test reports: {} vanished, {} newly skipped",
        c.vanished.len(),
        c.newly_skipped.len()
    )
}

/// The test-report part of a summary: the counts, each finding, new tests, and the way
/// out. `head` names the commit an approval goes on; `label` is the override label.
pub fn tests_text(
    ui: &Ui,
    w: &mut dyn Write,
    t: &TestsChecked,
    head: &str,
    label: &str,
) -> io::Result<()> {
    let c = &t.comparison;
    match &t.verdict {
        Verdict::Clean => writeln!(
            w,
            "{}  test reports: nothing that ran at the base vanished or is skipped at the head",
            ui.paint(Stream::Stdout, Role::Good, "tests")
        )?,
        Verdict::NeedsApproval => writeln!(
            w,
            "{}  {}",
            ui.paint(Stream::Stdout, Role::Blocked, "NEEDS APPROVAL"),
            headline(t)
        )?,
        Verdict::Approved(_) => writeln!(
            w,
            "{}  {}",
            ui.paint(Stream::Stdout, Role::Good, "approved"),
            headline(t)
        )?,
    }
    writeln!(
        w,
        "    base: {} in {}",
        counts_text(&c.base),
        files_text(&t.base_files)
    )?;
    writeln!(
        w,
        "    head: {} in {}",
        counts_text(&c.head),
        files_text(&t.head_files)
    )?;
    let findings = t.findings();
    for f in findings.iter().take(LISTED) {
        let approved = match t.approved_by(f.id) {
            Some(ApprovedBy::Note) => " (approved: a note names it)",
            Some(_) => " (approved by the label)",
            None => "",
        };
        let mark = if approved.is_empty() {
            ui.paint(Stream::Stdout, Role::Blocked, "!")
        } else {
            ui.paint(Stream::Stdout, Role::Good, "!")
        };
        writeln!(w, "  {mark} {}{approved}", finding_text(f))?;
    }
    more(w, findings.len(), "findings")?;
    for a in c.added.iter().take(LISTED) {
        writeln!(w, "  + new {}: {} at the head", a.id, status_word(a.head))?;
    }
    more(w, c.added.len(), "new tests")?;
    if !c.vanished.is_empty() && !c.added.is_empty() {
        writeln!(
            w,
            "    a renamed test shows as one vanished and one new: if a rename is all that happened, approve the old id"
        )?;
    }
    match &t.verdict {
        Verdict::NeedsApproval => {
            let ids: Vec<String> = t.unapproved().iter().map(|f| f.id.to_string()).collect();
            writeln!(
                w,
                "    fix the code or the configuration that stopped them running; if they must go, a human approves exactly these ids in their own terminal: {}  (or labels the PR/MR `{label}`)",
                tests_override_command(head, &ids)
            )?;
        }
        Verdict::Approved(ApprovedBy::Label(label)) => writeln!(
            w,
            "    approved by the PR/MR label `{label}` (Guard-Via: label)"
        )?,
        _ => {}
    }
    for a in &t.approvals {
        writeln!(w, "    reason: {}", a.reason)?;
        writeln!(w, "            {} at {} via {}", a.by, a.at, a.via)?;
        writeln!(w, "            names {}", a.tests.join(", "))?;
    }
    Ok(())
}

/// The banner above everything else when tests vanished in a range that changes only
/// test code or runner configuration.
pub fn tests_banner(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "!! Tests vanished from the reports of a range that changes only test code or runner configuration: the shape of a deselect."
    )
}

/// `::error` annotations for each unapproved test finding (no file: reports name tests).
pub fn tests_annotations(w: &mut dyn Write, t: &TestsChecked, head: &str) -> io::Result<()> {
    for f in t.unapproved().into_iter().take(LISTED) {
        writeln!(
            w,
            "::error title={}::{}",
            super::ci::gh_property(&format!("git-guard: {}", f.kind)),
            super::ci::gh_data(&format!(
                "{} (head {head}). Fix what stopped it running, or a human approves it: {}",
                finding_text(&f),
                tests_override_command(head, &[f.id.to_string()])
            ))
        )?;
    }
    Ok(())
}

/// Markdown for `$GITHUB_STEP_SUMMARY`: counts, then one row per finding.
pub fn tests_markdown(w: &mut dyn Write, t: &TestsChecked) -> io::Result<()> {
    let c = &t.comparison;
    writeln!(w, "### Test reports")?;
    writeln!(w)?;
    writeln!(w, "| | tests | passed | failed | errored | skipped |")?;
    writeln!(w, "|---|---|---|---|---|---|")?;
    for (side, n) in [("base", &c.base), ("head", &c.head)] {
        writeln!(
            w,
            "| {side} | {} | {} | {} | {} | {} |",
            n.total, n.passed, n.failed, n.errors, n.skipped
        )?;
    }
    writeln!(w)?;
    let verdict = match &t.verdict {
        Verdict::Clean => "nothing that ran at the base vanished or is newly skipped".to_string(),
        Verdict::NeedsApproval => format!("**needs approval**: {}", headline(t)),
        Verdict::Approved(ApprovedBy::Label(label)) => {
            format!("approved by the PR/MR label `{label}`: {}", headline(t))
        }
        Verdict::Approved(_) => format!("approved by notes naming every id: {}", headline(t)),
    };
    writeln!(w, "{verdict}.")?;
    let findings = t.findings();
    if findings.is_empty() && c.added.is_empty() {
        return Ok(());
    }
    writeln!(w)?;
    writeln!(w, "| finding | test | at the base | approved |")?;
    writeln!(w, "|---|---|---|---|")?;
    let cell = |text: String| text.replace('|', "\\|");
    for f in findings.iter().take(LISTED) {
        let approved = match t.approved_by(f.id) {
            Some(ApprovedBy::Note) => "by note",
            Some(_) => "by label",
            None => "**no**",
        };
        writeln!(
            w,
            "| {} | `{}` | {} | {approved} |",
            f.kind,
            cell(f.id.to_string()),
            status_word(f.base)
        )?;
    }
    for a in c.added.iter().take(LISTED) {
        writeln!(w, "| new | `{}` | absent | |", cell(a.id.to_string()))?;
    }
    let hidden = findings.len().saturating_sub(LISTED) + c.added.len().saturating_sub(LISTED);
    if hidden > 0 {
        writeln!(w)?;
        writeln!(
            w,
            "… and {hidden} more rows (`git guard ci --format json` lists every one)."
        )?;
    }
    Ok(())
}

/// What `override --tests` is about to approve, shown before the reason is asked.
pub fn tests_prompt_intro(target: &str, ids: &[String]) -> String {
    let mut text = format!(
        "Approving, on commit {target}, that {} no longer {} or {} skipped:\n",
        plural(ids.len(), "this test", "these tests"),
        plural(ids.len(), "runs", "run"),
        plural(ids.len(), "is", "are"),
    );
    for id in ids {
        text.push_str(&format!("  {id}\n"));
    }
    text.push_str("Only these ids are approved; any other test that vanishes still blocks.\n");
    text
}

/// `override --tests` wrote its note.
pub fn tests_override_done(
    w: &mut dyn Write,
    target: &str,
    ids: &[String],
    notes_ref: &str,
) -> io::Result<()> {
    writeln!(
        w,
        "Approved {} {} on {target} (Guard-Tests in {notes_ref}):",
        ids.len(),
        plural(ids.len(), "test", "tests")
    )?;
    for id in ids {
        writeln!(w, "  {id}")?;
    }
    writeln!(
        w,
        "Push the notes with the branch (`git push origin HEAD {notes_ref}`; the pre-push hook does it) so CI sees them."
    )
}
