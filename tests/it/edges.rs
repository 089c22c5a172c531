//! The git edge-case matrix: each case a real repository, named after what it proves.

use std::os::unix::fs::PermissionsExt;

use crate::common::{GUARD, TestRepo};

const WEAKENED: &str = "def test_rate():\n    assert RATE >= 0\n";
const REASON: &str = "Rate now comes from the tax table, exact value tested there";

fn installed() -> TestRepo {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    repo
}

#[test]
fn detached_head_commits_are_guarded_and_noted() {
    let repo = installed();
    repo.git(&["switch", "-q", "--detach", "HEAD"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("detached", &[]).expect(1);
    repo.guard(&["allow", "--reason", REASON]).expect(0);
    repo.commit("detached", &[]).expect(0);
    assert!(repo.note("HEAD").unwrap().contains(REASON));
}

#[test]
fn a_symlink_added_inside_tests_is_a_protected_change() {
    let repo = installed();
    std::os::unix::fs::symlink("../src/invoice.py", repo.root.join("tests/linked.py")).unwrap();
    repo.git(&["add", "-A"]);
    let run = repo.commit("link", &[]);
    run.expect(1);
    assert!(run.stderr.contains("A tests/linked.py"), "{}", run.stderr);
}

#[test]
fn a_case_only_rename_out_of_tests_is_caught_and_within_tests_is_not_a_finding() {
    let repo = installed();
    repo.git(&["mv", "tests", "Tests"]);
    let run = repo.guard(&["check", "--format", "json"]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["checked"][0]["findings"][0]["kind"], "protected-moved");
    repo.git(&["mv", "Tests", "tests"]);
    repo.git(&["mv", "tests/test_invoice.py", "tests/Test_invoice.py"]);
    let run = repo.guard(&["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["checked"][0]["findings"], serde_json::json!([]));
}

#[test]
fn an_empty_guard_toml_means_the_defaults() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "");
    repo.commit_all("empty policy");
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
    assert!(run.stdout.contains("`tests/**`"), "{}", run.stdout);
}

#[test]
fn a_10_mb_guard_toml_is_read_without_trouble() {
    let repo = TestRepo::with_history();
    let mut text = String::with_capacity(10 << 20);
    while text.len() < 10 << 20 {
        text.push_str(
            "# a very long comment line to make this file large, as a hostile repo might\n",
        );
    }
    text.push_str("[protect]\npaths = [\"tests/**\"]\n");
    repo.write("guard.toml", text);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
}

#[test]
fn a_binary_foreign_hook_is_chained_and_restored_byte_for_byte() {
    let repo = TestRepo::with_history();
    let hook = repo.root.join(".git/hooks/pre-commit");
    let binary = std::fs::read("/bin/true").unwrap();
    std::fs::write(&hook, &binary).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    repo.guard(&["install"]).expect(0);
    repo.write("src/invoice.py", "RATE = 1\n");
    repo.git(&["add", "-A"]);
    repo.commit("runs through the chained binary", &[])
        .expect(0);
    repo.guard(&["uninstall"]).expect(0);
    assert_eq!(std::fs::read(&hook).unwrap(), binary);
}

#[test]
fn check_in_a_bare_repository_is_a_clear_error() {
    let repo = TestRepo::with_history();
    let bare = repo.base().join("bare.git");
    repo.git(&[
        "clone",
        "-q",
        "--bare",
        repo.root.to_str().unwrap(),
        bare.to_str().unwrap(),
    ]);
    let out = repo
        .command_in(GUARD, &bare)
        .args(["check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: this is a bare repository"), "{err}");
    // A commit is judged fine in a bare repository (CI servers have those): the root
    // commit adds tests without a note, so it needs approval.
    let ok = repo
        .command_in(GUARD, &bare)
        .args(["check", "--commit", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(
        ok.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("NEEDS APPROVAL"));
}

#[test]
fn a_cherry_pick_without_its_note_is_matched_by_patch_id() {
    let repo = TestRepo::with_history();
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.git(&["switch", "-q", "-c", "release"]);
    repo.git(&["switch", "-q", "-c", "fix", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("loosen");
    let picked = repo
        .git(&["rev-parse", "--short", "HEAD"])
        .trim()
        .to_string();
    repo.guard(&["override", &picked, "--reason", REASON])
        .expect(0);
    repo.git(&["switch", "-q", "release"]);
    repo.write("README.md", "release notes\n");
    repo.commit_all("release prep");
    repo.git(&["cherry-pick", &picked]);
    let run = repo.guard(&["check", "--range", &format!("{base}..release")]);
    run.expect(0);
    assert!(run.stdout.contains("approved"), "{}", run.stdout);
}

#[test]
fn concurrent_overrides_never_lose_a_note_silently() {
    let repo = TestRepo::with_history();
    let mut ids = Vec::new();
    for i in 0..6 {
        repo.write(
            format!("tests/test_{i}.py"),
            format!("def test_{i}():\n    assert {i} == {i}\n"),
        );
        repo.commit_all(&format!("test {i}"));
        ids.push(repo.git(&["rev-parse", "HEAD"]).trim().to_string());
    }
    let children: Vec<_> = ids
        .iter()
        .map(|id| {
            repo.command_in(GUARD, &repo.root)
                .args(["override", id, "--reason", REASON])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let codes: Vec<i32> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap().status.code().unwrap())
        .collect();
    // Writers take turns on the notes ref: every override succeeds and every note stays.
    assert_eq!(codes, vec![0; ids.len()]);
    for id in &ids {
        assert!(
            repo.note(id).is_some(),
            "override of {id} said yes but its note is gone"
        );
    }
}
