//! Test reports: what ran, not only the exit code.
//!
//! Reads the JUnit XML reports a test job wrote (pytest `--junitxml`, jest-junit,
//! gotestsum `--junitfile`, cargo-nextest, Maven Surefire `TEST-*.xml`, Gradle), for the
//! base and for the head, and compares them by test id: a test that ran at the base and
//! is absent at the head has vanished ([`TEST_VANISHED`]); one that ran at the base and is
//! skipped at the head is newly skipped ([`TEST_NEWLY_SKIPPED`]). New tests are listed too,
//! so a renamed test shows as one vanished and one new.
//!
//! Pure data in, data out: [`ReportSet::load`] reads one side, [`compare`] returns a
//! [`Comparison`] holding ids, statuses and counts and no sentence; the rendering layer
//! words it. Input that cannot be trusted is an error with a [`hinted`] fix (exit 2),
//! never an empty pass: a malformed or truncated file (named, with line and column), a
//! pattern that matches no file, and a side whose reports hold no test case at all.
//!
//! The XML is read by [`junit`], a small reader on `quick-xml`. nextest's `quick-junit`
//! (0.8.0) has a deserializer, but it rejects three of the six dialects as the tools
//! write them (tried on `tests/fixtures/junit`): Surefire and Gradle files have a
//! `<testsuite>` root (it requires `<testsuites>`), and jest-junit (Gradle too) writes
//! timestamps without a zone (it requires RFC 3339).

pub mod junit;

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::exit::hinted;

/// A test that ran at the base and is absent at the head.
pub const TEST_VANISHED: &str = "test-vanished";
/// A test that ran at the base and is skipped at the head.
pub const TEST_NEWLY_SKIPPED: &str = "test-newly-skipped";

/// Which side of the comparison a report set describes; it decides the words of errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The reports of the base commit (`--baseline`).
    Base,
    /// The reports of the head commit (`--results`).
    Head,
}

impl Side {
    fn word(self) -> &'static str {
        match self {
            Side::Base => "base",
            Side::Head => "head",
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Side::Base => "--baseline",
            Side::Head => "--results",
        }
    }
}

/// The outcome of one test case, as its report records it.
///
/// A case whose `<testcase>` has a `<skipped>` child is skipped — pytest writes its
/// `xfail` results that way (`type="pytest.xfail"`), so an xfail counts as skipped. The
/// rerun and flaky children of Surefire and nextest (`<rerunFailure>`, `<flakyFailure>`
/// …) do not change the outcome: the final result is in `<failure>`/`<error>` or their
/// absence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Ran and passed: no `<failure>`, `<error>` or `<skipped>` child.
    Passed,
    /// Did not run: a `<skipped>` child.
    Skipped,
    /// Ran and failed: a `<failure>` child.
    Failed,
    /// Ran and errored: an `<error>` child.
    Error,
}

impl Status {
    /// Whether the test ran (passed, failed or errored), as opposed to being skipped.
    pub fn ran(self) -> bool {
        self != Status::Skipped
    }

    /// The status of one test id seen several times (in several files, or twice in one):
    /// it ran if any occurrence ran, and then the worst outcome counts.
    fn merge(self, other: Status) -> Status {
        match (self.ran(), other.ran()) {
            (true, true) => self.max(other),
            (true, false) => self,
            (false, true) => other,
            (false, false) => Status::Skipped,
        }
    }
}

/// A test's identity across runs: its class (or module, package, describe block) and
/// its name, both exactly as the report writes them — parametrised ids such as
/// `test_round[a-b]` or `[1] cents=10, expected=1` are kept whole.
///
/// `classname` is the `classname` attribute of the `<testcase>`; when a case has none,
/// the name of the innermost `<testsuite>` around it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TestId {
    /// The `classname` attribute (or the enclosing suite's name).
    pub classname: String,
    /// The `name` attribute.
    pub name: String,
}

impl TestId {
    /// A test id from its two parts.
    pub fn new(classname: impl Into<String>, name: impl Into<String>) -> TestId {
        TestId {
            classname: classname.into(),
            name: name.into(),
        }
    }
}

/// `<classname>::<name>`: how reports, `git guard override --tests` and the note's
/// `Guard-Tests` trailer spell an id. Two ids that spell the same (a `::` inside a
/// classname) are one id to an approval: a human approved what they read.
impl std::fmt::Display for TestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}::{}", self.classname, self.name)
    }
}

/// One `<testcase>` of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    /// Its id.
    pub id: TestId,
    /// Its outcome.
    pub status: Status,
}

/// How many `<testcase>` elements a side's reports hold, by outcome.
///
/// Every element counts, so a test that appears twice (two report files of the same
/// suite, a runner that repeats a name) counts twice here, once in the comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// All test cases.
    pub total: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Errored.
    pub errors: usize,
    /// Skipped (including pytest's xfail).
    pub skipped: usize,
}

impl Counts {
    fn add(&mut self, status: Status) {
        self.total += 1;
        match status {
            Status::Passed => self.passed += 1,
            Status::Failed => self.failed += 1,
            Status::Error => self.errors += 1,
            Status::Skipped => self.skipped += 1,
        }
    }
}

/// The test cases of one side (base or head), read from one or more report files.
#[derive(Debug, Clone)]
pub struct ReportSet {
    /// The side these reports describe.
    pub side: Side,
    /// The report files read, in the order they were read (sorted by path).
    pub files: Vec<PathBuf>,
    /// Test cases by outcome, counting every `<testcase>` element.
    pub counts: Counts,
    tests: HashMap<TestId, Status>,
}

impl ReportSet {
    /// Reads every file matched by the glob `pattern` (relative patterns are taken from
    /// `root`; `*`, `?`, `[…]`, and `**` for any number of directories).
    ///
    /// # Errors
    ///
    /// With a hint: an invalid pattern, a pattern that matches no file, a file that
    /// cannot be read or is not well-formed JUnit XML (named with line and column), and
    /// reports that hold no test case at all.
    pub fn load(root: &Path, pattern: &str, side: Side) -> anyhow::Result<ReportSet> {
        let files = expand(root, pattern, side)?;
        let mut reports = Vec::with_capacity(files.len());
        for path in files {
            let bytes = std::fs::read(&path).map_err(|e| {
                hinted(
                    format!(
                        "cannot read {} test report {}: {e}",
                        side.word(),
                        path.display()
                    ),
                    "check that the report files exist and are readable by this user",
                )
            })?;
            reports.push((path, bytes));
        }
        ReportSet::from_reports(side, pattern, reports)
    }

    /// Builds a side from report contents already in memory, each with the path it is
    /// named by in errors. `source` says where they came from (the pattern, in errors).
    ///
    /// # Errors
    ///
    /// As [`ReportSet::load`], except for the pattern and the reading of files.
    pub fn from_reports(
        side: Side,
        source: &str,
        reports: impl IntoIterator<Item = (PathBuf, Vec<u8>)>,
    ) -> anyhow::Result<ReportSet> {
        let mut set = ReportSet {
            side,
            files: Vec::new(),
            counts: Counts::default(),
            tests: HashMap::new(),
        };
        for (path, bytes) in reports {
            let text = String::from_utf8_lossy(&bytes);
            for case in junit::parse(&path, &text)? {
                set.insert(case);
            }
            set.files.push(path);
        }
        if set.counts.total == 0 {
            return Err(hinted(
                format!(
                    "the {} test reports hold no test case: {} file{} matched by `{source}`",
                    side.word(),
                    set.files.len(),
                    if set.files.len() == 1 { "" } else { "s" },
                ),
                format!(
                    "an empty report is not a pass: check that the test job ran the tests (a collection \
                     error, a filter that selects nothing or a runner that crashed can write an empty \
                     report) and that {} points at the reports it wrote",
                    side.flag()
                ),
            ));
        }
        Ok(set)
    }

    fn insert(&mut self, case: TestCase) {
        self.counts.add(case.status);
        match self.tests.entry(case.id) {
            Entry::Occupied(mut seen) => {
                let merged = seen.get().merge(case.status);
                seen.insert(merged);
            }
            Entry::Vacant(slot) => {
                slot.insert(case.status);
            }
        }
    }

    /// The status of test `id` on this side (several occurrences merged: it ran if any
    /// ran, with the worst outcome), or `None` when it is absent.
    pub fn status(&self, id: &TestId) -> Option<Status> {
        self.tests.get(id).copied()
    }

    /// The number of distinct test ids.
    pub fn len(&self) -> usize {
        self.tests.len()
    }

    /// Whether no test id is present (never true of a set that was loaded).
    pub fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    /// Every distinct test id with its status, sorted by id.
    pub fn tests(&self) -> Vec<(&TestId, Status)> {
        let mut all: Vec<_> = self.tests.iter().map(|(id, s)| (id, *s)).collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        all
    }
}

/// The two sides of a comparison, from `--results` (the head) and `--baseline` (the
/// base): both read when both patterns are given, `None` when neither is.
///
/// # Errors
///
/// With a hint: one pattern without the other (a comparison needs both sides), and
/// everything [`ReportSet::load`] refuses on either side.
pub fn load_pair(
    root: &Path,
    results: Option<&str>,
    baseline: Option<&str>,
) -> anyhow::Result<Option<(ReportSet, ReportSet)>> {
    match (results, baseline) {
        (None, None) => Ok(None),
        (Some(results), Some(baseline)) => {
            let head = ReportSet::load(root, results, Side::Head)?;
            let base = ReportSet::load(root, baseline, Side::Base)?;
            Ok(Some((base, head)))
        }
        (Some(_), None) | (None, Some(_)) => {
            let (given, missing) = if results.is_some() {
                ("--results", "--baseline")
            } else {
                ("--baseline", "--results")
            };
            Err(hinted(
                format!(
                    "{given} was given without {missing}: test reports are compared, head against base"
                ),
                "pass both: --results 'HEAD_GLOB' for the reports of the head and --baseline 'BASE_GLOB' \
                 for those of the base commit (see README, \"CI recipes\"), or neither",
            ))
        }
    }
}

/// File names that can hold test-runner configuration — which tests run, and whether
/// failures count — besides the test code itself: `pyproject.toml` (`addopts`),
/// `setup.cfg`, `package.json` (`jest`), `Cargo.toml`, Maven and Gradle builds, Go's
/// module file, and the runners' own files. A range that changes only such files and
/// test code, while tests vanish from its reports, is the shape of a deselect.
pub const RUNNER_CONFIG_FILES: &[&str] = &[
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "pytest.ini",
    ".pytest.ini",
    "tox.ini",
    "noxfile.py",
    "conftest.py",
    "package.json",
    "Cargo.toml",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "go.mod",
    "Makefile",
];

/// Whether `path` (any depth) names a runner-configuration file: one of
/// [`RUNNER_CONFIG_FILES`], a runner's own config file (`jest.config.*`,
/// `vitest.config.*`, `.mocharc*`, `karma.conf.*`, `playwright.config.*`,
/// `cypress.config.*`), or anything under `.nextest/` or `.config/nextest.toml`.
pub fn is_runner_config(path: &[u8]) -> bool {
    let path = String::from_utf8_lossy(path);
    let name = path.rsplit('/').next().unwrap_or(&path);
    RUNNER_CONFIG_FILES.contains(&name)
        || [
            "jest.config.",
            "vitest.config.",
            ".mocharc",
            "karma.conf.",
            "playwright.config.",
            "cypress.config.",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        || path.starts_with(".nextest/")
        || path.contains("/.nextest/")
        || path.ends_with(".config/nextest.toml")
}

/// The files a pattern matches, sorted; an error when there is none.
fn expand(root: &Path, pattern: &str, side: Side) -> anyhow::Result<Vec<PathBuf>> {
    let full = if Path::new(pattern).is_absolute() {
        pattern.to_string()
    } else {
        let base = glob::Pattern::escape(&root.to_string_lossy());
        format!("{}/{pattern}", base.trim_end_matches('/'))
    };
    let paths = glob::glob(&full).map_err(|e| {
        hinted(
            format!(
                "invalid {} pattern `{pattern}`: {} at character {}",
                side.flag(),
                e.msg,
                e.pos + 1
            ),
            "patterns use `*` and `?` within a name, `[abc]` for one of a set, and `**` for any \
             number of directories; quote the pattern so the shell does not expand it",
        )
    })?;
    let mut files = Vec::new();
    for entry in paths {
        let path = entry
            .map_err(|e| anyhow::anyhow!("cannot read {}: {}", e.path().display(), e.error()))?;
        if path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        let hint = match side {
            Side::Head => {
                "check where the test job writes its JUnit XML and that this step runs after it \
                 (in the same job, or with the report downloaded as an artifact); quote the \
                 pattern so the shell does not expand it"
            }
            Side::Base => {
                "produce the base reports from the base commit first (a job on the merge base, or \
                 the latest report artifact of the base branch), then point --baseline at them; \
                 quote the pattern so the shell does not expand it"
            }
        };
        return Err(hinted(
            format!(
                "{} `{pattern}` matches no file (in {})",
                side.flag(),
                root.display()
            ),
            hint,
        ));
    }
    files.sort();
    Ok(files)
}

/// A test that ran at the base and is absent at the head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Vanished {
    /// The test.
    pub id: TestId,
    /// How it ended at the base (passed, failed or errored).
    pub base: Status,
}

/// A test that ran at the base and is skipped at the head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewlySkipped {
    /// The test.
    pub id: TestId,
    /// How it ended at the base (passed, failed or errored).
    pub base: Status,
}

/// A test present at the head and absent at the base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Added {
    /// The test.
    pub id: TestId,
    /// How it ended at the head.
    pub head: Status,
}

/// What changed between the base's reports and the head's: ids, statuses and counts,
/// each list sorted by id. No text: the rendering layer words it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// Test cases at the base, by outcome.
    pub base: Counts,
    /// Test cases at the head, by outcome.
    pub head: Counts,
    /// [`TEST_VANISHED`]: ran at the base, absent at the head.
    pub vanished: Vec<Vanished>,
    /// [`TEST_NEWLY_SKIPPED`]: ran at the base, skipped at the head.
    pub newly_skipped: Vec<NewlySkipped>,
    /// Absent at the base, present at the head (with a vanished test: a rename, or a
    /// replacement; the comparison does not guess which).
    pub added: Vec<Added>,
    /// Skipped at the base and absent at the head: nothing ran before either, so not a
    /// finding; listed so that the counts add up.
    pub dropped_skipped: Vec<TestId>,
}

impl Comparison {
    /// Whether the head ran everything the base ran: nothing vanished, nothing newly
    /// skipped (new tests and dropped skipped tests do not matter).
    pub fn is_clean(&self) -> bool {
        self.vanished.is_empty() && self.newly_skipped.is_empty()
    }
}

/// Compares the base's reports with the head's by test id.
///
/// "Ran" means passed, failed or errored: a test that failed at the base and is skipped
/// at the head is newly skipped too (skipping a failing test is the very edit this
/// exists to catch); the base status is kept so that a caller can tell.
pub fn compare(base: &ReportSet, head: &ReportSet) -> Comparison {
    let mut vanished = Vec::new();
    let mut newly_skipped = Vec::new();
    let mut dropped_skipped = Vec::new();
    for (id, &before) in &base.tests {
        match head.tests.get(id) {
            None if before.ran() => vanished.push(Vanished {
                id: id.clone(),
                base: before,
            }),
            None => dropped_skipped.push(id.clone()),
            Some(Status::Skipped) if before.ran() => newly_skipped.push(NewlySkipped {
                id: id.clone(),
                base: before,
            }),
            Some(_) => {}
        }
    }
    let mut added: Vec<Added> = head
        .tests
        .iter()
        .filter(|(id, _)| !base.tests.contains_key(*id))
        .map(|(id, &status)| Added {
            id: id.clone(),
            head: status,
        })
        .collect();
    vanished.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    newly_skipped.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    added.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    dropped_skipped.sort_unstable();
    Comparison {
        base: base.counts,
        head: head.counts,
        vanished,
        newly_skipped,
        added,
        dropped_skipped,
    }
}

#[cfg(test)]
mod tests;
