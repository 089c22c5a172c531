//! The test-report comparison, judged: which vanished or newly skipped tests are
//! approved (by notes naming their ids, or the label) and which still need a human.

use serde::Serialize;
use serde::ser::SerializeStruct;

use super::*;
use crate::reports::{Comparison, Status, TestId};

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

/// The JSON shape of [`TestsChecked`] (schema in docs/reference.md, "JSON output").
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
