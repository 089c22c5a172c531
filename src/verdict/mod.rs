//! The verdict as a value: what was judged, what it needs, and what approved it.
//!
//! No text here: `render` turns these into words. A [`Verdict`] cannot say "clean" and
//! "approved by a label" at once, and only an approved verdict names what approved it.

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::notes::{Approval, Via};
use crate::paths::serialize_paths;
use crate::report::Report;
use crate::signature::Trust;

/// How one change or commit was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No approval needed.
    Clean,
    /// Needs approval and has one.
    Approved(ApprovedBy),
    /// Needs approval and has none.
    NeedsApproval,
}

impl Verdict {
    /// The verdict's word in JSON (`clean`, `approved`, `needs-approval`).
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Clean => "clean",
            Verdict::Approved(_) => "approved",
            Verdict::NeedsApproval => "needs-approval",
        }
    }

    /// Whether an approval was found.
    pub fn is_approved(&self) -> bool {
        matches!(self, Verdict::Approved(_))
    }
}

/// What approved a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovedBy {
    /// A note on the commit (or a pending approval for a staged change).
    Note,
    /// A note on another commit (`original`, its full id) with the same change: the
    /// commit was rebased or cherry-picked and its note did not follow.
    PatchId {
        /// The commit that carries the note.
        original: String,
    },
    /// The PR/MR label.
    Label(String),
}

impl ApprovedBy {
    /// The word in JSON's `approved_via`.
    pub fn word(&self) -> &'static str {
        match self {
            ApprovedBy::Note => "note",
            ApprovedBy::PatchId { .. } => "patch-id",
            ApprovedBy::Label(_) => "label",
        }
    }
}

/// Why an approval that was found does not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ApprovalProblem {
    /// It names a path of this change with other content: the change was edited after
    /// it was approved (amend, fixup, re-staged).
    Stale,
    /// Its reason is shorter than the policy's minimum.
    ReasonTooShort,
    /// Its signature does not count here (`unsigned` where signatures are required,
    /// `unknown-key`, `bad-signature`, `no-presence`, …).
    Signature(&'static str),
}

impl ApprovalProblem {
    /// The problem's word in JSON.
    pub fn word(self) -> &'static str {
        match self {
            ApprovalProblem::Stale => "stale",
            ApprovalProblem::ReasonTooShort => "reason-too-short",
            ApprovalProblem::Signature(code) => code,
        }
    }
}

/// One checked unit (the staged change or a commit).
#[derive(Debug, Clone)]
pub struct Checked {
    /// `staged` or the commit's short id (for people).
    pub target: String,
    /// The commit's full id (for machines); `None` for the staged change.
    pub id: Option<String>,
    /// The commit's subject, when it is a commit.
    pub subject: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The findings and protected paths.
    pub report: Report,
    /// Paths an approval must name.
    pub approval_paths: Vec<Vec<u8>>,
    /// The approvals found (pending or notes).
    pub approvals: Vec<ApprovalView>,
    /// Why approvals that were found do not count (when it still needs approval).
    pub problems: Vec<ApprovalProblem>,
}

impl Checked {
    /// A unit judged from its report alone: clean, or needing approval (approvals are
    /// looked for by the caller).
    pub fn new(target: String, subject: Option<String>, report: Report) -> Checked {
        let verdict = if report.needs_approval() {
            Verdict::NeedsApproval
        } else {
            Verdict::Clean
        };
        Checked {
            target,
            id: None,
            subject,
            verdict,
            approval_paths: report.approval_paths(),
            report,
            approvals: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// The JSON shape of [`Checked`] (schema in README): the verdict's word, then
/// `approved_via` and `patch_id_of`, then the report's fields.
impl Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Paths<'a>(#[serde(serialize_with = "serialize_paths")] &'a [Vec<u8>]);
        let mut st = s.serialize_struct("Checked", 11)?;
        st.serialize_field("target", self.id.as_ref().unwrap_or(&self.target))?;
        if let Some(subject) = &self.subject {
            st.serialize_field("subject", subject)?;
        }
        st.serialize_field("verdict", self.verdict.word())?;
        let (via, patch_id_of) = match &self.verdict {
            Verdict::Approved(by) => (
                Some(by.word()),
                match by {
                    ApprovedBy::PatchId { original } => Some(original.as_str()),
                    _ => None,
                },
            ),
            _ => (None, None),
        };
        st.serialize_field("approved_via", &via)?;
        st.serialize_field("patch_id_of", &patch_id_of)?;
        st.serialize_field("files_changed", &self.report.files_changed)?;
        st.serialize_field("protected", &self.report.protected)?;
        st.serialize_field("findings", &self.report.findings)?;
        st.serialize_field("strengthened", &Paths(&self.report.strengthened))?;
        st.serialize_field("approval_paths", &Paths(&self.approval_paths))?;
        st.serialize_field("approvals", &self.approvals)?;
        let problems: Vec<&str> = self.problems.iter().map(|p| p.word()).collect();
        st.serialize_field("approval_problems", &problems)?;
        st.end()
    }
}

/// An approval as `check --format json` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ApprovalView {
    /// The reason.
    pub reason: String,
    /// Who.
    pub by: String,
    /// When.
    pub at: String,
    /// How.
    pub via: Via,
    /// What it covers.
    #[serde(serialize_with = "serialize_paths")]
    pub paths: Vec<Vec<u8>>,
    /// Blocked attempts that preceded it, when recorded.
    pub blocked_attempts: Option<u32>,
    /// How far it can be trusted: verified by a listed key, unsigned, or rejected.
    #[serde(serialize_with = "serialize_trust")]
    pub trust: Trust,
    /// The test ids it approves (`Guard-Tests`), when it approves tests.
    pub tests: Vec<String>,
}

/// `{"status": "verified", "principal", "key_type", "fingerprint"}`, or the status
/// (`unsigned`, `unknown-key`, `bad-signature`, …) with a `detail` sentence.
fn serialize_trust<S: serde::Serializer>(trust: &Trust, s: S) -> Result<S::Ok, S::Error> {
    let value = match trust {
        Trust::Verified {
            principal,
            key_type,
            fingerprint,
        } => serde_json::json!({
            "status": "verified",
            "principal": principal,
            "key_type": key_type,
            "fingerprint": fingerprint,
        }),
        Trust::Unsigned => serde_json::json!({ "status": "unsigned" }),
        Trust::Rejected(code, detail) => serde_json::json!({ "status": code, "detail": detail }),
    };
    value.serialize(s)
}

impl ApprovalView {
    /// The view of `approval`, with its trust under the policy in force.
    pub fn new(a: &Approval, trust: Trust) -> ApprovalView {
        ApprovalView {
            reason: a.reason.clone(),
            by: a.by.clone(),
            at: a.at.clone(),
            via: a.via.clone(),
            paths: a.paths.clone(),
            blocked_attempts: a.blocked_attempts,
            trust,
            tests: a.tests.clone(),
        }
    }
}

mod summary;
mod tests_checked;

pub use summary::*;
pub use tests_checked::*;
