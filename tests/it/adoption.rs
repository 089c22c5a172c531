//! Adopting git-guard in a repository with history: a push of that history to a new
//! remote (the fork flow) judges only what came after `guard.toml` was committed, and
//! a long list of blocked commits is capped with the likely cause.

use crate::common::{TestRepo, WEAKENED};

/// Years of history before adoption: test edits of every kind, none of them approved.
fn project_with_old_history(old_commits: usize) -> TestRepo {
    let repo = TestRepo::with_history();
    for i in 0..old_commits {
        let body = if i % 2 == 0 {
            WEAKENED.to_string()
        } else {
            format!("def test_rate():\n    assert RATE == 0.0{i}\n")
        };
        repo.write("tests/test_invoice.py", body);
        repo.commit_all(&format!("old change {i}"));
    }
    repo
}

fn fork(repo: &TestRepo) -> std::path::PathBuf {
    let fork = repo.base().join("fork.git");
    repo.git(&["init", "-q", "--bare", fork.to_str().unwrap()]);
    repo.git(&["remote", "add", "myfork", fork.to_str().unwrap()]);
    fork
}

#[test]
fn pushing_old_history_to_a_new_fork_judges_only_commits_after_adoption() {
    let repo = project_with_old_history(30);
    repo.write("guard.toml", "[override]\nmin_reason_chars = 20\n");
    repo.commit_all("adopt git-guard");
    repo.guard(&["install"]).expect(0);
    repo.write("src/invoice.py", "RATE = 0.075  # documented\n");
    repo.commit_all("a clean change after adoption");
    fork(&repo);
    let run = crate::common::Run::from(repo.git_output(&["push", "-q", "myfork", "main"]));
    // The initial commit, the 30 old changes and the adoption commit itself.
    run.expect(0);
    assert!(
        run.stderr
            .contains("32 commits from before git-guard was adopted"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_weakening_after_adoption_is_still_blocked_in_a_fork_push() {
    let repo = project_with_old_history(5);
    repo.write("guard.toml", "");
    repo.commit_all("adopt git-guard");
    repo.guard(&["install"]).expect(0);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE >= -1\n",
    );
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    fork(&repo);
    let run = crate::common::Run::from(repo.git_output(&["push", "-q", "myfork", "main"]));
    run.expect(1);
    assert!(
        run.stderr.contains("push blocked: 1 commit"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("make CI green"), "{}", run.stderr);
}

#[test]
fn deleting_guard_toml_on_the_way_does_not_make_later_commits_pre_adoption() {
    let repo = TestRepo::with_origin();
    repo.write("guard.toml", "");
    repo.commit_all("adopt git-guard");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.git(&["rm", "-q", "guard.toml"]);
    repo.commit("drop the policy", &["--no-verify"]).expect(0);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    repo.write("guard.toml", "");
    repo.git(&["add", "-A"]);
    repo.commit("restore the policy", &["--no-verify"])
        .expect(0);
    let run = repo.guard(&["ci", "--no-fetch", "--base", "main"]);
    run.expect(1);
    assert!(run.stdout.contains("make CI green"), "{}", run.stdout);
    assert!(!run.stdout.contains("not judged"), "{}", run.stdout);
}

#[test]
fn a_long_list_of_blocked_commits_is_capped_with_the_likely_cause() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    for i in 0..14 {
        repo.write(
            "tests/test_invoice.py",
            format!("def test_rate():\n    assert RATE >= -{i}\n"),
        );
        repo.git(&["add", "-A"]);
        repo.commit(&format!("loosen {i}"), &["--no-verify"])
            .expect(0);
    }
    let run = crate::common::Run::from(repo.git_output(&["push", "-q", "origin", "main"]));
    run.expect(1);
    assert!(
        run.stderr.contains("push blocked: 14 commits"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("… and 4 more."), "{}", run.stderr);
    assert!(run.stderr.contains("git fetch <remote>"), "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("git guard override ").count(),
        10,
        "{}",
        run.stderr
    );
}

#[test]
fn an_invalid_staged_guard_toml_is_refused_before_it_is_approved_or_committed() {
    let repo = TestRepo::installed();
    repo.write("guard.toml", "[override]\nmin_reason_chars = \"twenty\"\n");
    repo.git(&["add", "-A"]);
    let allow = repo.human(&["allow", "--reason", "Raise the bar for approval reasons"]);
    allow.expect(2);
    assert!(
        allow
            .stdout
            .contains("error: the staged guard.toml is invalid"),
        "{}",
        allow.stdout
    );
    assert!(
        allow.stdout.contains("guard.toml (staged):2:"),
        "{}",
        allow.stdout
    );
    let commit = repo.commit("stricter policy", &[]);
    commit.expect(1);
    assert!(
        commit.stderr.contains("the staged guard.toml is invalid"),
        "{}",
        commit.stderr
    );
}

#[test]
fn a_broken_committed_policy_says_how_out_and_the_fixing_commit_goes_through() {
    let repo = TestRepo::installed();
    repo.write("guard.toml", "[override]\nmin_reason_chars = \"twenty\"\n");
    repo.git(&["add", "-A"]);
    repo.commit("broken policy", &["--no-verify"]).expect(0);
    // Every other commit fails closed, and says how out.
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    let blocked = repo.commit("unrelated", &[]);
    blocked.expect(1);
    assert!(
        blocked
            .stderr
            .contains("the policy committed at HEAD is invalid"),
        "{}",
        blocked.stderr
    );
    assert!(
        blocked
            .stderr
            .contains("a commit that makes the policy valid again"),
        "{}",
        blocked.stderr
    );
    // The commit that repairs guard.toml is judged under the defaults: a human approves it.
    repo.git(&["reset", "-q"]);
    repo.write("guard.toml", "[override]\nmin_reason_chars = 20\n");
    repo.git(&["add", "guard.toml"]);
    repo.human(&[
        "allow",
        "--reason",
        "Repair the policy: the minimum is a number",
    ])
    .expect(0);
    repo.commit("repair the policy", &[]).expect(0);
    repo.commit("unrelated", &["-a"]).expect(0);
}

#[test]
fn an_orphan_chain_without_guard_toml_is_still_judged_against_a_base() {
    // The agent's branch starts from a new root (no guard.toml in any parent) and adds
    // guard.toml only at its tip: against a base, every commit is new work and judged.
    let repo = TestRepo::with_origin();
    repo.write("guard.toml", "");
    repo.commit_all("adopt git-guard");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "--orphan", "agent"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.write("src/invoice.py", "RATE = 0.075\n");
    repo.git(&["add", "-A"]);
    repo.commit("fresh start", &["--no-verify"]).expect(0);
    repo.write("guard.toml", "");
    repo.git(&["add", "-A"]);
    repo.commit("policy back", &["--no-verify"]).expect(0);
    let run = repo.guard(&["ci", "--no-fetch", "--base", "main"]);
    run.expect(1);
    assert!(!run.stdout.contains("not judged"), "{}", run.stdout);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}
