//! What `git guard ci` and `git guard ledger` summarise: counts, the risk order, and
//! the context of a run, as values.

use serde::Serialize;

use super::*;

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
