//! The verdict as a value: what was judged, what it needs, and what approved it.
//!
//! No text here: `render` turns these into words. A [`Verdict`] cannot say "clean" and
//! "approved by a label" at once, and only an approved verdict names what approved it.

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::notes::{Approval, Via};
use crate::paths::serialize_paths;
use crate::report::Report;
use crate::reports::{Comparison, Status, TestId};
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
        let mut st = s.serialize_struct("Checked", 10)?;
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

/// Everything `git guard ci` reports, ordered by risk.
#[derive(Debug, Clone, Serialize)]
pub struct CiSummary {
    /// Stable schema version of the JSON.
    pub version: u32,
    /// Which CI environment supplied base and labels.
    pub provider: String,
    /// Full id of the base commit (text shows it abbreviated).
    pub base: String,
    /// Full id of the head commit (text shows it abbreviated).
    pub head: String,
    /// Where the policy came from (always the base commit, or defaults).
    pub policy: String,
    /// The PR/MR labels seen.
    pub labels: Vec<String>,
    /// The override label, when present on the PR/MR.
    pub label_applied: Option<String>,
    /// The label the policy accepts.
    pub override_label: String,
    /// The workflow file running this check, when the range edits it (its flags and
    /// labels were then ignored).
    pub untrusted_workflow: Option<String>,
    /// Commits from before the repository adopted git-guard (no `guard.toml` in their
    /// first parent), which were not judged.
    pub before_adoption: usize,
    /// Whether any commit lacks an approval.
    pub blocked: bool,
    /// Every changed file is protected and the range weakens tests: the incident shape.
    pub test_only_weakening: bool,
    /// Tests vanished from the reports of a range that changes only test code or
    /// runner configuration: the shape of a deselect. The tests part then comes first.
    pub test_only_vanishing: bool,
    /// Counts.
    pub counts: CiCounts,
    /// The test reports compared (`--results`/`--baseline`), judged; `null` without them.
    pub tests: Option<TestsChecked>,
    /// The commits, riskiest first.
    pub commits: Vec<Checked>,
}

/// Commit counts of a CI summary.
#[derive(Debug, Clone, Serialize)]
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

/// What the CI run is about, as the environment and the base policy say.
#[derive(Debug, Clone)]
pub struct CiContext {
    /// Which CI environment supplied base and labels.
    pub provider: String,
    /// Full id of the base commit.
    pub base: String,
    /// Full id of the head commit.
    pub head: String,
    /// Where the policy came from.
    pub policy: String,
    /// The PR/MR labels seen.
    pub labels: Vec<String>,
    /// The override label, when present on the PR/MR.
    pub label_applied: Option<String>,
    /// The label the policy accepts.
    pub override_label: String,
    /// The workflow file running this check, when the range edits it (its flags and
    /// labels were then ignored).
    pub untrusted_workflow: Option<String>,
    /// Commits from before the repository adopted git-guard, not judged.
    pub before_adoption: usize,
}

impl CiSummary {
    /// Builds the summary, ranking the commits by risk; `tests` is the judged comparison
    /// of the test reports, when they were given.
    pub fn new(
        context: CiContext,
        commits: Vec<Checked>,
        tests: Option<TestsChecked>,
    ) -> CiSummary {
        let commits = rank_by_risk(commits);
        let count = |kind: &str| commits.iter().filter(|c| c.verdict.word() == kind).count();
        let counts = CiCounts {
            commits: commits.len(),
            needs_approval: count("needs-approval"),
            approved: count("approved"),
            clean: count("clean"),
        };
        let touches_protected = commits.iter().any(|c| !c.report.protected.is_empty());
        let only_protected = commits
            .iter()
            .all(|c| c.report.protected.len() == c.report.files_changed);
        let weakens = commits.iter().any(|c| !c.report.findings.is_empty());
        CiSummary {
            version: 1,
            provider: context.provider,
            base: context.base,
            head: context.head,
            policy: context.policy,
            labels: context.labels,
            label_applied: context.label_applied,
            override_label: context.override_label,
            untrusted_workflow: context.untrusted_workflow,
            before_adoption: context.before_adoption,
            blocked: counts.needs_approval > 0
                || tests
                    .as_ref()
                    .is_some_and(|t| t.verdict == Verdict::NeedsApproval),
            test_only_weakening: touches_protected && only_protected && weakens,
            test_only_vanishing: tests.as_ref().is_some_and(TestsChecked::ranked_first),
            counts,
            tests,
            commits,
        }
    }
}

/// A test finding of the reports: which kind, which test, how it ended at the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestFinding<'a> {
    /// `test-vanished` or `test-newly-skipped`.
    pub kind: &'static str,
    /// The test.
    pub id: &'a TestId,
    /// Its outcome at the base (it ran: passed, failed or errored).
    pub base: Status,
}

/// The test reports of a range compared and judged: the comparison, which of its
/// findings an approval names, and the verdict.
///
/// A vanished or newly skipped test is approved by a note on a commit of the range whose
/// `Guard-Tests` names its id exactly, or by the PR/MR label; an approval naming ids
/// approves exactly those.
#[derive(Debug, Clone)]
pub struct TestsChecked {
    /// The base's report files, as read.
    pub base_files: Vec<String>,
    /// The head's report files, as read.
    pub head_files: Vec<String>,
    /// What changed between the reports.
    pub comparison: Comparison,
    /// Valid approvals naming tests, found on the range's commits.
    pub approvals: Vec<ApprovalView>,
    /// The override label, when the PR/MR carries it.
    pub label: Option<String>,
    /// Every file the range changes is test code, protected, or runner configuration.
    pub only_tests_or_runner_config: bool,
    /// Clean (nothing vanished or newly skipped), approved (by notes naming every id, or
    /// by the label), or needing approval.
    pub verdict: Verdict,
}

impl TestsChecked {
    /// Judges `comparison` with the valid approvals found (`approvals`: reason long
    /// enough, on a commit of the range) and the label.
    pub fn new(
        comparison: Comparison,
        files: (Vec<String>, Vec<String>),
        approvals: &[(Approval, Trust)],
        label: Option<String>,
        only_tests_or_runner_config: bool,
    ) -> TestsChecked {
        let mut checked = TestsChecked {
            base_files: files.0,
            head_files: files.1,
            comparison,
            approvals: approvals
                .iter()
                .filter(|(a, _)| !a.tests.is_empty())
                .map(|(a, trust)| ApprovalView::new(a, trust.clone()))
                .collect(),
            label,
            only_tests_or_runner_config,
            verdict: Verdict::Clean,
        };
        let findings = checked.findings();
        checked.verdict = if findings.is_empty() {
            Verdict::Clean
        } else if findings.iter().all(|f| checked.named(f.id)) {
            Verdict::Approved(ApprovedBy::Note)
        } else if let Some(label) = &checked.label {
            Verdict::Approved(ApprovedBy::Label(label.clone()))
        } else {
            Verdict::NeedsApproval
        };
        checked
    }

    /// The findings, vanished first, each list sorted by id.
    pub fn findings(&self) -> Vec<TestFinding<'_>> {
        let vanished = self.comparison.vanished.iter().map(|v| TestFinding {
            kind: crate::reports::TEST_VANISHED,
            id: &v.id,
            base: v.base,
        });
        let skipped = self.comparison.newly_skipped.iter().map(|v| TestFinding {
            kind: crate::reports::TEST_NEWLY_SKIPPED,
            id: &v.id,
            base: v.base,
        });
        vanished.chain(skipped).collect()
    }

    /// Whether a valid approval names `id` exactly.
    fn named(&self, id: &TestId) -> bool {
        let id = id.to_string();
        self.approvals.iter().any(|a| a.tests.contains(&id))
    }

    /// What approves the finding on `id`: a note naming it, else the label; `None` when
    /// nothing does.
    pub fn approved_by(&self, id: &TestId) -> Option<ApprovedBy> {
        if self.named(id) {
            Some(ApprovedBy::Note)
        } else {
            self.label.clone().map(ApprovedBy::Label)
        }
    }

    /// The findings nothing approves.
    pub fn unapproved(&self) -> Vec<TestFinding<'_>> {
        self.findings()
            .into_iter()
            .filter(|f| self.approved_by(f.id).is_none())
            .collect()
    }

    /// Whether this part leads the summary: tests vanished in a range that changes only
    /// test code or runner configuration.
    pub fn ranked_first(&self) -> bool {
        !self.comparison.vanished.is_empty() && self.only_tests_or_runner_config
    }
}

/// The JSON shape of [`TestsChecked`] (schema in README, "JSON output").
impl Serialize for TestsChecked {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Id<'a> {
            id: String,
            classname: &'a str,
            name: &'a str,
        }
        #[derive(Serialize)]
        struct Finding<'a> {
            #[serde(flatten)]
            id: Id<'a>,
            base: Status,
            approved_via: Option<&'static str>,
        }
        #[derive(Serialize)]
        struct Added<'a> {
            #[serde(flatten)]
            id: Id<'a>,
            head: Status,
        }
        #[derive(Serialize)]
        struct Files<'a> {
            base: &'a [String],
            head: &'a [String],
        }
        fn item(id: &TestId) -> Id<'_> {
            Id {
                id: id.to_string(),
                classname: &id.classname,
                name: &id.name,
            }
        }
        let c = &self.comparison;
        let finding = |id, base| Finding {
            id: item(id),
            base,
            approved_via: self.approved_by(id).map(|by| by.word()),
        };
        let via_word = match &self.verdict {
            Verdict::Approved(by) => Some(by.word()),
            _ => None,
        };
        let mut st = s.serialize_struct("TestsChecked", 13)?;
        st.serialize_field("verdict", self.verdict.word())?;
        st.serialize_field("approved_via", &via_word)?;
        st.serialize_field(
            "only_tests_or_runner_config",
            &self.only_tests_or_runner_config,
        )?;
        st.serialize_field(
            "files",
            &Files {
                base: &self.base_files,
                head: &self.head_files,
            },
        )?;
        st.serialize_field("before", &c.base)?;
        st.serialize_field("after", &c.head)?;
        st.serialize_field("unapproved", &self.unapproved().len())?;
        let vanished: Vec<_> = c.vanished.iter().map(|v| finding(&v.id, v.base)).collect();
        st.serialize_field("vanished", &vanished)?;
        let skipped: Vec<_> = c
            .newly_skipped
            .iter()
            .map(|v| finding(&v.id, v.base))
            .collect();
        st.serialize_field("newly_skipped", &skipped)?;
        let added: Vec<_> = c
            .added
            .iter()
            .map(|a| Added {
                id: item(&a.id),
                head: a.head,
            })
            .collect();
        st.serialize_field("added", &added)?;
        let dropped: Vec<_> = c.dropped_skipped.iter().map(item).collect();
        st.serialize_field("dropped_skipped", &dropped)?;
        st.serialize_field("approvals", &self.approvals)?;
        st.end()
    }
}

/// Orders commits by risk, not size: unapproved before approved before clean; within
/// each, more blocking findings and more protected paths first; then history order.
pub fn rank_by_risk(mut checked: Vec<Checked>) -> Vec<Checked> {
    let rank = |c: &Checked| {
        let verdict = match c.verdict {
            Verdict::NeedsApproval => 0,
            Verdict::Approved(_) => 1,
            Verdict::Clean => 2,
        };
        let findings = c.report.findings.iter().filter(|f| f.blocking).count();
        (
            verdict,
            usize::MAX - findings,
            usize::MAX - c.report.protected.len(),
        )
    };
    checked.sort_by_key(rank); // stable: history order within a rank
    checked
}

/// What `git guard ledger` reports for the current budget period.
#[derive(Debug, Clone, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
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
        let attempts: Vec<&crate::ledger::Entry> = period
            .iter()
            .filter(|e| e.kind == crate::ledger::EntryKind::Attempt)
            .collect();
        LedgerStats {
            attempts: attempts.len(),
            budget,
            failures: attempts.iter().filter(|e| e.exit != Some(0)).count(),
            blocked: period
                .iter()
                .filter(|e| e.kind == crate::ledger::EntryKind::Blocked)
                .count(),
            // An empty f64 sum is -0.0; adding 0.0 makes it 0.0 in the JSON.
            seconds: attempts.iter().filter_map(|e| e.seconds).sum::<f64>() + 0.0,
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
