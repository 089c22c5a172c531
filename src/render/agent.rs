//! Words for coding agents: the agent hook's decision and its reasons.

use std::io::{self, Write};

use super::path;
use crate::agent::Decision;
use crate::report::Report;

/// The reason an agent's edit is refused: the findings and what to do instead.
fn agent_denial(report: &Report) -> String {
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
fn agent_question(report: &Report) -> String {
    let paths: Vec<String> = report.approval_paths().iter().map(|p| path(p)).collect();
    let mut reasons: Vec<&str> = report
        .protected
        .iter()
        .flat_map(|p| &p.matched)
        .filter_map(|m| m.reason.as_deref())
        .collect();
    reasons.dedup();
    let why = if reasons.is_empty() {
        String::new()
    } else {
        format!(" ({})", reasons.join("; "))
    };
    format!(
        "git-guard: {} protected by guard.toml{why} (it decides whether the tests pass). \
         Allow the agent to change it? The commit will still need a human's reason.",
        paths.join(", ")
    )
}

/// A Claude Code `PreToolUse` answer: nothing for no opinion, else the JSON decision.
pub fn claude_code_decision(w: &mut dyn Write, decision: &Decision) -> io::Result<()> {
    let (verdict, reason) = match decision {
        Decision::Pass => return Ok(()),
        Decision::Ask(report) => ("ask", agent_question(report)),
        Decision::Deny(report) => ("deny", agent_denial(report)),
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
