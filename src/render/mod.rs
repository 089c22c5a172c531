//! Every word the user sees, by audience: hook and approval messages (`hook`), `check`
//! and `log` (`check`), the CI summary (`ci`), the test-report comparison and test
//! approvals (`reports`), the ledger (`ledger`), setup (`setup`) and coding agents
//! (`agent`).
//!
//! Commands decide; this module says it, through the [`Ui`] it is handed. Paths are
//! shown quoted the way git quotes them.

use std::io::{self, Write};

use crate::paths::quote_path;
use crate::policy::PolicySource;
use crate::report::Report;
use crate::settings::FindingsDetail;
use crate::signature::Trust;
use crate::ui::{Role, Stream, Ui};
use crate::verdict::ApprovalProblem;

mod agent;
mod check;
mod ci;
mod hook;
mod ledger;
mod reports;
mod setup;

pub use agent::*;
pub use check::*;
pub use ci::*;
pub use hook::*;
pub use ledger::*;
pub use reports::*;
pub use setup::*;

/// Output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// For people.
    #[default]
    Text,
    /// One stable JSON document (see docs/reference.md, "JSON output").
    Json,
}

/// Output format of `ci`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CiFormat {
    /// For people.
    #[default]
    Text,
    /// One stable JSON document (see docs/reference.md, "JSON output").
    Json,
    /// Text plus `::error` annotations, and Markdown appended to $GITHUB_STEP_SUMMARY.
    Github,
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
pub fn defaults_notice(ui: &Ui, w: &mut dyn Write, source: &PolicySource) -> io::Result<()> {
    if ui.quiet() {
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
pub fn report_lines(ui: &Ui, w: &mut dyn Write, report: &Report, stream: Stream) -> io::Result<()> {
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
        let mut reasons: Vec<&str> = p
            .matched
            .iter()
            .filter_map(|m| m.reason.as_deref())
            .collect();
        reasons.dedup(); // a rename names the reason once
        let why = if reasons.is_empty() {
            String::new()
        } else {
            format!("{}; ", reasons.join("; "))
        };
        let submodule = match &p.submodule {
            Some(s) => {
                let side = |id: &Option<String>| {
                    id.as_deref()
                        .map_or("none".to_string(), |id| id.chars().take(7).collect())
                };
                format!("; submodule {} -> {}", side(&s.old), side(&s.new))
            }
            None => String::new(),
        };
        writeln!(
            w,
            "  {} {shown}  ({why}protected by {}{submodule})",
            p.status.letter(),
            patterns.join(", ")
        )?;
    }
    for p in &report.strengthened {
        writeln!(
            w,
            "  + {}  (only adds tests and checks: a strengthening, no reason needed)",
            path(p)
        )?;
    }
    for f in &report.findings {
        let at = f.location();
        let (mark, severity) = if f.blocking {
            (ui.paint(stream, Role::Blocked, "!"), "")
        } else {
            (ui.paint(stream, Role::Warning, "!"), " (warning only)")
        };
        match ui.findings() {
            FindingsDetail::Detail => {
                writeln!(w, "  {mark} {} {at}: {}{severity}", f.kind, f.detail)?
            }
            FindingsDetail::Summary => writeln!(w, "  {mark} {} {at}{severity}", f.kind)?,
        }
    }
    Ok(())
}

/// Why the approvals found do not count, one line each (stale, too short, …).
pub fn problem_lines(w: &mut dyn Write, problems: &[ApprovalProblem]) -> io::Result<()> {
    for problem in problems {
        let text = match problem {
            ApprovalProblem::Stale => {
                "approval is stale: the change was edited after it was approved"
            }
            ApprovalProblem::ReasonTooShort => {
                "an approval's reason is shorter than this policy's minimum"
            }
            ApprovalProblem::Signature(code) => match *code {
                "unsigned" => {
                    "unsigned approval: this repository requires a signature by a listed key"
                }
                "unknown-key" => {
                    "unknown key: the approval is signed by a key not in the signers file"
                }
                "bad-signature" => {
                    "bad signature: forged, or the approval was edited after it was signed"
                }
                "no-presence" => {
                    "no user presence: this repository requires a security-key signature with a touch"
                }
                "principal-mismatch" => {
                    "the signing key is not listed for the approver's email in the signers file"
                }
                _ => "an approval's signature does not count here",
            },
        };
        writeln!(w, "  ! {text}")?;
    }
    Ok(())
}

/// Who stands behind an approval, as people read it.
pub fn trust_text(trust: &Trust) -> String {
    match trust {
        Trust::Verified {
            principal,
            key_type,
            fingerprint,
        } => format!("signed by {principal}, {key_type} {fingerprint}"),
        Trust::Unsigned => {
            "unsigned: anyone with push access, an agent included, could have written this".into()
        }
        Trust::Rejected(_, detail) => format!("signature rejected: {detail}"),
    }
}

/// A one-line count: "1 protected path, 1 finding in 3 changed files".
pub(crate) fn summary(report: &Report) -> String {
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

pub(crate) fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// The prompt label.
pub const REASON_PROMPT: &str = "Reason";

/// The validator's message for a short reason.
pub fn reason_too_short(length: usize, min: usize) -> String {
    format!("please write at least {min} characters ({length} so far)")
}

/// The command a human runs in their own terminal to approve one commit (it asks for
/// the reason there). Only ever shown as a human's step, never as an agent's.
pub fn override_command(target: &str) -> String {
    format!("git guard override {target}")
}
