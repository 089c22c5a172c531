//! `git guard install` / `uninstall`: where hooks go, chaining, idempotence, restoring.

use std::os::unix::fs::PermissionsExt;

use crate::common::TestRepo;

const FOREIGN: &str = "#!/bin/sh\n# the team's linter\necho foreign-ran >> \"$(git rev-parse --git-dir)/foreign.log\"\nexit ${FOREIGN_EXIT:-0}\n";

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn install_writes_executable_marked_hooks_and_uninstall_removes_them() {
    let repo = TestRepo::with_history();
    let run = repo.guard(&["install"]);
    run.expect(0);
    assert!(
        run.stdout.contains("pre-commit   installed"),
        "{}",
        run.stdout
    );
    for hook in ["pre-commit", "post-commit"] {
        let path = repo.root.join(".git/hooks").join(hook);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("#!/bin/sh\n# git-guard-hook:"), "{text}");
        assert!(text.contains(&format!("hook={hook}\n")));
        assert_eq!(mode(&path), 0o755);
    }
    repo.guard(&["uninstall"]).expect(0);
    assert!(!repo.root.join(".git/hooks/pre-commit").exists());
    assert!(!repo.root.join(".git/hooks/post-commit").exists());
}

#[test]
fn install_is_idempotent_and_sets_rewrite_ref_once() {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    let first = std::fs::read(repo.root.join(".git/hooks/pre-commit")).unwrap();
    let again = repo.guard(&["install"]);
    again.expect(0);
    assert!(
        again.stdout.contains("already installed"),
        "{}",
        again.stdout
    );
    assert_eq!(
        std::fs::read(repo.root.join(".git/hooks/pre-commit")).unwrap(),
        first
    );
    assert!(
        !repo
            .root
            .join(".git/hooks/pre-commit.guard-chained")
            .exists()
    );
    assert_eq!(
        repo.git(&["config", "--get-all", "notes.rewriteRef"]),
        "refs/notes/guard\n"
    );
}

#[test]
fn rewrite_ref_is_added_beside_existing_values() {
    let repo = TestRepo::with_history();
    repo.git(&["config", "--add", "notes.rewriteRef", "refs/notes/commits"]);
    repo.guard(&["install"]).expect(0);
    assert_eq!(
        repo.git(&["config", "--get-all", "notes.rewriteRef"]),
        "refs/notes/commits\nrefs/notes/guard\n"
    );
}

#[test]
fn foreign_hook_is_chained_runs_first_and_is_restored_byte_for_byte() {
    let repo = TestRepo::with_history();
    let hook = repo.root.join(".git/hooks/pre-commit");
    std::fs::write(&hook, FOREIGN).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o750)).unwrap();

    let run = repo.guard(&["install"]);
    run.expect(0);
    assert!(
        run.stdout.contains("existing hook is kept and runs first"),
        "{}",
        run.stdout
    );
    assert_eq!(
        std::fs::read_to_string(repo.root.join(".git/hooks/pre-commit.guard-chained")).unwrap(),
        FOREIGN
    );
    repo.guard(&["install"]).expect(0); // idempotent: no double chaining
    assert!(
        !repo
            .root
            .join(".git/hooks/pre-commit.guard-chained.guard-chained")
            .exists()
    );

    // The foreign hook runs on an ordinary commit…
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("bump", &[]).expect(0);
    let log = std::fs::read_to_string(repo.root.join(".git/foreign.log")).unwrap();
    assert_eq!(log, "foreign-ran\n");

    // …and its failure still fails the commit, even one git-guard would allow.
    repo.write("src/invoice.py", "RATE = 0.09\n");
    repo.git(&["add", "-A"]);
    let failed = repo
        .command_in("git", &repo.root)
        .args(["commit", "-q", "-m", "x"])
        .env("FOREIGN_EXIT", "3")
        .output()
        .unwrap();
    assert!(!failed.status.success());
    assert_eq!(repo.staged_paths(), vec!["src/invoice.py"]);

    repo.guard(&["uninstall"]).expect(0);
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), FOREIGN);
    assert_eq!(mode(&hook), 0o750);
    assert!(
        !repo
            .root
            .join(".git/hooks/pre-commit.guard-chained")
            .exists()
    );
}

#[test]
fn a_replaced_hook_with_a_chained_one_waiting_is_refused_not_overwritten() {
    let repo = TestRepo::with_history();
    let hooks = repo.root.join(".git/hooks");
    std::fs::write(hooks.join("pre-commit"), FOREIGN).unwrap();
    repo.guard(&["install"]).expect(0);
    // Someone overwrote our hook with another foreign one.
    std::fs::write(hooks.join("pre-commit"), "#!/bin/sh\necho second\n").unwrap();
    let run = repo.guard(&["install"]);
    run.expect(2);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(run.stderr.contains("\nhint: "), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-commit.guard-chained")).unwrap(),
        FOREIGN
    );
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-commit")).unwrap(),
        "#!/bin/sh\necho second\n"
    );
}

#[test]
fn uninstall_leaves_foreign_hooks_alone() {
    let repo = TestRepo::with_history();
    let hook = repo.root.join(".git/hooks/pre-commit");
    std::fs::write(&hook, FOREIGN).unwrap();
    let run = repo.guard(&["uninstall"]);
    run.expect(0);
    assert!(run.stdout.contains("not ours, left alone"));
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), FOREIGN);
}

#[test]
fn core_hooks_path_is_respected() {
    let repo = TestRepo::with_history();
    repo.git(&["config", "core.hooksPath", ".githooks"]);
    repo.guard(&["install"]).expect(0);
    assert!(repo.root.join(".githooks/pre-commit").exists());
    assert!(!repo.root.join(".git/hooks/pre-commit").exists());
    // git really runs it: a protected commit is blocked.
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE >= 0\n",
    );
    repo.git(&["add", "tests"]);
    repo.commit("weaken", &[]).expect(1);
}

#[test]
fn linked_worktree_uses_the_shared_hooks_and_is_guarded() {
    let repo = TestRepo::with_history();
    let wt = repo.base().join("wt");
    repo.git(&["worktree", "add", "-q", "-b", "side", wt.to_str().unwrap()]);
    let run = repo
        .command_in(crate::common::GUARD, &wt)
        .arg("install")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(repo.root.join(".git/hooks/pre-commit").exists());

    std::fs::write(
        wt.join("tests/test_invoice.py"),
        "def test_rate():\n    pass\n",
    )
    .unwrap();
    let git = |args: &[&str]| repo.command_in("git", &wt).args(args).output().unwrap();
    assert!(git(&["add", "-A"]).status.success());
    let blocked = git(&["commit", "-q", "-m", "weaken in worktree"]);
    assert_eq!(blocked.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&blocked.stderr).contains("tests/test_invoice.py"));

    // The approval is per worktree: allowed there, committed there, noted there.
    let allow = repo.human_in(
        &wt,
        &[
            "allow",
            "--reason",
            "The rate is now configured per customer elsewhere",
        ],
    );
    assert!(allow.code == 0, "{}", allow.stdout);
    assert!(repo.root.join(".git/worktrees/wt/guard/pending").is_dir());
    assert!(
        git(&["commit", "-q", "-m", "weaken in worktree"])
            .status
            .success()
    );
    assert!(repo.note("side").unwrap().contains("Guard-Via: allow"));
}

#[test]
fn install_in_a_bare_repository_is_a_clear_error() {
    let repo = TestRepo::new();
    let bare = repo.base().join("bare.git");
    repo.git(&["init", "-q", "--bare", bare.to_str().unwrap()]);
    let out = repo
        .command_in(crate::common::GUARD, &bare)
        .arg("install")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: this is a bare repository"), "{err}");
    assert!(err.contains("\nhint: "), "{err}");
}

#[test]
fn hook_fails_closed_when_the_binary_is_gone() {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    let hook = repo.root.join(".git/hooks/pre-commit");
    let text = std::fs::read_to_string(&hook).unwrap();
    let missing = text.replace(crate::common::GUARD, "/nonexistent/git-guard");
    std::fs::write(&hook, missing).unwrap();
    repo.write("src/invoice.py", "RATE = 1\n");
    repo.git(&["add", "-A"]);
    let out = repo
        .command_in("git", &repo.root)
        .args(["commit", "-q", "-m", "x"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: git-guard is not installed or not on PATH"),
        "{err}"
    );
    assert!(err.contains("hint: "), "{err}");
    assert_eq!(repo.staged_paths(), vec!["src/invoice.py"]);
}
