//! pre-push cannot be talked out of an outgoing commit by local refs (issue 14):
//! `git replace` refs, fake remote-tracking refs, and a notes ref pushed to a branch.

use crate::common::{REASON, Run, TestRepo, WEAKENED};

/// A weakening committed past the hook; returns its full id.
fn sneak_commit(repo: &TestRepo) -> String {
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    repo.git(&["rev-parse", "HEAD"]).trim().to_string()
}

fn push(repo: &TestRepo, args: &[&str]) -> Run {
    let mut all = vec!["push", "-q", "origin"];
    all.extend_from_slice(args);
    Run::from(repo.git_output(&all))
}

fn blocked(run: &Run, id: &str) {
    assert_ne!(run.code, 0, "{}", run.all());
    assert!(run.stderr.contains("push blocked"), "{}", run.stderr);
    assert!(run.stderr.contains(&id[..7]), "{}", run.stderr);
}

#[test]
fn a_replace_ref_does_not_hide_an_outgoing_weakening() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let weak = sneak_commit(&repo);
    // A harmless stand-in with the same parent, put in the weakening's place for every
    // git command that follows replace refs (`git log` among them).
    let tree = repo.git(&["rev-parse", "HEAD~1^{tree}"]).trim().to_string();
    let stand_in = repo
        .git(&["commit-tree", &tree, "-p", "HEAD~1", "-m", "make CI green"])
        .trim()
        .to_string();
    repo.git(&["replace", &weak, &stand_in]);
    assert!(
        repo.git(&["log", "-1", "--format=%H", "--raw", &weak])
            .lines()
            .all(|l| !l.contains("tests/")),
        "the replace ref hides the change from git log"
    );
    let run = push(&repo, &["main"]);
    blocked(&run, &weak);
    assert_ne!(repo.origin_git(&["rev-parse", "main"]).trim(), weak);
}

#[test]
fn a_replace_ref_does_not_hide_a_commit_from_ci_either() {
    let repo = TestRepo::with_origin();
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let weak = sneak_commit(&repo);
    let tree = repo.git(&["rev-parse", "HEAD~1^{tree}"]).trim().to_string();
    let stand_in = repo
        .git(&["commit-tree", &tree, "-p", "HEAD~1", "-m", "make CI green"])
        .trim()
        .to_string();
    repo.git(&["replace", &weak, &stand_in]);
    let run = repo.guard(&["ci", "--base", &base, "--no-fetch"]);
    run.expect(1);
    assert!(run.stdout.contains(&weak[..7]), "{}", run.stdout);
}

#[test]
fn a_fake_remote_tracking_ref_does_not_hide_outgoing_commits() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    let weak = sneak_commit(&repo);
    // Pretend origin already has the commit.
    repo.git(&["update-ref", "refs/remotes/origin/cache", "HEAD"]);
    let run = push(&repo, &["feature"]);
    blocked(&run, &weak);
    assert!(
        !repo.origin_git(&["branch", "--list"]).contains("feature"),
        "the branch must not reach origin"
    );
}

#[test]
fn a_fake_remote_tracking_ref_below_the_commit_does_not_hide_it_either() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    let weak = sneak_commit(&repo);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code on top", &[]).expect(0);
    // The tracking ref claims the weakening (not the tip) is on origin.
    repo.git(&["update-ref", "refs/remotes/origin/main", &weak]);
    let run = push(&repo, &["feature"]);
    blocked(&run, &weak);
}

#[test]
fn a_stale_but_real_remote_tracking_ref_still_spares_history_already_on_the_remote() {
    let repo = TestRepo::with_origin();
    // An unapproved protected commit already on origin (pushed past the hook)...
    sneak_commit(&repo);
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.guard(&["install"]).expect(0);
    // ...and origin has moved on since our last fetch (a teammate pushed).
    let mate = repo.clone_origin("mate", &[]);
    mate.write("src/mate.py", "y = 2\n");
    mate.commit_all("mate's work");
    mate.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code", &[]).expect(0);
    let run = push(&repo, &["feature"]);
    run.expect(0);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}

#[test]
fn a_notes_ref_pushed_to_a_branch_is_checked() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let weak = sneak_commit(&repo);
    repo.git(&["update-ref", "refs/notes/wip", &weak]);
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    let run = push(&repo, &["refs/notes/wip:refs/heads/x"]);
    blocked(&run, &weak);
    assert!(
        !repo.origin_git(&["branch", "--list"]).contains('x'),
        "the branch must not reach origin"
    );
}

#[test]
fn the_notes_ref_itself_and_an_approved_commit_still_push() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let weak = sneak_commit(&repo);
    repo.human(&["override", &weak, "--reason", REASON])
        .expect(0);
    push(&repo, &["refs/notes/guard"]).expect(0);
    push(&repo, &["main"]).expect(0);
    assert_eq!(repo.origin_git(&["rev-parse", "main"]).trim(), weak);
    // A new branch of clean work on top pushes too (the remote-tracking refs are
    // confirmed with origin, not taken on trust).
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code", &[]).expect(0);
    let run = push(&repo, &["feature"]);
    run.expect(0);
    assert_eq!(run.stderr, "");
}

#[test]
fn a_graft_that_hides_a_weakening_is_refused_not_followed() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let weak = sneak_commit(&repo);
    // A parent with the weakened tree: through the graft, the commit changes nothing.
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]).trim().to_string();
    let twin = repo
        .git(&["commit-tree", &tree, "-p", &base, "-m", "twin"])
        .trim()
        .to_string();
    std::fs::create_dir_all(repo.root.join(".git/info")).unwrap();
    std::fs::write(
        repo.root.join(".git/info/grafts"),
        format!("{weak} {twin}\n"),
    )
    .unwrap();
    let run = push(&repo, &["main"]);
    assert_ne!(run.code, 0, "{}", run.all());
    assert!(run.stderr.contains("info/grafts"), "{}", run.stderr);
    let run = repo.guard(&["ci", "--base", &base, "--no-fetch"]);
    run.expect(2);
    assert!(run.stderr.contains("hint: "), "{}", run.stderr);
    repo.guard(&["check", "--commit", "HEAD"]).expect(2);
}
