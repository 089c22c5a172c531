//! `--results`/`--baseline`: what ran, not only the exit code. Real reports from
//! `tests/fixtures/junit` (pytest's were produced by deselecting `test_tax_rate` through
//! `pyproject.toml` `addopts`, with no change under `tests/`), compared by `git guard ci`
//! and `git guard check --range`, and approved by the label or by `override --tests`.

use std::path::{Path, PathBuf};

use crate::common::{REASON, Run, TestRepo};

const TAX_RATE: &str = "tests.test_invoice::test_tax_rate";
const TOTAL: &str = "tests.test_invoice::test_total";
const INVOICE_TOTAL: &str = "tests.test_invoice::test_invoice_total";
const CURRENCY: &str = "tests.test_invoice::test_currency_table";
const REFUND: &str = "tests.test_invoice.TestRefund::test_refund_rounds";

/// The pyproject.toml change that produced the pytest head report.
const DESELECT: &str = "[project]\nname = \"invoice\"\n\n[tool.pytest.ini_options]\n\
                        addopts = \"--deselect tests/test_invoice.py::test_tax_rate\"\n";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/junit")
}

/// Copies fixture files into `reports/<side>/` of the work tree (untracked, as a test
/// job leaves them), so the globs are relative to where `git guard` runs.
fn place(repo: &TestRepo, side: &str, files: &[&str]) {
    let dir = repo.root.join("reports").join(side);
    std::fs::create_dir_all(&dir).unwrap();
    for file in files {
        let from = fixtures().join(file);
        std::fs::copy(&from, dir.join(from.file_name().unwrap())).unwrap();
    }
}

/// main with a pyproject.toml; `feature` changes only its `addopts` (no file under
/// `tests/`), exactly how the pytest head report was produced; the pytest reports of
/// base and head are in `reports/base/` and `reports/head/`.
fn deselect_branch() -> TestRepo {
    let repo = TestRepo::with_origin();
    repo.write("pyproject.toml", "[project]\nname = \"invoice\"\n");
    // These tests isolate what the reports see: the policy leaves runner keys alone
    // (by default `[protect.keys]` protects `tool.pytest` too; tests/it/runner_keys.rs).
    repo.write("guard.toml", "[protect.keys]\n");
    repo.commit_all("pyproject");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("pyproject.toml", DESELECT);
    repo.commit_all("Configure pytest");
    place(&repo, "base", &["pytest/base.xml"]);
    place(&repo, "head", &["pytest/head.xml"]);
    repo
}

fn ci(repo: &TestRepo, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = repo.command_in(crate::common::GUARD, &repo.root);
    cmd.args(["ci", "--no-fetch"]).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run::from(cmd.output().unwrap())
}

const REPORTS: [&str; 4] = [
    "--results",
    "reports/head/*.xml",
    "--baseline",
    "reports/base/*.xml",
];

fn with_reports<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = REPORTS.to_vec();
    all.extend_from_slice(args);
    all
}

fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn ids(list: &serde_json::Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect()
}

const MAIN: [(&str, &str); 1] = [("GUARD_BASE", "main")];

#[test]
fn done_when_an_addopts_deselect_touching_no_test_file_is_stopped_by_the_reports() {
    let repo = deselect_branch();
    let changed = repo.git(&["diff", "--name-only", "main...feature"]);
    assert_eq!(changed, "pyproject.toml\n", "no file under tests/ changes");
    // The diff alone sees nothing to stop: pyproject.toml is not a protected path.
    let diff_only = ci(&repo, &MAIN, &[]);
    diff_only.expect(0);
    // The reports see what ran.
    let run = ci(&repo, &MAIN, &REPORTS);
    run.expect(1);
    let out = &run.stdout;
    assert!(
        out.contains(&format!(
            "test-vanished {TAX_RATE}: passed at the base, absent at the head"
        )),
        "{out}"
    );
    // First in the risk order: the banner and the tests part lead, before the commits.
    assert!(
        out.contains("!! Tests vanished from the reports of a range that changes only test code or runner configuration"),
        "{out}"
    );
    let tests_at = out.find("NEEDS APPROVAL  test reports").unwrap();
    let commits_at = out.find("clean  1 commit").unwrap();
    assert!(tests_at < commits_at, "{out}");
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert_eq!(v["blocked"], true);
    assert_eq!(v["test_only_vanishing"], true);
    assert_eq!(v["counts"]["needs_approval"], 0, "no commit is the problem");
    assert_eq!(v["tests"]["verdict"], "needs-approval");
    assert_eq!(v["tests"]["only_tests_or_runner_config"], true);
    assert!(ids(&v["tests"]["vanished"]).contains(&TAX_RATE.to_string()));
}

#[test]
fn a_vanished_test_is_named_with_its_id_and_counts_before_and_after() {
    let repo = deselect_branch();
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    let t = &v["tests"];
    assert_eq!(ids(&t["vanished"]), [TAX_RATE, TOTAL]);
    assert_eq!(t["vanished"][0]["classname"], "tests.test_invoice");
    assert_eq!(t["vanished"][0]["name"], "test_tax_rate");
    assert_eq!(t["vanished"][0]["base"], "passed");
    assert_eq!(t["vanished"][0]["approved_via"], serde_json::Value::Null);
    assert_eq!(t["before"]["total"], 8);
    assert_eq!(t["before"]["passed"], 6);
    assert_eq!(t["after"]["total"], 7);
    assert_eq!(t["after"]["skipped"], 4);
    assert_eq!(
        t["files"]["base"],
        serde_json::json!(["reports/base/base.xml"])
    );
    assert_eq!(
        t["files"]["head"],
        serde_json::json!(["reports/head/head.xml"])
    );
    assert_eq!(t["unapproved"], 4);
    let text = ci(&repo, &MAIN, &REPORTS);
    assert!(
        text.stdout
            .contains("base: 8 tests (6 passed, 2 skipped) in reports/base/base.xml"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("head: 7 tests (3 passed, 4 skipped) in reports/head/head.xml"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains(
            "BLOCKED: 4 tests vanished or newly skipped in the test reports without an approval."
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn a_newly_skipped_test_is_named_xfail_counted_as_skipped() {
    let repo = deselect_branch();
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert_eq!(ids(&v["tests"]["newly_skipped"]), [CURRENCY, REFUND]);
    let text = ci(&repo, &MAIN, &REPORTS).stdout;
    assert!(
        text.contains(&format!(
            "test-newly-skipped {CURRENCY}: passed at the base, skipped at the head"
        )),
        "{text}"
    );
    // Skipped at the base already and still skipped: not a finding.
    assert!(!text.contains("test_round[a-b]"), "{text}");
}

#[test]
fn a_renamed_test_is_reported_as_vanished_and_new() {
    let repo = deselect_branch();
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert!(ids(&v["tests"]["vanished"]).contains(&TOTAL.to_string()));
    assert_eq!(ids(&v["tests"]["added"]), [INVOICE_TOTAL]);
    assert_eq!(v["tests"]["added"][0]["head"], "passed");
    let text = ci(&repo, &MAIN, &REPORTS).stdout;
    assert!(text.contains(&format!("test-vanished {TOTAL}")), "{text}");
    assert!(
        text.contains(&format!("+ new {INVOICE_TOTAL}: passed at the head")),
        "{text}"
    );
    assert!(
        text.contains("a renamed test shows as one vanished and one new"),
        "{text}"
    );
}

#[test]
fn a_clean_comparison_passes_and_says_so() {
    let repo = deselect_branch();
    // The head ran everything the base ran (here: the same run).
    place(&repo, "same", &["pytest/base.xml"]);
    let args = [
        "--results",
        "reports/same/*.xml",
        "--baseline",
        "reports/base/*.xml",
    ];
    let run = ci(&repo, &MAIN, &args);
    run.expect(0);
    assert!(
        run.stdout.contains(
            "tests  test reports: nothing that ran at the base vanished or is skipped at the head"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("!!"), "{}", run.stdout);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let v = json(&ci(&repo, &MAIN, &json_args));
    assert_eq!(v["blocked"], false);
    assert_eq!(v["test_only_vanishing"], false);
    assert_eq!(v["tests"]["verdict"], "clean");
    // Without reports, `tests` is null (the schema only ever gains fields).
    let v = json(&ci(&repo, &MAIN, &["--format", "json"]));
    assert_eq!(v["tests"], serde_json::Value::Null);
}

#[test]
fn the_label_approves_and_says_so() {
    let repo = deselect_branch();
    let env = [("GUARD_BASE", "main"), ("GUARD_LABELS", "allow-test-edits")];
    let run = ci(&repo, &env, &REPORTS);
    run.expect(0);
    assert!(
        run.stdout
            .contains("approved by the PR/MR label `allow-test-edits` (Guard-Via: label)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains(&format!("test-vanished {TAX_RATE}: passed at the base, absent at the head (approved by the label)")),
        "{}",
        run.stdout
    );
    let v = json(&ci(&repo, &env, &with_reports(&["--format", "json"])));
    assert_eq!(v["blocked"], false);
    assert_eq!(v["tests"]["verdict"], "approved");
    assert_eq!(v["tests"]["approved_via"], "label");
    assert_eq!(v["tests"]["vanished"][0]["approved_via"], "label");
    // Another label does not.
    ci(
        &repo,
        &[("GUARD_BASE", "main"), ("GUARD_LABELS", "bug")],
        &REPORTS,
    )
    .expect(1);
}

#[test]
fn an_approval_naming_ids_approves_exactly_those() {
    let repo = deselect_branch();
    // A human names two of the four: the other two still block.
    let run = repo.human(&[
        "override", "HEAD", "--tests", TAX_RATE, CURRENCY, "--reason", REASON,
    ]);
    run.expect(0);
    assert!(run.stdout.contains("Approved 2 tests on"), "{}", run.stdout);
    let note = repo.note("HEAD").unwrap();
    assert!(
        note.contains(&format!(
            "Guard-Tests: {CURRENCY}\nGuard-Tests: {TAX_RATE}\n"
        )),
        "{note}"
    );
    assert!(note.contains("Guard-Via: override"), "{note}");
    assert!(
        note.starts_with("git-guard: protected change approved\n\n"),
        "{note}"
    );
    let blocked = ci(&repo, &MAIN, &REPORTS);
    blocked.expect(1);
    let out = &blocked.stdout;
    assert!(
        out.contains(&format!(
            "test-vanished {TAX_RATE}: passed at the base, absent at the head (approved: a note names it)"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "test-vanished {TOTAL}: passed at the base, absent at the head\n"
        )),
        "a vanished test not named still blocks: {out}"
    );
    assert!(
        out.contains("BLOCKED: 2 tests vanished or newly skipped"),
        "{out}"
    );
    // The way out names exactly the ids still unapproved, as a human's step (no
    // --reason to fill in).
    assert!(
        out.contains(&format!("--tests {TOTAL} {REFUND}\n"))
            || out.contains(&format!("--tests {TOTAL} {REFUND}  ")),
        "{out}"
    );
    assert!(!out.contains("--reason"), "{out}");
    assert!(out.contains(&format!("reason: {REASON}")), "{out}");
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert_eq!(v["tests"]["unapproved"], 2);
    assert_eq!(v["tests"]["vanished"][0]["approved_via"], "note");
    assert_eq!(
        v["tests"]["vanished"][1]["approved_via"],
        serde_json::Value::Null
    );
    assert_eq!(
        v["tests"]["approvals"][0]["tests"],
        serde_json::json!([CURRENCY, TAX_RATE])
    );
    // Naming the rest approves the range.
    repo.human(&[
        "override", "HEAD", "--tests", TOTAL, "--tests", REFUND, "--reason", REASON,
    ])
    .expect(0);
    let run = ci(&repo, &MAIN, &REPORTS);
    run.expect(0);
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert_eq!(v["tests"]["verdict"], "approved");
    assert_eq!(v["tests"]["approved_via"], "note");
    // `git guard log` shows what was named.
    let log = repo.guard(&["log", "main..HEAD"]);
    assert!(
        log.stdout.contains(&format!("test:     {TAX_RATE}")),
        "{}",
        log.stdout
    );
}

#[test]
fn an_approval_on_history_the_base_has_does_not_carry_over() {
    let repo = deselect_branch();
    // An earlier approval of the same id, on a commit main already has.
    repo.human(&[
        "override", "main", "--tests", TAX_RATE, TOTAL, CURRENCY, REFUND, "--reason", REASON,
    ])
    .expect(0);
    ci(&repo, &MAIN, &REPORTS).expect(1);
    // An approval whose reason is too short for the policy does not count either.
    repo.git(&[
        "notes",
        "--ref",
        "refs/notes/guard",
        "add",
        "-m",
        &format!(
            "git-guard: protected change approved\n\nGuard-Reason: ok\nGuard-By: A <a@b>\n\
             Guard-At: 2026-12-02T09:00:00Z\nGuard-Via: override\nGuard-Tests: {TAX_RATE}\n\
             Guard-Tests: {TOTAL}\nGuard-Tests: {CURRENCY}\nGuard-Tests: {REFUND}\n"
        ),
        "HEAD",
    ]);
    ci(&repo, &MAIN, &REPORTS).expect(1);
}

#[test]
fn override_tests_refuses_a_bad_id_and_without_a_terminal_asks_for_a_human() {
    let repo = deselect_branch();
    let run = repo.guard(&[
        "override",
        "HEAD",
        "--tests",
        "test_tax_rate",
        "--reason",
        REASON,
    ]);
    run.expect(2);
    assert!(
        run.stderr
            .starts_with("error: `test_tax_rate` is not a test id\nhint: "),
        "{}",
        run.stderr
    );
    let run = repo.guard(&["override", "HEAD", "--tests", TAX_RATE]);
    run.expect(2);
    assert!(
        run.stderr
            .starts_with("error: no terminal to ask for the reason\nhint: "),
        "{}",
        run.stderr
    );
    let run = repo.guard(&["override", "HEAD", "--tests", TAX_RATE, "--reason", "short"]);
    run.expect(2);
    assert!(run.stderr.contains("too short"), "{}", run.stderr);
    assert_eq!(repo.note("HEAD"), None, "nothing was written");
}

#[test]
fn malformed_empty_and_unmatched_inputs_exit_2_with_error_and_hint() {
    let repo = deselect_branch();
    let head = std::fs::read_to_string(fixtures().join("pytest/head.xml")).unwrap();
    repo.write("reports/truncated/head.xml", &head[..head.len() / 2]);
    repo.write(
        "reports/empty/head.xml",
        "<?xml version=\"1.0\"?><testsuites><testsuite name=\"invoice\" tests=\"0\"></testsuite></testsuites>",
    );
    let cases: [(&[&str], &str); 7] = [
        (
            &[
                "--results",
                "reports/truncated/*.xml",
                "--baseline",
                "reports/base/*.xml",
            ],
            "error: ",
        ),
        (
            &[
                "--results",
                "reports/empty/*.xml",
                "--baseline",
                "reports/base/*.xml",
            ],
            "error: the head test reports hold no test case",
        ),
        (
            &[
                "--results",
                "reports/head/*.xml",
                "--baseline",
                "reports/nowhere/*.xml",
            ],
            "error: --baseline `reports/nowhere/*.xml` matches no file",
        ),
        (
            &[
                "--results",
                "reports/nowhere/*.xml",
                "--baseline",
                "reports/base/*.xml",
            ],
            "error: --results `reports/nowhere/*.xml` matches no file",
        ),
        (
            &["--results", "reports/head/*.xml"],
            "error: --results was given without --baseline",
        ),
        (
            &["--baseline", "reports/base/*.xml"],
            "error: --baseline was given without --results",
        ),
        (
            &[
                "--results",
                "reports/head/[",
                "--baseline",
                "reports/base/*.xml",
            ],
            "error: invalid --results pattern",
        ),
    ];
    for (args, expected) in cases {
        let run = ci(&repo, &MAIN, args);
        run.expect(2);
        assert!(run.stderr.starts_with(expected), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("\nhint: "), "{args:?}: {}", run.stderr);
        assert!(
            run.stdout.is_empty(),
            "{args:?}: nothing is reported as checked"
        );
    }
    let truncated = ci(&repo, &MAIN, cases[0].0);
    assert!(
        truncated.stderr.contains("reports/truncated/head.xml:"),
        "names the file: {}",
        truncated.stderr
    );
    // The same on `check --range`, and reports without a range.
    let run = repo.guard(&[
        "check",
        "--range",
        "main..feature",
        "--results",
        "reports/head/*.xml",
    ]);
    run.expect(2);
    assert!(run.stderr.contains("hint: pass both"), "{}", run.stderr);
    let run = repo.guard(&[
        "check",
        "--range",
        "main..feature",
        "--results",
        "reports/empty/*.xml",
        "--baseline",
        "reports/base/*.xml",
    ]);
    run.expect(2);
    assert!(
        run.stderr.contains("an empty report is not a pass"),
        "{}",
        run.stderr
    );
    let run = repo.guard(&[
        "check",
        "--commit",
        "HEAD",
        "--results",
        "reports/head/*.xml",
        "--baseline",
        "reports/base/*.xml",
    ]);
    run.expect(2);
    assert!(run.stderr.contains("hint: add --range"), "{}", run.stderr);
}

#[test]
fn check_range_compares_the_reports_too() {
    let repo = deselect_branch();
    let mut args = vec!["check", "--range", "main..feature"];
    args.extend(REPORTS);
    let run = repo.guard(&args);
    run.expect(1);
    assert!(
        run.stdout.contains(&format!("test-vanished {TAX_RATE}")),
        "{}",
        run.stdout
    );
    args.extend(["--format", "json"]);
    let v = json(&repo.guard(&args));
    assert_eq!(v["blocked"], true);
    assert_eq!(ids(&v["tests"]["vanished"]), [TAX_RATE, TOTAL]);
    // Notes approve there as in CI.
    repo.human(&[
        "override", "HEAD", "--tests", TAX_RATE, TOTAL, CURRENCY, REFUND, "--reason", REASON,
    ])
    .expect(0);
    args.truncate(args.len() - 2);
    repo.guard(&args).expect(0);
}

#[test]
fn github_format_annotates_each_test_and_writes_the_step_summary() {
    let repo = deselect_branch();
    let summary = repo.base().join("summary.md");
    let env = [
        ("GUARD_BASE", "main"),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
    ];
    let run = ci(&repo, &env, &with_reports(&["--format", "github"]));
    run.expect(1);
    assert!(
        run.stdout.contains(&format!(
            "::error title=git-guard%3A test-vanished::test-vanished {TAX_RATE}: passed at the base, absent at the head"
        )),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout
            .matches("::error title=git-guard%3A test-")
            .count(),
        4
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("## git-guard: blocked"), "{md}");
    assert!(md.contains("### Test reports"), "{md}");
    assert!(md.contains("| base | 8 | 6 | 0 | 0 | 2 |"), "{md}");
    assert!(
        md.contains(&format!(
            "| test-vanished | `{TAX_RATE}` | passed | **no** |"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!("| new | `{INVOICE_TOTAL}` | absent | |")),
        "{md}"
    );
}

#[test]
fn a_range_that_changes_code_too_lists_the_tests_after_the_commits() {
    let repo = deselect_branch();
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("code change");
    let run = ci(&repo, &MAIN, &REPORTS);
    run.expect(1);
    assert!(!run.stdout.contains("!! Tests vanished"), "{}", run.stdout);
    let v = json(&ci(&repo, &MAIN, &with_reports(&["--format", "json"])));
    assert_eq!(v["test_only_vanishing"], false);
    assert_eq!(v["tests"]["only_tests_or_runner_config"], false);
}

#[test]
fn every_dialect_blocks_through_the_cli() {
    let repo = deselect_branch();
    for (dialect, base, head) in [
        ("jest", "jest/base.xml", "jest/head.xml"),
        ("gotestsum", "gotestsum/base.xml", "gotestsum/head.xml"),
        ("nextest", "nextest/base.xml", "nextest/head.xml"),
        ("surefire", "surefire/base/*.xml", "surefire/head/*.xml"),
        ("gradle", "gradle/base/*.xml", "gradle/head/*.xml"),
    ] {
        let at = |p: &str| fixtures().join(p).to_str().unwrap().to_string();
        let (base, head) = (at(base), at(head));
        let run = ci(
            &repo,
            &MAIN,
            &["--results", &head, "--baseline", &base, "--format", "json"],
        );
        run.expect(1);
        let v = json(&run);
        assert!(
            !v["tests"]["vanished"].as_array().unwrap().is_empty(),
            "{dialect}: {}",
            run.stdout
        );
    }
}

#[test]
fn override_tests_prompts_on_a_terminal_and_names_exactly_the_ids() {
    use expectrl::{Eof, Session};
    let repo = deselect_branch();
    let mut cmd = repo.command_with_terminal(crate::common::GUARD, &repo.root);
    cmd.args(["override", "HEAD", "--tests", TAX_RATE]);
    let mut s = Session::spawn(cmd).expect("spawn override on a pty");
    s.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    s.expect("that this test no longer runs or is skipped")
        .unwrap();
    s.expect(TAX_RATE).unwrap();
    s.expect("any other test that vanishes still blocks")
        .unwrap();
    s.expect("Reason").unwrap();
    s.send_line("moved").unwrap();
    s.expect("please write at least 20 characters (5 so far)")
        .unwrap();
    s.send_line(REASON).unwrap();
    s.expect("Approved 1 test on").unwrap();
    s.expect(Eof).unwrap();
    let note = repo.note("HEAD").expect("note written");
    assert!(
        note.contains(&format!("Guard-Reason: {REASON}\n")),
        "{note}"
    );
    assert!(
        note.contains(&format!("Guard-Tests: {TAX_RATE}\n")),
        "{note}"
    );
    assert_eq!(note.matches("Guard-Tests:").count(), 1, "{note}");
    assert!(
        !note.contains("Guard-Paths") && !note.contains("Guard-Change"),
        "{note}"
    );
}

#[test]
fn a_long_list_is_cut_in_text_and_complete_in_json() {
    let repo = deselect_branch();
    let report = |n: usize| {
        let cases: String = (0..n)
            .map(|i| format!("<testcase classname=\"tests.test_many\" name=\"test_{i:03}\" />"))
            .collect();
        format!("<testsuites><testsuite name=\"pytest\">{cases}</testsuite></testsuites>")
    };
    repo.write("reports/many-base/junit.xml", report(130));
    repo.write("reports/many-head/junit.xml", report(10));
    let args = [
        "--results",
        "reports/many-head/*.xml",
        "--baseline",
        "reports/many-base/*.xml",
    ];
    let run = ci(&repo, &MAIN, &args);
    run.expect(1);
    assert_eq!(
        run.stdout.matches("! test-vanished").count(),
        50,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("… and 70 more findings (`--format json` lists every one)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("--tests <each id listed above>"),
        "{}",
        run.stdout
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let v = json(&ci(&repo, &MAIN, &json_args));
    assert_eq!(v["tests"]["vanished"].as_array().unwrap().len(), 120);
}
