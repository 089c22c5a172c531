//! pre-commit and post-commit through real `git commit`, with no terminal attached.

use std::os::unix::ffi::OsStrExt;

use crate::common::{REASON, TestRepo, WEAKENED};

#[test]
fn unprotected_commit_passes_silently() {
    let repo = TestRepo::installed();
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("bump rate", &[]);
    run.expect(0);
    assert_eq!(run.all(), "");
    assert_eq!(repo.note("HEAD"), None);
}

#[test]
fn protected_commit_without_terminal_is_blocked_with_next_steps_and_nothing_lost() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    let run = repo.commit("make CI green", &[]);
    run.expect(1);
    insta::assert_snapshot!("blocked_commit", repo.redact(&run.stderr));
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(repo.staged_paths(), vec!["tests/test_invoice.py"]);
    assert_eq!(
        std::fs::read_to_string(repo.root.join("tests/test_invoice.py")).unwrap(),
        WEAKENED
    );
}

#[test]
fn allow_then_commit_leaves_a_valid_note_in_trailer_format() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    let run = repo.commit("loosen rate test", &[]);
    run.expect(0);
    assert!(
        run.stderr.contains("approved via allow by Jane Doe"),
        "{}",
        run.stderr
    );

    let note = repo.note("HEAD").expect("a note on the new commit");
    let mut lines = note.lines();
    assert_eq!(lines.next(), Some("git-guard: protected change approved"));
    assert_eq!(lines.next(), Some(""));
    let trailers = repo
        .command_in("git", &repo.root)
        .args(["interpret-trailers", "--parse"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(note.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let trailers = String::from_utf8(trailers.stdout).unwrap();
    assert!(
        trailers.contains(&format!("Guard-Reason: {REASON}\n")),
        "{trailers}"
    );
    assert!(
        trailers.contains("Guard-By: Jane Doe <jane@example.com>\n"),
        "{trailers}"
    );
    assert!(trailers.contains("Guard-Via: allow\n"), "{trailers}");
    assert!(
        trailers.contains("Guard-Paths: tests/test_invoice.py\n"),
        "{trailers}"
    );
    assert!(trailers.contains("Guard-At: 20"), "{trailers}");

    // The pending approval is gone; check --commit agrees the note is valid.
    assert!(!repo.root.join(".git/guard/pending").exists());
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn allow_does_not_cover_a_different_staged_change() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.write("tests/test_other.py", "def test_nothing():\n    pass\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("sneak in more", &[]);
    run.expect(1);
    assert!(run.stderr.contains("tests/test_other.py"), "{}", run.stderr);
    // Even one byte differs: not covered.
    repo.git(&["rm", "-q", "-f", "tests/test_other.py"]);
    repo.write("tests/test_invoice.py", format!("{WEAKENED}\n"));
    repo.git(&["add", "-A"]);
    repo.commit("one more byte", &[]).expect(1);
    // Back to exactly the approved tree: allowed.
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("the approved change", &[]).expect(0);
}

#[test]
fn allow_is_refused_when_policy_requires_the_prompt() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[override]\nallow_without_tty = false\n");
    repo.commit_all("policy");
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["allow", "--reason", REASON]);
    run.expect(1);
    assert!(
        run.stdout.contains("allow_without_tty = false"),
        "{}",
        run.stdout
    );
    let blocked = repo.commit("x", &[]);
    blocked.expect(1);
    assert!(
        !blocked.stderr.contains("git guard allow --reason"),
        "{}",
        blocked.stderr
    );
}

#[test]
fn allow_with_a_short_reason_is_an_error() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["allow", "--reason", "flaky"]);
    run.expect(2);
    assert!(
        run.stderr.starts_with("error: the reason is too short"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("\nhint: "));
    assert!(!repo.root.join(".git/guard/pending").exists());
}

#[test]
fn first_commit_is_checked_against_the_empty_tree() {
    let repo = TestRepo::new();
    repo.guard(&["install"]).expect(0);
    repo.write("src/a.py", "x = 1\n");
    repo.git(&["add", "-A"]);
    repo.commit("root without tests", &[]).expect(0);

    let fresh = TestRepo::new();
    fresh.guard(&["install"]).expect(0);
    fresh.write("tests/test_a.py", "def test_a():\n    assert 1 == 1\n");
    fresh.git(&["add", "-A"]);
    let run = fresh.commit("root with tests", &[]);
    run.expect(1);
    assert!(run.stderr.contains("A tests/test_a.py"), "{}", run.stderr);
    fresh
        .human(&[
            "allow",
            "--reason",
            "First version of the test suite for module a",
        ])
        .expect(0);
    fresh.commit("root with tests", &[]).expect(0);
    assert!(
        fresh
            .note("HEAD")
            .unwrap()
            .contains("Guard-Paths: tests/test_a.py")
    );
}

#[test]
fn rename_out_of_tests_is_blocked_naming_both_paths_and_the_finding() {
    let repo = TestRepo::installed();
    repo.git(&["mv", "tests/test_invoice.py", "src/check_invoice.py"]);
    let run = repo.commit("move test out of the way", &[]);
    run.expect(1);
    assert!(
        run.stderr
            .contains("R tests/test_invoice.py -> src/check_invoice.py  (protected by `tests/**`)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("! protected-moved src/check_invoice.py"),
        "{}",
        run.stderr
    );
}

#[test]
fn deleting_a_protected_file_is_blocked() {
    let repo = TestRepo::installed();
    repo.git(&["rm", "-q", "tests/test_invoice.py"]);
    let run = repo.commit("drop the test", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("D tests/test_invoice.py"),
        "{}",
        run.stderr
    );
}

#[test]
fn editing_guard_toml_is_always_protected() {
    let repo = TestRepo::installed();
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("relax policy", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("guard.toml (always protected)"),
        "{}",
        run.stderr
    );
}

#[test]
fn unusual_paths_are_matched_shown_quoted_and_recorded_exactly() {
    let repo = TestRepo::installed();
    let names = [
        "tests/with space.py",
        "tests/ünïcode.py",
        "tests/new\nline.py",
    ];
    for name in names {
        repo.write(name, "def test_x():\n    assert True\n");
    }
    repo.git(&["add", "-A"]);
    let run = repo.commit("odd names", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("A \"tests/with space.py\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("A \"tests/\\303\\274n\\303\\257code.py\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("A \"tests/new\\nline.py\""),
        "{}",
        run.stderr
    );
    repo.human(&[
        "allow",
        "--reason",
        "Adding tests for files with unusual names",
    ])
    .expect(0);
    repo.commit("odd names", &[]).expect(0);
    let note = repo.note("HEAD").unwrap();
    assert!(
        note.contains("Guard-Paths: \"tests/new\\nline.py\"\n"),
        "{note}"
    );
    assert!(
        note.contains("Guard-Paths: \"tests/with space.py\"\n"),
        "{note}"
    );
    // Reading the note back gives the exact bytes: the commit counts as approved.
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn non_utf8_path_is_handled_as_bytes() {
    let repo = TestRepo::installed();
    let name = std::ffi::OsStr::from_bytes(b"tests/caf\xe9.py");
    repo.write(name, "def test_x():\n    assert True\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("latin-1 name", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("A \"tests/caf\\351.py\""),
        "{}",
        run.stderr
    );
    repo.human(&[
        "allow",
        "--reason",
        "Test for the legacy latin-1 file name import",
    ])
    .expect(0);
    repo.commit("latin-1 name", &[]).expect(0);
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn partial_commit_of_an_unprotected_path_uses_the_temporary_index() {
    let repo = TestRepo::installed();
    // A protected change is staged but not part of this commit.
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit("only the source", &["--", "src/invoice.py"])
        .expect(0);
    assert_eq!(
        repo.git(&["show", "--name-only", "--format=", "HEAD"]),
        "src/invoice.py\n"
    );
    // The protected change is still staged, untouched.
    assert_eq!(repo.staged_paths(), vec!["tests/test_invoice.py"]);
}

#[test]
fn partial_commit_of_a_protected_path_is_blocked() {
    let repo = TestRepo::installed();
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "src"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    let run = repo.commit("only the test", &["--", "tests/test_invoice.py"]);
    run.expect(1);
    assert!(
        run.stderr.contains("tests/test_invoice.py"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("src/invoice.py"), "{}", run.stderr);
    assert_eq!(repo.staged_paths(), vec!["src/invoice.py"]);
}

#[test]
fn commit_all_sees_unstaged_protected_changes() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    let run = repo.commit("everything", &["-a"]);
    run.expect(1);
    assert!(
        run.stderr.contains("M tests/test_invoice.py"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.staged_paths(), Vec::<String>::new());
}

#[test]
fn amend_carries_the_note_through_rewrite_ref() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.commit("loosen", &[]).expect(0);
    repo.commit("loosen, reworded", &["--amend"]).expect(0);
    assert!(repo.note("HEAD").unwrap().contains(REASON));
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn a_no_verify_commit_has_no_note_and_check_says_so() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("sneak", &["--no-verify"]).expect(0);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}

#[test]
fn a_note_covering_fewer_paths_than_the_commit_is_not_valid() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.commit("approved", &[]).expect(0);
    // Amend in another protected file without approval; the old note is carried over.
    repo.write("tests/test_more.py", "def test_more():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.commit("approved", &["--amend", "--no-verify"])
        .expect(0);
    assert!(repo.note("HEAD").unwrap().contains(REASON));
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("tests/test_more.py"), "{}", run.stdout);
}

#[test]
fn second_approval_on_a_noted_commit_is_appended_not_replacing() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.commit("first", &[]).expect(0);
    repo.write("tests/test_more.py", "def test_more():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.human(&[
        "allow",
        "--reason",
        "Adding a placeholder test for the new module",
    ])
    .expect(0);
    repo.commit("first", &["--amend"]).expect(0);
    let note = repo.note("HEAD").unwrap();
    assert_eq!(
        note.matches("git-guard: protected change approved").count(),
        2,
        "{note}"
    );
    assert!(note.contains(REASON));
    repo.guard(&["check", "--commit", "HEAD"]).expect(0);
}

#[test]
fn post_commit_hook_exits_early_when_nothing_is_pending_but_still_writes_notes() {
    let repo = TestRepo::installed();
    // With git-guard unreachable, post-commit still succeeds when nothing is pending:
    // the hook script decided by itself.
    let hook = repo.root.join(".git/hooks/post-commit");
    let text = std::fs::read_to_string(&hook).unwrap();
    std::fs::write(
        &hook,
        text.replace(crate::common::GUARD, "/nonexistent/git-guard"),
    )
    .unwrap();
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    let out = repo
        .command_in("git", &repo.root)
        .args(["commit", "-q", "-m", "no pending approval"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // With an approval pending, the hook does run git-guard (here: fails closed, loudly).
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    let out = repo
        .command_in("git", &repo.root)
        .args(["commit", "-q", "-m", "approved"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("git-guard is not installed"));
}

#[test]
fn block_messages_fit_the_case_no_findings_and_the_policy_commit() {
    // A fixture edit on a protected path: nothing to undo, no `git restore` advice.
    let repo = TestRepo::installed();
    repo.write("tests/data/rates.csv", "CA,0.075\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("fixture", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains("0 weakening findings"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("git restore"), "{}", run.stderr);
    // The first commit of the policy: explained as such.
    repo.git(&["reset", "-q", "--hard"]);
    repo.git(&["clean", "-qfd"]);
    repo.write("guard.toml", "[override]\nmin_reason_chars = 30\n");
    repo.git(&["add", "-A"]);
    let run = repo.commit("policy", &[]);
    run.expect(1);
    assert!(
        run.stderr
            .contains("This commit changes the policy itself (guard.toml)"),
        "{}",
        run.stderr
    );
    // A weakening still gets the real paths to restore.
    repo.git(&["reset", "-q", "--hard"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.commit("loosen", &[]);
    assert!(
        run.stderr
            .contains("git restore --staged --worktree -- tests/test_invoice.py"),
        "{}",
        run.stderr
    );
}
