//! `git guard check`, `log`, `init`, and how guard.toml is found and reported.

use crate::common::TestRepo;

#[test]
fn check_staged_json_is_parseable_and_complete() {
    let repo = TestRepo::with_history();
    repo.git(&["mv", "tests/test_invoice.py", "src/check_invoice.py"]);
    let run = repo.guard(&["check", "--staged", "--format", "json"]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["blocked"], true);
    assert_eq!(v["policy"], "built-in defaults");
    let staged = &v["checked"][0];
    assert_eq!(staged["target"], "staged");
    assert_eq!(staged["verdict"], "needs-approval");
    assert_eq!(staged["files_changed"], 1);
    assert_eq!(staged["protected"][0]["status"], "renamed");
    assert_eq!(staged["protected"][0]["old_path"], "tests/test_invoice.py");
    assert_eq!(staged["protected"][0]["new_path"], "src/check_invoice.py");
    assert_eq!(staged["protected"][0]["matched"][0]["pattern"], "tests/**");
    assert_eq!(staged["findings"][0]["kind"], "protected-moved");
    assert_eq!(staged["findings"][0]["blocking"], true);
    assert_eq!(
        staged["approval_paths"],
        serde_json::json!(["src/check_invoice.py", "tests/test_invoice.py"])
    );
}

#[test]
fn check_with_nothing_staged_is_clean() {
    let repo = TestRepo::with_history();
    let run = repo.guard(&["check"]);
    run.expect(0);
    let json = repo.guard(&["check", "--format", "json"]);
    json.expect(0);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["blocked"], false);
    assert_eq!(v["checked"], serde_json::json!([]));
}

#[test]
fn check_after_allow_reports_approved() {
    let repo = TestRepo::with_history();
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.guard(&["check"]).expect(1);
    repo.human(&[
        "allow",
        "--reason",
        "The rate test moves to the tax module suite",
    ])
    .expect(0);
    let run = repo.guard(&["check"]);
    run.expect(0);
    assert!(run.stdout.contains("=> approved"), "{}", run.stdout);
}

#[test]
fn check_range_reports_each_commit() {
    let repo = TestRepo::with_history();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("code only");
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.commit_all("test gutted");
    let run = repo.guard(&[
        "check",
        "--range",
        &format!("{}..HEAD", base.trim()),
        "--format",
        "json",
    ]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let verdicts: Vec<_> = v["checked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].clone())
        .collect();
    assert_eq!(verdicts, vec!["clean", "needs-approval"]);
    assert_eq!(v["checked"][1]["subject"], "test gutted");
}

#[test]
fn policy_at_head_wins_over_an_uncommitted_edit() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[protect]\npaths = [\"tests/**\"]\n");
    repo.commit_all("policy");
    // Unprotecting tests in the work tree does not change the policy in force.
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "tests"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
    assert!(
        run.stdout.contains("policy: guard.toml at "),
        "{}",
        run.stdout
    );
}

#[test]
fn uncommitted_guard_toml_applies_before_the_first_policy_commit() {
    let repo = TestRepo::with_history();
    repo.guard(&["init"]).expect(0);
    repo.write("guard.toml", "[protect]\npaths = [\"specs/**\"]\n");
    repo.write("specs/a.txt", "x\n");
    repo.git(&["add", "specs"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
    assert!(run.stdout.contains("`specs/**`"), "{}", run.stdout);
    assert!(
        run.stdout.contains("work tree, not yet committed"),
        "{}",
        run.stdout
    );
}

#[test]
fn defaults_are_announced_in_one_line() {
    let repo = TestRepo::with_history();
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    assert_eq!(
        run.stdout.matches("note: no guard.toml here").count(),
        1,
        "{}",
        run.stdout
    );
}

#[test]
fn bad_guard_toml_names_file_line_and_column() {
    let repo = TestRepo::with_history();
    repo.write(
        "guard.toml",
        "[protect]\npaths = [\"tests/**\"]\n\n[override]\nlable = \"x\"\n",
    );
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "tests"]);
    let run = repo.guard(&["check"]);
    run.expect(2);
    insta::assert_snapshot!("bad_guard_toml", run.stderr);
}

#[test]
fn bad_glob_is_named_and_blocks_the_hook_with_exit_2() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[protect]\npaths = [\"tests/[oops\"]\n");
    repo.commit_all("broken policy");
    repo.guard(&["install"]).expect(2);
    // Installed under a good policy, the hook fails closed when the policy breaks.
    let ok = TestRepo::with_history();
    ok.guard(&["install"]).expect(0);
    ok.write("guard.toml", "[protect]\npaths = [\"tests/[oops\"]\n");
    ok.commit_all("broken policy");
    ok.write("src/invoice.py", "RATE = 1\n");
    ok.git(&["add", "-A"]);
    // git reports any failing pre-commit as exit 1; the hook itself exits 2.
    let run = ok.commit("x", &[]);
    run.expect(1);
    ok.guard(&["hook", "pre-commit"]).expect(2);
    assert!(run.stderr.contains("`tests/[oops`"), "{}", run.stderr);
    assert!(run.stderr.contains("\nhint: "), "{}", run.stderr);
}

#[test]
fn binary_garbage_guard_toml_is_an_error_not_a_panic() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", [0xff, 0x00, 0xfe, 0x80, b'\n']);
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(
        run.stderr.starts_with("error: guard.toml: not UTF-8"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"));
}

#[test]
fn init_writes_the_defaults_and_refuses_to_overwrite() {
    let repo = TestRepo::with_history();
    repo.guard(&["init"]).expect(0);
    let text = std::fs::read_to_string(repo.root.join("guard.toml")).unwrap();
    assert!(text.contains("[protect]") && text.contains("min_reason_chars = 20"));
    repo.write("guard.toml", "# mine\n");
    let run = repo.guard(&["init"]);
    run.expect(2);
    assert!(run.stderr.contains("already exists") && run.stderr.contains("hint: "));
    assert_eq!(
        std::fs::read_to_string(repo.root.join("guard.toml")).unwrap(),
        "# mine\n"
    );
    repo.guard(&["init", "--force"]).expect(0);
    assert_eq!(
        std::fs::read_to_string(repo.root.join("guard.toml")).unwrap(),
        text
    );
}

#[test]
fn log_lists_overrides_with_reason_who_when_and_paths() {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    repo.guard(&["log"]).expect(0);
    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.human(&[
        "allow",
        "--reason",
        "The rate test moves to the tax module suite",
    ])
    .expect(0);
    repo.commit("gut rate test", &[]).expect(0);
    repo.write("src/invoice.py", "RATE = 1\n");
    repo.commit_all("unrelated");
    let run = repo.guard(&["log"]);
    run.expect(0);
    let text = run.stdout;
    assert!(text.contains(" gut rate test\n"), "{text}");
    assert!(!text.contains("unrelated"), "{text}");
    assert!(
        text.contains("reason:   The rate test moves to the tax module suite"),
        "{text}"
    );
    assert!(
        text.contains("by:       Jane Doe <jane@example.com> at 20"),
        "{text}"
    );
    assert!(text.contains("via allow"), "{text}");
    assert!(text.contains("path:     tests/test_invoice.py"), "{text}");
    let none = repo.guard(&["log", "HEAD~1..HEAD"]);
    none.expect(0);
    assert!(
        none.stdout.contains("No overrides recorded"),
        "{}",
        none.stdout
    );
}

#[test]
fn log_in_an_empty_repository_says_nothing_recorded() {
    let repo = TestRepo::new();
    let run = repo.guard(&["log"]);
    run.expect(0);
    assert!(run.stdout.contains("No overrides recorded"));
}

#[test]
fn range_and_single_commit_checks_agree_on_renames_deletions_and_merges() {
    let repo = TestRepo::with_history();
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.git(&["switch", "-q", "-c", "side"]);
    repo.write("test/test_side.py", "def test_side():\n    assert 1 == 1\n");
    repo.commit_all("side adds a test");
    repo.git(&["switch", "-q", "main"]);
    std::fs::create_dir(repo.root.join("checks")).unwrap();
    repo.git(&["mv", "tests/test_invoice.py", "checks/test_invoice.py"]);
    repo.git(&["commit", "-q", "--no-verify", "-m", "move out"]);
    repo.write("conftest.py", "import pytest\n");
    repo.commit_all("add conftest");
    repo.git(&["rm", "-q", "conftest.py"]);
    repo.git(&["commit", "-q", "--no-verify", "-m", "drop conftest"]);
    repo.git(&["merge", "-q", "--no-edit", "side"]);
    let range = repo.guard(&[
        "check",
        "--range",
        &format!("{base}..HEAD"),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&range.stdout).unwrap();
    let commits = v["checked"].as_array().unwrap();
    assert_eq!(commits.len(), 5);
    for c in commits {
        let target = c["target"].as_str().unwrap();
        let single = repo.guard(&["check", "--commit", target, "--format", "json"]);
        let s: serde_json::Value = serde_json::from_str(&single.stdout).unwrap();
        let s = &s["checked"][0];
        for field in [
            "protected",
            "findings",
            "files_changed",
            "verdict",
            "approval_paths",
        ] {
            assert_eq!(c[field], s[field], "{target} {field}");
        }
    }
    // The merge brings in side's already-listed commit: nothing of its own to approve.
    let merge = commits
        .iter()
        .find(|c| c["subject"].as_str().unwrap().starts_with("Merge"))
        .unwrap();
    assert_eq!(merge["verdict"], "clean");
}
