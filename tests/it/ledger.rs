//! `git guard run` and `git guard ledger`, and the hooks' own ledger lines.

use std::time::Duration;

use crate::common::{GUARD, Run, TestRepo};

fn ledger_lines(repo: &TestRepo) -> Vec<serde_json::Value> {
    std::fs::read_to_string(repo.root.join(".git/guard/ledger.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn run_passes_the_exit_code_through_and_records_one_line_without_the_argv() {
    let repo = TestRepo::with_history();
    let run = repo.guard(&[
        "run",
        "--",
        "sh",
        "-c",
        "echo hi; exit 3",
        "customer-secret-42",
    ]);
    run.expect(3);
    assert_eq!(run.stdout, "hi\n");
    assert!(
        run.stderr.contains("attempt 1 of 4 recorded (exit 3"),
        "{}",
        run.stderr
    );
    let lines = ledger_lines(&repo);
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(line["kind"], "attempt");
    assert_eq!(line["exit"], 3);
    assert_eq!(line["argv_sha"].as_str().unwrap().len(), 12);
    assert_eq!(line["head_before"], line["head_after"]);
    assert_eq!(line["protected_changed"], serde_json::json!([]));
    assert!(line["seconds"].as_f64().unwrap() >= 0.0);
    let raw = std::fs::read_to_string(repo.root.join(".git/guard/ledger.jsonl")).unwrap();
    assert!(
        !raw.contains("customer-secret-42") && !raw.contains("echo hi"),
        "{raw}"
    );
}

#[test]
fn run_records_protected_paths_and_findings_the_command_changed() {
    let repo = TestRepo::with_history();
    repo.write("src/dirty_before.py", "x = 1\n"); // not charged to the run
    let script = "printf 'def test_rate():\\n    assert RATE >= 0\\n' > tests/test_invoice.py && git add tests && git commit -q --no-verify -m weaken";
    repo.guard(&["run", "--", "sh", "-c", script]).expect(0);
    let line = &ledger_lines(&repo)[0];
    assert_ne!(line["head_before"], line["head_after"]);
    assert_eq!(
        line["protected_changed"],
        serde_json::json!(["tests/test_invoice.py"])
    );
    assert_eq!(
        line["findings"],
        serde_json::json!(["assertion-loosened tests/test_invoice.py:2"])
    );
}

#[test]
fn run_refuses_once_the_budget_is_spent_and_reset_starts_a_new_one() {
    let repo = TestRepo::with_history();
    for _ in 0..2 {
        repo.guard(&["run", "--max-attempts", "2", "--", "true"])
            .expect(0);
    }
    let refused = repo.guard(&["run", "--max-attempts", "2", "--", "true"]);
    refused.expect(2);
    assert!(
        refused
            .stderr
            .starts_with("error: the attempt budget is spent: 2 of 2"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("hint: ") && refused.stderr.contains("--reset"),
        "{}",
        refused.stderr
    );
    assert_eq!(ledger_lines(&repo).len(), 2);

    let reset = repo.guard(&["ledger", "--reset"]);
    reset.expect(0);
    assert!(
        reset.stdout.contains("New attempt budget started"),
        "{}",
        reset.stdout
    );
    repo.guard(&["run", "--max-attempts", "2", "--", "true"])
        .expect(0);
    let kinds: Vec<String> = ledger_lines(&repo)
        .iter()
        .map(|l| l["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, vec!["attempt", "attempt", "reset", "attempt"]);
}

#[test]
fn the_budget_comes_from_guard_toml() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[ledger]\nmax_attempts = 1\n");
    repo.commit_all("budget of one");
    repo.guard(&["run", "--", "true"]).expect(0);
    repo.guard(&["run", "--", "true"]).expect(2);
}

#[test]
fn eight_concurrent_runs_leave_eight_valid_lines() {
    let repo = TestRepo::with_history();
    let children: Vec<_> = (0..8)
        .map(|i| {
            repo.command_in(GUARD, &repo.root)
                .args([
                    "run",
                    "--max-attempts",
                    "100",
                    "--",
                    "sh",
                    "-c",
                    &format!("sleep 0.2; exit {i}"),
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        child.wait().unwrap();
    }
    let raw = std::fs::read_to_string(repo.root.join(".git/guard/ledger.jsonl")).unwrap();
    assert_eq!(raw.lines().count(), 8, "{raw}");
    let mut exits: Vec<i64> = ledger_lines(&repo)
        .iter()
        .map(|l| l["exit"].as_i64().unwrap())
        .collect();
    exits.sort();
    assert_eq!(exits, (0..8).collect::<Vec<_>>());
}

#[test]
fn sigterm_is_forwarded_to_the_command_and_the_line_is_still_written() {
    let repo = TestRepo::with_history();
    let child = repo
        .command_in(GUARD, &repo.root)
        .args(["run", "--", "sleep", "30"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(128 + 15),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = &ledger_lines(&repo)[0];
    assert_eq!(line["signal"], 15);
    assert!(line["seconds"].as_f64().unwrap() < 10.0);
}

#[test]
fn ctrl_c_reaches_the_command_and_the_line_is_still_written() {
    let repo = TestRepo::with_history();
    let mut cmd = repo.command_with_terminal(GUARD, &repo.root);
    cmd.args(["run", "--", "sh", "-c", "echo started; sleep 30"]);
    let mut s = expectrl::Session::spawn(cmd).unwrap();
    s.set_expect_timeout(Some(Duration::from_secs(20)));
    s.expect("started").unwrap();
    s.send(expectrl::ControlCode::EndOfText).unwrap();
    // What `run` prints last can be lost when the pty closes under the reader, so the
    // evidence is the exit status and the ledger itself.
    let _ = s.expect(expectrl::Eof);
    match s.get_process_mut().wait().unwrap() {
        expectrl::WaitStatus::Exited(_, code) => assert_eq!(code, 130),
        other => panic!("git guard run did not exit by itself: {other:?}"),
    }
    let line = &ledger_lines(&repo)[0];
    assert_eq!(line["kind"], "attempt");
    assert!(line["exit"] == 130 || line["signal"] == 2, "{line}");
}

#[test]
fn blocked_commits_are_recorded_and_counted_in_the_approval_note() {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE >= 0\n",
    );
    repo.git(&["add", "-A"]);
    for _ in 0..3 {
        repo.commit("make CI green", &[]).expect(1);
    }
    let lines = ledger_lines(&repo);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["kind"], "blocked");
    assert_eq!(lines[0]["hook"], "pre-commit");
    assert_eq!(lines[0]["terminal"], false);
    assert_eq!(lines[0]["staged_diff"].as_str().unwrap().len(), 16);
    assert_eq!(lines[0]["staged_diff"], lines[2]["staged_diff"]);
    assert_eq!(
        lines[0]["findings"],
        serde_json::json!(["assertion-loosened tests/test_invoice.py:2"])
    );
    repo.human(&[
        "allow",
        "--reason",
        "The rate moved to config; exact value tested there",
    ])
    .expect(0);
    repo.commit("make CI green", &[]).expect(0);
    assert!(
        repo.note("HEAD")
            .unwrap()
            .contains("Guard-Blocked-Attempts: 3\n")
    );
    let log = repo.guard(&["log"]);
    assert!(
        log.stdout.contains("preceded by 3 blocked attempts"),
        "{}",
        log.stdout
    );
}

#[test]
fn blocked_pushes_are_recorded_and_counted_by_override() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.commit("gut", &["--no-verify"]).expect(0);
    assert_ne!(
        Run::from(repo.git_output(&["push", "-q", "origin", "main"])).code,
        0
    );
    let line = &ledger_lines(&repo)[0];
    assert_eq!(line["hook"], "pre-push");
    assert_eq!(
        line["commits"],
        serde_json::json!([repo.git(&["rev-parse", "HEAD"]).trim()])
    );
    repo.human(&[
        "override",
        "HEAD",
        "--reason",
        "The test moved to the tax service suite",
    ])
    .expect(0);
    assert!(
        repo.note("HEAD")
            .unwrap()
            .contains("Guard-Blocked-Attempts: 1\n")
    );
}

#[test]
fn ledger_summarises_attempts_failures_time_and_protected_paths() {
    let repo = TestRepo::with_history();
    repo.guard(&["run", "--", "false"]).expect(1);
    repo.guard(&[
        "run",
        "--",
        "sh",
        "-c",
        "echo '# x' >> tests/test_invoice.py",
    ])
    .expect(0);
    let text = repo.guard(&["ledger"]);
    text.expect(0);
    assert!(
        text.stdout.contains("attempts:  2 of 4 used"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("failures:  1"), "{}", text.stdout);
    assert!(text.stdout.contains("attempt 2 ("), "{}", text.stdout);
    assert!(
        text.stdout.contains("touched tests/test_invoice.py"),
        "{}",
        text.stdout
    );
    let json = repo.guard(&["ledger", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["attempts"], 2);
    assert_eq!(v["budget"], 4);
    assert_eq!(v["failures"], 1);
    assert_eq!(v["touched_protected"][0]["attempt"], 2);
    assert_eq!(
        v["touched_protected"][0]["protected_changed"],
        serde_json::json!(["tests/test_invoice.py"])
    );
}

#[test]
fn a_torn_last_line_does_not_break_later_reads_or_writes() {
    let repo = TestRepo::with_history();
    repo.guard(&["run", "--", "true"]).expect(0);
    let path = repo.root.join(".git/guard/ledger.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"kind\":\"attempt\",\"ts\":\"20");
    std::fs::write(&path, text).unwrap();
    repo.guard(&["run", "--", "true"]).expect(0);
    let summary = repo.guard(&["ledger"]);
    assert!(
        summary.stdout.contains("attempts:  2 of 4 used"),
        "{}",
        summary.stdout
    );
}

#[test]
fn a_ledger_without_run_attempts_counts_the_hook_blocks_in_plain_words() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", crate::common::WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("one", &[]).expect(1);
    repo.commit("two", &[]).expect(1);
    let text = repo.guard(&["ledger"]);
    text.expect(0);
    assert!(
        text.stdout
            .contains("no `git guard run` attempts; 2 commits or pushes blocked by hooks"),
        "{}",
        text.stdout
    );
    assert!(!text.stdout.contains("0 of 4 used"), "{}", text.stdout);
    let json = repo.guard(&["ledger", "--format", "json"]);
    assert!(!json.stdout.contains("-0.0"), "{}", json.stdout);
    assert!(json.stdout.contains("\"seconds\": 0.0"), "{}", json.stdout);
}
