//! The reason prompt, driven through a real pseudo-terminal: `git commit` runs with the
//! pty as its controlling terminal while the hook's stdin is /dev/null, as git does.

use std::time::Duration;

use expectrl::{Eof, Session};

use crate::common::{TestRepo, WEAKENED};

fn staged_weakening() -> TestRepo {
    let repo = TestRepo::with_history();
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo
}

fn commit_on_pty(repo: &TestRepo) -> Session {
    let mut cmd = repo.command_with_terminal("git", &repo.root);
    cmd.args(["commit", "-q", "-m", "loosen the rate test"]);
    let mut session = Session::spawn(cmd).expect("spawn git commit on a pty");
    session.set_expect_timeout(Some(Duration::from_secs(30)));
    session
}

fn exit_code(session: &mut Session) -> i32 {
    match session.get_process_mut().wait().unwrap() {
        expectrl::WaitStatus::Exited(_, code) => code,
        // Ctrl-C typed before the prompt switched the terminal to raw mode is a SIGINT
        // from the terminal driver: git dies of it, which aborts the commit just the same.
        expectrl::WaitStatus::Signaled(_, signal, _) => -(signal as i32),
        other => panic!("git commit did not exit: {other:?}"),
    }
}

#[test]
fn short_reason_is_asked_again_and_a_good_one_is_stored() {
    let repo = staged_weakening();
    let mut s = commit_on_pty(&repo);
    s.expect("this commit changes what decides whether the tests pass")
        .unwrap();
    s.expect("tests/test_invoice.py").unwrap();
    s.expect("Reason").unwrap();
    s.send_line("flaky").unwrap();
    s.expect("please write at least 20 characters (5 so far)")
        .unwrap();
    s.send_line("Rate now comes from the tax table, tested there")
        .unwrap();
    s.expect("override note recorded").unwrap();
    s.expect(Eof).unwrap();
    assert_eq!(exit_code(&mut s), 0);
    let note = repo.note("HEAD").expect("note written");
    assert!(
        note.contains("Guard-Reason: Rate now comes from the tax table, tested there\n"),
        "{note}"
    );
    assert!(note.contains("Guard-Via: prompt\n"), "{note}");
    assert!(
        note.contains("Guard-Paths: tests/test_invoice.py\n"),
        "{note}"
    );
}

#[test]
fn empty_reason_aborts_the_commit_and_keeps_the_staged_change() {
    let repo = staged_weakening();
    let head = repo.git(&["rev-parse", "HEAD"]);
    let mut s = commit_on_pty(&repo);
    s.expect("Reason").unwrap();
    s.send_line("").unwrap();
    s.expect("commit aborted").unwrap();
    s.expect(Eof).unwrap();
    assert_ne!(exit_code(&mut s), 0);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(repo.staged_paths(), vec!["tests/test_invoice.py"]);
    assert_eq!(repo.note("HEAD"), None);
}

#[test]
fn ctrl_c_aborts_the_commit_and_keeps_the_staged_change() {
    let repo = staged_weakening();
    let head = repo.git(&["rev-parse", "HEAD"]);
    let mut s = commit_on_pty(&repo);
    s.expect("Reason").unwrap();
    s.send("half a reas").unwrap();
    s.expect("half a reas").unwrap();
    s.send(expectrl::ControlCode::EndOfText).unwrap();
    s.expect(Eof).unwrap();
    assert_ne!(exit_code(&mut s), 0);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(repo.staged_paths(), vec!["tests/test_invoice.py"]);
    assert!(!repo.root.join(".git/guard/pending").exists());
}

#[test]
fn push_prompts_for_each_unapproved_commit_and_writes_the_note() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    let mut cmd = repo.command_with_terminal("git", &repo.root);
    cmd.args(["push", "-q", "origin", "main"]);
    let mut s = Session::spawn(cmd).expect("spawn git push on a pty");
    s.set_expect_timeout(Some(Duration::from_secs(30)));
    s.expect("\"make CI green\" changes what decides whether the tests pass")
        .unwrap();
    s.expect("tests/test_invoice.py").unwrap();
    s.expect("Reason").unwrap();
    s.send_line("Rate now comes from the tax table, tested there")
        .unwrap();
    s.expect("override note recorded").unwrap();
    s.expect(Eof).unwrap();
    assert_eq!(exit_code(&mut s), 0);
    assert!(repo.note("HEAD").unwrap().contains("Guard-Via: prompt\n"));
    let remote = repo.origin_git(&["notes", "--ref", "refs/notes/guard", "show", "main"]);
    assert!(
        remote.contains("Rate now comes from the tax table"),
        "{remote}"
    );
}
