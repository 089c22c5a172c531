//! An approval covers exactly the change it names (`Guard-Change`: old and new object
//! per path). Each bypass of the earlier name- and patch-id-based matching, replayed as
//! an agent would (no terminal, hooks skipped where git allows it), with `git guard ci`
//! as the final gate; and the honest workflows that must keep their approval.

use crate::common::{REASON, Run, TestRepo, WEAKENED};

fn ci(repo: &TestRepo, base: &str) -> Run {
    let mut cmd = repo.command_in(crate::common::GUARD, &repo.root);
    cmd.args(["ci", "--no-fetch", "--base", base]);
    Run::from(cmd.output().unwrap())
}

fn head(repo: &TestRepo) -> String {
    repo.git(&["rev-parse", "HEAD"]).trim().to_string()
}

/// A strengthening of the incident's test, which a human approves.
const STRONGER: &str = "def test_rate():\n    assert RATE == 0.075\n    assert RATE > 0\n";

/// main with hooks installed and a feature branch whose one commit a human approved.
fn approved_feature() -> TestRepo {
    let repo = TestRepo::with_origin();
    // A strengthening passes on its own under `additions = "allow"`; these tests are
    // about approvals of a protected change, so the policy asks for every change.
    repo.write("guard.toml", "[protect]\nadditions = \"ask\"\n");
    repo.commit_all("policy: additions need a reason too");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", STRONGER);
    repo.git(&["add", "-A"]);
    repo.commit("stronger rate test", &["--no-verify"])
        .expect(0);
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    ci(&repo, "main").expect(0);
    repo
}

#[test]
fn amend_after_approval_leaves_a_stale_note_that_approves_nothing() {
    let repo = approved_feature();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("stronger rate test", &["--amend", "--no-verify"])
        .expect(0);
    // notes.rewriteRef (set by install) carried the note to the amended commit ...
    assert!(
        repo.note("HEAD")
            .is_some_and(|n| n.contains("Guard-Change:"))
    );
    // ... where it no longer counts.
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(
        run.stdout
            .contains("approval is stale: the change was edited after it was approved"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_autosquashed_fixup_after_approval_is_stale() {
    let repo = approved_feature();
    let approved = head(&repo);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit(&format!("fixup! {approved}"), &["--no-verify"])
        .expect(0);
    let out = repo
        .command_in("git", &repo.root)
        .args(["rebase", "-q", "-i", "--autosquash", "main"])
        .env("GIT_SEQUENCE_EDITOR", "true")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(repo.git(&["rev-list", "--count", "main..HEAD"]).trim(), "1");
    assert!(repo.note("HEAD").is_some(), "rewriteRef carried the note");
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("approval is stale"), "{}", run.stdout);
}

#[test]
fn a_note_copied_from_an_approved_commit_does_not_approve_another_change() {
    let repo = approved_feature();
    let approved = head(&repo);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    repo.git(&["notes", "--ref=guard", "copy", &approved, "HEAD"]);
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
    assert!(run.stdout.contains("make CI green"), "{}", run.stdout);
}

#[test]
fn a_note_on_a_blob_approves_nothing_even_when_it_names_the_exact_change() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    let old = repo
        .git(&["rev-parse", "HEAD:tests/test_invoice.py"])
        .trim()
        .to_string();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");
    let new = repo
        .git(&["rev-parse", "HEAD:tests/test_invoice.py"])
        .trim()
        .to_string();
    let patch_id = {
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
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    // The agent writes a well-formed approval of exactly this change on a blob (with
    // the patch id that once let a note elsewhere approve a commit).
    let note = format!(
        "git-guard: protected change approved\n\nGuard-Reason: {REASON}\n\
         Guard-By: Jane Doe <jane@example.com>\nGuard-At: 2026-12-02T09:16:00Z\n\
         Guard-Via: override\nGuard-Paths: tests/test_invoice.py\n\
         Guard-Change: {old} {new} tests/test_invoice.py\nGuard-Patch-Id: {patch_id}\n"
    );
    repo.git(&["notes", "--ref=guard", "add", "-m", &note, &new]);
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
    let log = repo.guard(&["log", "main..HEAD"]);
    log.expect(0);
    assert!(
        log.stdout.contains("No overrides recorded"),
        "{}",
        log.stdout
    );
}

#[test]
fn a_pending_approval_does_not_cover_the_same_tree_on_another_base() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    // A teammate's new test lands on main, in the file the human is about to approve.
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075\n\n\ndef test_teammate():\n    assert RATE < 1\n",
    );
    repo.git(&["add", "-A"]);
    repo.commit("teammate test", &["--no-verify"]).expect(0);
    let teammate = head(&repo);
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    // A human approves a staged strengthening on the old base.
    repo.write("tests/test_invoice.py", STRONGER);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    let tree = repo.git(&["write-tree"]).trim().to_string();
    // The agent moves HEAD onto the teammate's commit and commits the approved tree,
    // which deletes the teammate's test from that same file: under name-based
    // coverage the approval of `tests/test_invoice.py` covered it.
    repo.git(&["reset", "-q", "--soft", &teammate]);
    repo.git(&["read-tree", &tree]);
    let run = repo.commit("stronger rate test", &[]);
    run.expect(1);
    assert!(run.stderr.contains("commit blocked"), "{}", run.stderr);
    assert!(
        run.stderr.contains("tests/test_invoice.py"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_approved_then_reverted_change_cannot_be_replayed() {
    let repo = TestRepo::with_origin();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("loosen rate test");
    let loosened = head(&repo);
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    repo.git(&["revert", "--no-edit", "HEAD"]);
    repo.human(&[
        "override",
        "HEAD",
        "--reason",
        "Put the exact rate check back, the loosening was wrong",
    ])
    .expect(0);
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.git(&["cherry-pick", &loosened]);
    assert_eq!(repo.note("HEAD"), None);
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}

#[test]
fn a_dedented_skip_does_not_ride_on_the_approval_of_the_indented_one() {
    let repo = TestRepo::with_origin();
    let base = "import sys\n\n\ndef test_rate():\n    assert RATE == 0.075\n";
    repo.write("tests/test_invoice.py", base);
    repo.commit_all("base");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    // A human approves a skip on Windows only ...
    repo.git(&["switch", "-q", "-c", "windows"]);
    let indented = "import sys\n\n\ndef test_rate():\n    if sys.platform == \"win32\":\n        reason = \"no tax table on Windows\"\n        pytest.skip(reason)\n    assert RATE == 0.075\n";
    repo.write("tests/test_invoice.py", indented);
    repo.commit_all("skip on Windows");
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    // ... the agent's branch skips everywhere: the same lines, the skip dedented (a
    // whitespace-only difference, which whitespace-blind patch ids do not see).
    repo.git(&["switch", "-q", "-c", "agent", "main"]);
    let dedented = "import sys\n\n\ndef test_rate():\n    if sys.platform == \"win32\":\n        reason = \"no tax table on Windows\"\n    pytest.skip(reason)\n    assert RATE == 0.075\n";
    repo.write("tests/test_invoice.py", dedented);
    repo.commit_all("skip on Windows");
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}

#[test]
fn a_binary_attribute_does_not_make_two_edits_share_an_approval() {
    let repo = TestRepo::with_origin();
    repo.write(".gitattributes", "tests/*.py binary\n");
    repo.commit_all("attributes");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "approved"]);
    repo.write("tests/test_invoice.py", STRONGER);
    repo.commit_all("edit the test");
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    repo.git(&["switch", "-q", "-c", "agent", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("edit the test");
    let run = ci(&repo, "main");
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}

#[test]
fn a_rebase_that_keeps_the_protected_content_keeps_its_approval() {
    let repo = approved_feature();
    repo.git(&["switch", "-q", "main"]);
    repo.write("src/invoice.py", "RATE = 0.075  # from the tax table\n");
    repo.commit_all("comment");
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&["rebase", "-q", "main"]);
    assert!(repo.note("HEAD").is_some(), "rewriteRef carried the note");
    let run = ci(&repo, "main");
    run.expect(0);
    assert!(run.stdout.contains("approved by note"), "{}", run.stdout);
}

#[test]
fn a_cherry_pick_of_an_approved_change_onto_another_branch_keeps_its_approval() {
    let repo = approved_feature();
    let approved = head(&repo);
    repo.git(&["switch", "-q", "-c", "other", "main"]);
    repo.write("src/invoice.py", "RATE = 0.075  # from the tax table\n");
    repo.commit_all("comment");
    repo.git(&["cherry-pick", &approved]);
    assert_eq!(repo.note("HEAD"), None);
    let run = ci(&repo, "main");
    run.expect(0);
    assert!(run.stdout.contains("an identical patch"), "{}", run.stdout);
}

#[test]
fn a_branch_that_edits_the_workflow_running_ci_loses_its_flags_and_labels() {
    let repo = TestRepo::with_origin();
    repo.write(
        ".github/workflows/guard.yml",
        "on: pull_request_target\njobs: {}\n",
    );
    repo.commit_all("guard workflow");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    // The branch edits the workflow to hand itself the override label.
    repo.write(
        ".github/workflows/guard.yml",
        "on: pull_request\njobs: {run: git guard ci --labels allow-test-edits}\n",
    );
    repo.commit_all("make CI green");
    let run = |workflow_ref: Option<&str>| {
        let mut cmd = repo.command_in(crate::common::GUARD, &repo.root);
        cmd.args(["ci", "--no-fetch", "--labels", "allow-test-edits"])
            .env("GUARD_BASE", "main");
        if let Some(r) = workflow_ref {
            cmd.env(
                "GITHUB_WORKFLOW_REF",
                format!("acme/shop/{r}@refs/pull/7/merge"),
            );
        }
        Run::from(cmd.output().unwrap())
    };
    // Without the variable (another CI), the label is honoured as before.
    run(None).expect(0);
    // Run by the workflow the branch edited: the label is ignored, and it says why.
    let edited = run(Some(".github/workflows/guard.yml"));
    edited.expect(1);
    assert!(
        edited.stdout.contains(
            "This range edits .github/workflows/guard.yml, the workflow running this check"
        ),
        "{}",
        edited.stdout
    );
    // Run by a workflow the branch did not touch: the label counts.
    run(Some(".github/workflows/other.yml")).expect(0);
}
