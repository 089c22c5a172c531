//! `git guard doctor`: each misconfiguration is caught, with a fix that works.

use std::os::unix::fs::PermissionsExt;

use crate::common::{GUARD, TestRepo};

/// A clone with origin, guard.toml committed and the hooks installed: all in order.
fn healthy() -> TestRepo {
    let repo = TestRepo::with_origin().with_path(crate::tools::path_without_guard());
    repo.guard(&["init"]).expect(0);
    repo.commit_all("policy");
    repo.guard(&["install"]).expect(0);
    let run = repo.guard(&["doctor"]);
    run.expect(0);
    assert!(
        run.stdout.ends_with("Everything is in order.\n"),
        "{}",
        run.stdout
    );
    repo
}

/// Runs doctor, expects exit 1 with a FIX line containing `finding` and a fix line
/// containing `fix`.
#[track_caller]
fn expect_fix(repo: &TestRepo, finding: &str, fix: &str) {
    let run = repo.guard(&["doctor"]);
    run.expect(1);
    let fixing = run
        .stdout
        .lines()
        .skip_while(|l| !(l.contains("FIX") && l.contains(finding)))
        .take(4)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !fixing.is_empty(),
        "no FIX for `{finding}`:\n{}",
        run.stdout
    );
    assert!(fixing.contains(fix), "fix `{fix}` missing:\n{}", run.stdout);
    assert!(run.stdout.contains("to fix."), "{}", run.stdout);
}

fn hook(repo: &TestRepo, name: &str) -> std::path::PathBuf {
    repo.root.join(".git/hooks").join(name)
}

#[test]
fn a_missing_hook_is_caught_and_install_fixes_it() {
    let repo = healthy();
    std::fs::remove_file(hook(&repo, "pre-push")).unwrap();
    expect_fix(&repo, "pre-push: no hook", "git guard install");
    // Without pre-push nothing pushes the notes either.
    expect_fix(
        &repo,
        "nothing pushes refs/notes/guard",
        "git guard install",
    );
    repo.guard(&["install"]).expect(0);
    repo.guard(&["doctor"]).expect(0);
}

#[test]
fn a_foreign_hook_in_our_place_is_caught() {
    let repo = healthy();
    std::fs::write(hook(&repo, "pre-commit"), "#!/bin/sh\nexit 0\n").unwrap();
    expect_fix(&repo, "is not git-guard's hook", "git guard install");
}

#[test]
fn a_hook_git_would_skip_as_not_executable_is_caught() {
    let repo = healthy();
    let path = hook(&repo, "post-commit");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    expect_fix(&repo, "not executable", "chmod +x");
}

#[test]
fn a_hook_whose_binary_is_gone_is_caught_unless_git_guard_is_on_path() {
    let repo = healthy();
    let path = hook(&repo, "pre-commit");
    let moved = std::fs::read_to_string(&path)
        .unwrap()
        .replace(GUARD, "/nonexistent/git-guard");
    std::fs::write(&path, moved).unwrap();
    expect_fix(
        &repo,
        "its binary is gone and git-guard is not on PATH",
        "git guard install",
    );
    let on_path = repo.clone().with_path(crate::tools::path_with(&[]));
    let run = on_path.guard(&["doctor"]);
    run.expect(0);
    assert!(
        run.stdout.contains("runs git-guard from PATH"),
        "{}",
        run.stdout
    );
}

#[test]
fn notes_not_carried_by_amend_and_rebase_are_caught_and_the_fix_works() {
    let repo = healthy();
    repo.git(&["config", "--unset-all", "notes.rewriteRef"]);
    expect_fix(
        &repo,
        "notes.rewriteRef does not include refs/notes/guard",
        "git config --add notes.rewriteRef refs/notes/guard",
    );
    repo.git(&["config", "--add", "notes.rewriteRef", "refs/notes/guard"]);
    repo.git(&["config", "notes.rewrite.amend", "false"]);
    expect_fix(
        &repo,
        "notes.rewrite.amend is false",
        "git config --unset notes.rewrite.amend",
    );
}

#[test]
fn notes_not_fetched_from_origin_are_caught_and_the_fix_works() {
    let repo = healthy();
    let fetch = repo.git(&["config", "--get-all", "remote.origin.fetch"]);
    assert!(
        fetch.contains("+refs/notes/guard*:refs/notes/guard-origin*"),
        "{fetch}"
    );
    repo.git(&["config", "--unset", "remote.origin.fetch", "refs/notes"]);
    expect_fix(
        &repo,
        "does not fetch refs/notes/guard",
        "git config --add remote.origin.fetch '+refs/notes/guard*:refs/notes/guard-origin*'",
    );
    repo.git(&[
        "config",
        "--add",
        "remote.origin.fetch",
        "+refs/notes/guard*:refs/notes/guard-origin*",
    ]);
    repo.guard(&["doctor"]).expect(0);
    // Valid for git, and harmless while origin has no notes yet.
    repo.git(&["fetch", "-q", "origin"]);
    // Once a teammate's notes are on origin, fetch brings them and they count here.
    let teammate = repo.clone_origin("teammate", &[]);
    teammate.git(&[
        "notes",
        "--ref",
        "refs/notes/guard",
        "add",
        "-m",
        "x",
        "HEAD",
    ]);
    teammate.git(&["push", "-q", "origin", "refs/notes/guard"]);
    repo.git(&["fetch", "-q", "origin"]);
    assert!(repo.git(&["show-ref"]).contains("refs/notes/guard-origin"));
}

#[test]
fn an_invalid_guard_toml_is_caught_committed_or_not() {
    let repo = healthy();
    repo.write("guard.toml", "[protect]\npaths = [\"tests/**\"\n");
    expect_fix(
        &repo,
        "guard.toml in the work tree is invalid",
        "fix it before you commit",
    );
    repo.commit_all("broken policy");
    expect_fix(
        &repo,
        "policy: guard.toml at",
        "fix guard.toml and commit it",
    );
}

#[test]
fn husky_scripts_without_git_guard_are_caught() {
    let repo = healthy();
    std::fs::create_dir_all(repo.root.join(".husky/_")).unwrap();
    repo.git(&["config", "core.hooksPath", ".husky/_"]);
    repo.write(".husky/pre-commit", "npm test\n");
    expect_fix(
        &repo,
        "pre-commit: husky manages the hooks",
        "git guard install",
    );
    let on_path = repo.clone().with_path(crate::tools::path_with(&[]));
    on_path.guard(&["install"]).expect(0);
    on_path.guard(&["doctor"]).expect(0);
    // A hook manager calls git-guard by name: off PATH, every commit would fail.
    expect_fix(
        &repo,
        "git-guard is not on PATH",
        "cargo install --locked git-guard",
    );
}

#[test]
fn doctor_outside_a_repository_is_exit_2() {
    let repo = TestRepo::new();
    let out = repo
        .command_in(GUARD, repo.home())
        .arg("doctor")
        .env("GIT_CEILING_DIRECTORIES", repo.base())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_clone_before_install_gets_the_whole_list_of_fixes() {
    let repo = TestRepo::with_origin().with_path(crate::tools::path_without_guard());
    let run = repo.guard(&["doctor"]);
    run.expect(1);
    insta::assert_snapshot!("doctor_before_install", repo.redact(&run.stdout));
}

#[test]
fn an_uncommitted_guard_toml_is_a_warning_not_ok() {
    let repo = TestRepo::installed();
    repo.write("guard.toml", "[override]\nmin_reason_chars = 30\n");
    let run = repo.guard(&["doctor"]);
    assert!(
        run.stdout
            .contains("warn  guard.toml is not committed: the hooks use it for now"),
        "{}",
        run.stdout
    );
}
