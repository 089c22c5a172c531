//! `git guard agent-hook claude-code`, fed recorded Claude Code PreToolUse payloads
//! (tests/fixtures/claude-code), answering in the hook's JSON decision form.

use std::io::Write;
use std::process::Stdio;

use crate::common::{GUARD, Run, TestRepo};

/// Runs the adapter on a fixture payload (paths filled in for this repository).
fn hook(repo: &TestRepo, fixture: &str) -> Run {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code")
        .join(fixture);
    let payload = std::fs::read_to_string(path)
        .unwrap()
        .replace("{{ROOT}}", repo.root.to_str().unwrap())
        .replace("{{HOME}}", repo.home().to_str().unwrap());
    feed(repo, &payload)
}

fn feed(repo: &TestRepo, payload: &str) -> Run {
    // Claude Code runs hooks from the project directory; any directory must work.
    let mut child = repo
        .command_in(GUARD, repo.home())
        .args(["agent-hook", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    Run::from(child.wait_with_output().unwrap())
}

/// The decision and its reason, from the JSON on stdout.
fn decision(run: &Run) -> (String, String) {
    let value: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout));
    let output = &value["hookSpecificOutput"];
    assert_eq!(output["hookEventName"], "PreToolUse");
    (
        output["permissionDecision"].as_str().unwrap().to_string(),
        output["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .to_string(),
    )
}

#[test]
fn an_edit_that_loosens_an_assertion_is_denied_before_it_lands() {
    let repo = TestRepo::with_history();
    let before = std::fs::read(repo.root.join("tests/test_invoice.py")).unwrap();
    let run = hook(&repo, "edit-loosens-assertion.json");
    run.expect(0);
    let (verdict, reason) = decision(&run);
    assert_eq!(verdict, "deny");
    assert!(
        reason.contains("assertion-loosened tests/test_invoice.py:2"),
        "{reason}"
    );
    assert!(reason.contains("Fix the code under test"), "{reason}");
    assert_eq!(
        std::fs::read(repo.root.join("tests/test_invoice.py")).unwrap(),
        before,
        "the adapter never writes"
    );
}

#[test]
fn a_multi_edit_with_a_relative_path_that_adds_a_skip_is_denied() {
    let repo = TestRepo::with_history();
    let (verdict, reason) = decision(hook(&repo, "multiedit-adds-skip.json").expect(0));
    assert_eq!(verdict, "deny");
    assert!(
        reason.contains("skip-added tests/test_invoice.py:4"),
        "{reason}"
    );
}

#[test]
fn a_new_file_under_a_protected_path_is_put_to_the_user() {
    // Under the default `additions = "allow"` a new test file that only adds tests is a
    // strengthening and needs nobody; a policy that asks puts it to the user.
    let repo = TestRepo::with_history();
    let run = hook(&repo, "write-new-test-file.json");
    run.expect(0);
    assert_eq!(run.stdout, "", "a strengthening passes");
    repo.write("guard.toml", "[protect]\nadditions = \"ask\"\n");
    repo.commit_all("policy: additions need a reason too");
    let (verdict, reason) = decision(hook(&repo, "write-new-test-file.json").expect(0));
    assert_eq!(verdict, "ask");
    assert!(reason.contains("tests/unit/test_totals.py"), "{reason}");
}

#[test]
fn edits_outside_protected_paths_and_other_tools_get_no_opinion() {
    let repo = TestRepo::with_history();
    for fixture in ["edit-source.json", "bash-command.json"] {
        let run = hook(&repo, fixture);
        run.expect(0);
        assert_eq!(run.stdout, "", "{fixture}");
    }
}

#[test]
fn the_policy_is_the_committed_guard_toml() {
    let repo = TestRepo::with_history();
    repo.write(
        "guard.toml",
        "[protect]\npaths = [\"spec/**\"]\n[weakening]\nblock = []\n",
    );
    repo.commit_all("policy without tests/ and without blocking findings");
    let run = hook(&repo, "edit-loosens-assertion.json");
    run.expect(0);
    assert_eq!(run.stdout, "", "nothing this policy protects or blocks");
}

#[test]
fn a_malformed_payload_fails_closed_with_exit_2() {
    let repo = TestRepo::with_history();
    let run = feed(&repo, "{\"tool_name\": ");
    run.expect(2);
    assert!(
        run.stderr
            .starts_with("error: the hook payload is not a Claude Code"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("\nhint: "), "{}", run.stderr);
}

#[test]
fn a_file_outside_any_repository_gets_no_opinion() {
    let repo = TestRepo::with_history();
    let elsewhere = repo.home().join("notes.md");
    let payload = serde_json::json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": elsewhere, "content": "x"},
    });
    let run = feed(&repo, &payload.to_string());
    run.expect(0);
    assert_eq!(run.stdout, "");
}
