//! pre-push through real `git push` to a bare repository, and notes that travel.

use crate::common::{REASON, TestRepo, WEAKENED};

fn sneak_commit(repo: &TestRepo) -> String {
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    repo.git(&["rev-parse", "--short", "HEAD"])
        .trim()
        .to_string()
}

fn push(repo: &TestRepo, args: &[&str]) -> crate::common::Run {
    let mut all = vec!["push", "-q", "origin"];
    all.extend_from_slice(args);
    crate::common::Run::from(repo.git_output(&all))
}

#[test]
fn push_without_a_note_is_blocked_listing_the_commit_and_the_command() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let id = sneak_commit(&repo);
    let run = push(&repo, &["main"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("git-guard: push blocked: 1 commit"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("commit {id} make CI green")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("git guard override {id}")),
        "{}",
        run.stderr
    );
    // The command is named as a human's step, never handed over with a reason to fill in.
    assert!(!run.stderr.contains("--reason"), "{}", run.stderr);
    assert_ne!(
        repo.origin_git(&["rev-parse", "main"]),
        repo.git(&["rev-parse", "main"])
    );
}

#[test]
fn push_after_override_passes_and_the_note_arrives_on_the_remote() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let id = sneak_commit(&repo);
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    let note = repo.note("HEAD").unwrap();
    assert!(note.contains("Guard-Via: override\n"), "{note}");
    assert!(note.contains("Guard-Patch-Id: "), "{note}");
    push(&repo, &["main"]).expect(0);
    assert_eq!(
        repo.origin_git(&["rev-parse", "main"]),
        repo.git(&["rev-parse", "main"])
    );
    let remote_note = repo.origin_git(&["notes", "--ref", "refs/notes/guard", "show", "main"]);
    assert!(remote_note.contains(REASON), "{remote_note}");
}

#[test]
fn allowed_commits_push_silently_and_unprotected_ones_need_nothing() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code", &[]).expect(0);
    let run = push(&repo, &["main"]);
    run.expect(0);
    assert_eq!(run.stderr, "");
}

#[test]
fn patch_id_matches_git_patch_id_stable() {
    let repo = TestRepo::with_origin();
    let id = sneak_commit(&repo);
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    let ours = repo
        .note("HEAD")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Guard-Patch-Id: ").map(String::from))
        .unwrap();
    let diff = repo.git(&["diff-tree", "-p", "-M", "HEAD~1", "HEAD"]);
    let out = repo
        .command_in("git", &repo.root)
        .args(["patch-id", "--stable"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(diff.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let git = String::from_utf8(out.stdout).unwrap();
    assert_eq!(git.split_whitespace().next(), Some(ours.as_str()));
}

#[test]
fn a_new_branch_checks_only_commits_the_remote_does_not_have() {
    let repo = TestRepo::with_origin();
    // An old unapproved protected commit already on the remote is not re-checked.
    sneak_commit(&repo);
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code", &[]).expect(0);
    push(&repo, &["feature"]).expect(0);
}

#[test]
fn deleting_a_remote_branch_is_not_checked() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "doomed"]);
    sneak_commit(&repo);
    repo.git(&["push", "-q", "--no-verify", "origin", "doomed"]);
    repo.guard(&["install"]).expect(0);
    push(&repo, &["--delete", "doomed"]).expect(0);
}

#[test]
fn merging_main_with_approved_commits_into_a_branch_passes() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/other.py", "x = 1\n");
    repo.git(&["add", "-A"]);
    repo.commit("feature work", &[]).expect(0);
    push(&repo, &["feature"]).expect(0);
    // Meanwhile main gets an approved protected change.
    repo.git(&["switch", "-q", "main"]);
    let id = sneak_commit(&repo);
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    push(&repo, &["main"]).expect(0);
    // Merging main into the branch does not re-flag main's change.
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&["merge", "-q", "--no-edit", "main"]);
    push(&repo, &["feature"]).expect(0);
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn a_merge_resolution_that_edits_a_test_is_checked() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/other.py", "x = 1\n");
    repo.commit_all("feature work");
    repo.git(&["switch", "-q", "main"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("main work");
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&["merge", "-q", "--no-commit", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("tests/test_invoice.py"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("src/invoice.py"), "{}", run.stdout);
}

#[test]
fn notes_added_in_two_clones_both_survive() {
    let repo = TestRepo::with_origin();
    let a = repo.clone_origin("a", &[]);
    let b = repo.clone_origin("b", &[]);
    for clone in [&a, &b] {
        clone.guard(&["install"]).expect(0);
    }
    // Clone a: a commit with a note, pushed.
    let id_a = sneak_commit(&a);
    a.human(&["override", &id_a, "--reason", REASON]).expect(0);
    push(&a, &["main"]).expect(0);
    // Clone b, not fetched: its own approved commit on another branch, then push.
    b.git(&["switch", "-q", "-c", "other"]);
    b.write("tests/test_new.py", "def test_new():\n    assert 2 == 2\n");
    b.git(&["add", "-A"]);
    b.commit("new test", &["--no-verify"]).expect(0);
    let id_b = b.git(&["rev-parse", "--short", "HEAD"]).trim().to_string();
    b.human(&[
        "override",
        &id_b,
        "--reason",
        "Adding a test for the new discount rule",
    ])
    .expect(0);
    let run = push(&b, &["other"]);
    run.expect(0);
    assert!(!run.stderr.contains("WARNING"), "{}", run.stderr);
    let notes = repo.origin_git(&["notes", "--ref", "refs/notes/guard", "list"]);
    assert_eq!(notes.lines().count(), 2, "{notes}");
    assert!(
        repo.origin_git(&["notes", "--ref", "refs/notes/guard", "show", "main"])
            .contains(REASON)
    );
    assert!(
        repo.origin_git(&["notes", "--ref", "refs/notes/guard", "show", "other"])
            .contains("new discount rule")
    );
}

#[test]
fn a_notes_push_failure_warns_but_the_code_push_goes_through() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let hook = repo.base().join("origin.git/hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do case $ref in refs/notes/*) echo no notes here >&2; exit 1;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let id = sneak_commit(&repo);
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    let run = push(&repo, &["main"]);
    run.expect(0);
    assert!(
        run.stderr
            .contains("WARNING: could not push refs/notes/guard to origin"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("run by hand"), "{}", run.stderr);
    assert_eq!(
        repo.origin_git(&["rev-parse", "main"]),
        repo.git(&["rev-parse", "main"])
    );
}

#[test]
fn malformed_pre_push_input_is_exit_2() {
    let repo = TestRepo::with_history();
    let out = repo
        .command_in(crate::common::GUARD, &repo.root)
        .args(["hook", "pre-push", "origin", "url"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"refs/heads/main nonsense\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: malformed pre-push line"), "{err}");
}

#[test]
fn a_teammates_approval_fetched_from_origin_covers_my_push_of_that_commit() {
    let me = TestRepo::with_origin();
    me.guard(&["install"]).expect(0); // adds the notes refspec to remote.origin.fetch
    let mate = me.clone_origin("mate", &[]);
    sneak_commit(&mate);
    mate.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    mate.git(&[
        "push",
        "-q",
        "--no-verify",
        "origin",
        "HEAD:refs/heads/review",
    ]);
    mate.git(&["push", "-q", "origin", "refs/notes/guard"]);

    me.git(&["fetch", "-q", "origin"]);
    me.git(&["merge", "-q", "--ff-only", "origin/review"]);
    assert!(me.git(&["show-ref"]).contains("refs/notes/guard-origin"));
    push(&me, &["main"]).expect(0);

    // The same push without the fetched notes is blocked: they are what approved it.
    me.git(&["reset", "-q", "--hard", "HEAD~1"]);
    me.git(&["push", "-q", "--no-verify", "--force", "origin", "main"]);
    me.git(&["update-ref", "-d", "refs/notes/guard-origin"]);
    me.git(&["merge", "-q", "--ff-only", "origin/review"]);
    let blocked = push(&me, &["main"]);
    assert_ne!(blocked.code, 0, "{}", blocked.all());
    assert!(
        blocked.stderr.contains("push blocked"),
        "{}",
        blocked.stderr
    );
}
