//! `git guard ci` against a real bare origin, in each CI environment.

use crate::common::{REASON, Run, TestRepo, WEAKENED};

fn ci(repo: &TestRepo, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = repo.command_in(crate::common::GUARD, &repo.root);
    cmd.arg("ci").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run::from(cmd.output().unwrap())
}

/// origin has main; a feature branch adds a `--no-verify` commit weakening a test.
fn feature_with_sneak() -> (TestRepo, String) {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("code change");
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");
    let id = repo
        .git(&["rev-parse", "--short", "HEAD"])
        .trim()
        .to_string();
    (repo, id)
}

#[test]
fn a_no_verify_commit_is_caught_and_passes_after_override() {
    let (repo, id) = feature_with_sneak();
    let run = ci(&repo, &[("GUARD_BASE", "main")], &[]);
    run.expect(1);
    assert!(run.stdout.contains("BLOCKED: 1 commit"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains(&format!("NEEDS APPROVAL  {id} make CI green")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("git guard override {id}")),
        "{}",
        run.stdout
    );
    // After an override on a pushed commit, CI needs the notes too: it says how.
    assert!(
        run.stdout.contains("git push origin refs/notes/guard"),
        "{}",
        run.stdout
    );
    // The command is named as a human's step, never handed over with a reason to fill in.
    assert!(!run.stdout.contains("--reason"), "{}", run.stdout);
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    let run = ci(&repo, &[("GUARD_BASE", "main")], &[]);
    run.expect(0);
    assert!(run.stdout.contains("approved by note"), "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!("reason: {REASON}")),
        "{}",
        run.stdout
    );
}

#[test]
fn notes_are_fetched_from_origin_in_a_fresh_clone() {
    let (repo, id) = feature_with_sneak();
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    repo.git(&[
        "push",
        "-q",
        "--no-verify",
        "origin",
        "feature",
        "refs/notes/guard",
    ]);
    let clone = repo.clone_origin("ci-clone", &["--branch", "feature"]);
    ci(&clone, &[("GUARD_BASE", "origin/main")], &["--no-fetch"]).expect(1);
    let run = ci(&clone, &[("GUARD_BASE", "origin/main")], &[]);
    run.expect(0);
    assert!(run.stdout.contains(REASON), "{}", run.stdout);
}

#[test]
fn github_event_label_approves_every_commit_and_is_reported() {
    let (repo, _) = feature_with_sneak();
    let event = repo.base().join("event.json");
    std::fs::write(
        &event,
        r#"{"pull_request":{"labels":[{"name":"allow-test-edits"}]}}"#,
    )
    .unwrap();
    let summary = repo.base().join("summary.md");
    let env = [
        ("GITHUB_BASE_REF", "main"),
        ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
    ];
    let run = ci(&repo, &env, &["--format", "json"]);
    run.expect(0);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["provider"], "GitHub Actions");
    assert_eq!(v["label_applied"], "allow-test-edits");
    assert_eq!(v["blocked"], false);
    assert_eq!(v["commits"][0]["approved_via"], "label");
    let text = ci(&repo, &env, &[]);
    assert!(
        text.stdout
            .contains("approved by the PR/MR label `allow-test-edits`"),
        "{}",
        text.stdout
    );
}

#[test]
fn github_format_writes_annotations_and_the_step_summary() {
    let (repo, id) = feature_with_sneak();
    let event = repo.base().join("event.json");
    std::fs::write(&event, r#"{"pull_request":{"labels":[{"name":"bug"}]}}"#).unwrap();
    let summary = repo.base().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let env = [
        ("GITHUB_BASE_REF", "main"),
        ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
    ];
    let run = ci(&repo, &env, &["--format", "github"]);
    run.expect(1);
    assert!(
        run.stdout.contains("::error file=tests/test_invoice.py,title=git-guard%3A protected change without approval::"),
        "{}",
        run.stdout
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("earlier step\n## git-guard: blocked"),
        "{md}"
    );
    assert!(
        md.contains(&format!("| `{id}` make CI green | **needs approval** |")),
        "{md}"
    );
}

#[test]
fn gitlab_variables_give_base_and_labels() {
    let (repo, _) = feature_with_sneak();
    let base = repo.git(&["rev-parse", "main"]);
    let env = [
        ("CI_MERGE_REQUEST_DIFF_BASE_SHA", base.trim()),
        ("CI_MERGE_REQUEST_LABELS", "backend,allow-test-edits"),
    ];
    let run = ci(&repo, &env, &["--format", "json"]);
    run.expect(0);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["provider"], "GitLab CI");
    assert_eq!(v["counts"]["commits"], 2);
    let unlabelled = ci(
        &repo,
        &[("CI_MERGE_REQUEST_DIFF_BASE_SHA", base.trim())],
        &[],
    );
    unlabelled.expect(1);
}

#[test]
fn flags_win_over_the_environment() {
    let (repo, _) = feature_with_sneak();
    let run = ci(
        &repo,
        &[("GUARD_BASE", "feature"), ("PR_LABELS", "allow-test-edits")],
        &["--base", "main", "--labels", "other"],
    );
    run.expect(1);
}

#[test]
fn a_head_that_unprotects_tests_in_guard_toml_is_still_blocked() {
    let repo = TestRepo::with_origin();
    repo.write("guard.toml", "[protect]\npaths = [\"tests/**\"]\n");
    repo.commit_all("policy");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("relax policy and loosen the test");
    let run = ci(&repo, &[("GUARD_BASE", "main")], &["--format", "json"]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths = &v["commits"][0]["approval_paths"];
    assert_eq!(
        *paths,
        serde_json::json!(["guard.toml", "tests/test_invoice.py"])
    );
}

#[test]
fn a_rebase_without_rewrite_ref_is_matched_by_patch_id_and_says_so() {
    let (repo, id) = feature_with_sneak();
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    // main moves on; the branch is rebased with notes rewriting off.
    repo.git(&["switch", "-q", "main"]);
    repo.write("README.md", "hello\n");
    repo.commit_all("docs");
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&[
        "-c",
        "notes.rewriteRef=",
        "-c",
        "notes.rewrite.rebase=false",
        "rebase",
        "-q",
        "main",
    ]);
    assert_eq!(repo.note("HEAD"), None);
    let run = ci(&repo, &[("GUARD_BASE", "main")], &[]);
    run.expect(0);
    assert!(
        run.stdout
            .contains(&format!("by the note on {id}, an identical patch")),
        "{}",
        run.stdout
    );
    let json = ci(&repo, &[("GUARD_BASE", "main")], &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["commits"][0]["approved_via"], "patch-id");
    // JSON carries full ids; text abbreviates them.
    let full = repo.git(&["rev-parse", &id]).trim().to_string();
    assert_eq!(v["commits"][0]["patch_id_of"], full.as_str());
    assert_eq!(v["commits"][0]["target"].as_str().unwrap().len(), 40);
    assert_eq!(v["base"].as_str().unwrap().len(), 40);
}

#[test]
fn a_patch_id_match_does_not_stretch_over_a_bigger_change() {
    let (repo, id) = feature_with_sneak();
    repo.human(&["override", &id, "--reason", REASON]).expect(0);
    // Re-create the same change plus another protected file on a new branch.
    repo.git(&["switch", "-q", "-c", "again", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.write("tests/test_extra.py", "def test_x():\n    pass\n");
    repo.commit_all("make CI green");
    ci(&repo, &[("GUARD_BASE", "main")], &[]).expect(1);
}

#[test]
fn the_incident_shape_is_named_and_ranked_first() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("code change");
    repo.git(&["mv", "tests/test_invoice.py", "src/check_invoice.py"]);
    repo.commit_all("move test out of the way");
    let run = ci(&repo, &[("GUARD_BASE", "main")], &["--format", "json"]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["commits"][0]["subject"], "move test out of the way");
    assert_eq!(v["commits"][1]["verdict"], "clean");
    // Only a test-only range weakening tests gets the incident banner.
    assert_eq!(v["test_only_weakening"], false);
    repo.git(&["switch", "-q", "-c", "moved", "main"]);
    std::fs::create_dir(repo.root.join("checks")).unwrap();
    repo.git(&["mv", "tests/test_invoice.py", "checks/test_invoice.py"]);
    repo.git(&["commit", "-q", "--no-verify", "-m", "move"]);
    let run = ci(&repo, &[("GUARD_BASE", "main")], &[]);
    run.expect(1);
    assert!(
        run.stdout
            .contains("changes only protected test code and weakens it"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_shallow_clone_is_deepened_or_fails_with_the_exact_fix() {
    let (repo, id) = feature_with_sneak();
    repo.git(&["push", "-q", "--no-verify", "origin", "feature"]);
    let shallow = repo.clone_origin(
        "shallow",
        &["--depth", "1", "--branch", "feature", "--no-single-branch"],
    );
    assert_eq!(
        shallow.git(&["rev-parse", "--is-shallow-repository"]),
        "true\n"
    );
    let refused = ci(&shallow, &[("GUARD_BASE", "origin/main")], &["--no-fetch"]);
    refused.expect(2);
    assert!(
        refused.stderr.contains("fetch-depth: 0"),
        "{}",
        refused.stderr
    );
    let run = ci(&shallow, &[("GUARD_BASE", "origin/main")], &[]);
    run.expect(1);
    assert!(run.stdout.contains(&id), "{}", run.stdout);
    assert_eq!(
        shallow.git(&["rev-parse", "--is-shallow-repository"]),
        "false\n"
    );
}

#[test]
fn no_base_is_exit_2_with_a_hint() {
    let (repo, _) = feature_with_sneak();
    let run = ci(&repo, &[], &[]);
    run.expect(2);
    assert!(
        run.stderr.starts_with("error: no base to compare with"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint: pass --base"), "{}", run.stderr);
}

#[test]
fn github_checks_the_pull_request_head_not_the_synthetic_merge() {
    let repo = TestRepo::with_origin();
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075\n\n\n\n\ndef test_b():\n    assert 1 == 1\n",
    );
    repo.commit_all("more tests");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075\n\n\n\n\ndef test_b():\n    assert 2 == 2\n",
    );
    repo.commit_all("feature edits test_b");
    let head = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.human(&[
        "override",
        "HEAD",
        "--reason",
        "test_b now checks the doubled constant",
    ])
    .expect(0);
    // main moves on, editing the same file elsewhere (approved there).
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.08\n\n\n\n\ndef test_b():\n    assert 1 == 1\n",
    );
    repo.commit_all("rate change");
    repo.human(&[
        "override",
        "HEAD",
        "--reason",
        "Rate raised to 8% by finance ticket FIN-12",
    ])
    .expect(0);
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    // Actions checks out a synthetic merge of the PR into main.
    repo.git(&["switch", "-q", "--detach", "main"]);
    repo.git(&["merge", "-q", "--no-edit", "feature"]);
    let event = repo.base().join("event.json");
    std::fs::write(
        &event,
        format!(r#"{{"pull_request":{{"head":{{"sha":"{head}"}},"labels":[]}}}}"#),
    )
    .unwrap();
    let env = [
        ("GITHUB_BASE_REF", "main"),
        ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
    ];
    let run = ci(&repo, &env, &[]);
    run.expect(0);
    assert!(run.stdout.contains("1 commit in"), "{}", run.stdout);
    // Checking the synthetic merge as well: it is exactly git's automatic merge of main
    // and the PR, so the merge itself changes nothing protected (the PR's change is
    // judged, and approved, at the PR's own commit).
    let merge = ci(&repo, &env, &["--head", "HEAD"]);
    merge.expect(0);
    assert!(merge.stdout.contains("2 commits in"), "{}", merge.stdout);
    assert!(
        merge.stdout.contains("approved  ") && merge.stdout.contains("feature edits test_b"),
        "{}",
        merge.stdout
    );
    assert!(
        merge
            .stdout
            .contains("clean  1 commit changes nothing protected"),
        "{}",
        merge.stdout
    );
}
