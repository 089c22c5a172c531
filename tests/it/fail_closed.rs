//! What git-guard cannot read blocks, and a submodule under a protected path is a
//! protected change (issue 14).

use crate::common::{TestRepo, WEAKENED};

/// Deletes the loose object `id` from the repository at `root`.
fn delete_loose_object(root: &std::path::Path, id: &str) {
    let path = root.join(".git/objects").join(&id[..2]).join(&id[2..]);
    std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn a_staged_test_whose_blob_is_missing_is_exit_2_naming_path_and_object() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let id = repo
        .git(&["rev-parse", ":tests/test_invoice.py"])
        .trim()
        .to_string();
    delete_loose_object(&repo.root, &id);
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(
        run.stderr.starts_with(&format!(
            "error: cannot read tests/test_invoice.py (object {id})"
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint: "), "{}", run.stderr);
    // Through the hook: git reports any hook failure as its own exit 1; the hook's
    // error is what the user reads.
    let run = repo.commit("sneak", &[]);
    assert_ne!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr.contains(&format!(
            "error: cannot read tests/test_invoice.py (object {id})"
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn a_committed_test_whose_old_blob_is_missing_is_exit_2_not_a_silent_pass() {
    let repo = TestRepo::with_history();
    let old = repo
        .git(&["rev-parse", "HEAD:tests/test_invoice.py"])
        .trim()
        .to_string();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");
    delete_loose_object(&repo.root, &old);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(2);
    assert!(
        run.stderr
            .contains(&format!("cannot read tests/test_invoice.py (object {old})")),
        "{}",
        run.stderr
    );
    let base = repo.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    repo.guard(&["ci", "--base", &base, "--no-fetch"]).expect(2);
}

#[test]
fn a_partial_clone_fetches_the_blobs_it_needs_and_finds_the_weakening() {
    let repo = TestRepo::with_origin();
    repo.origin_git(&["config", "uploadpack.allowFilter", "true"]);
    repo.origin_git(&["config", "uploadpack.allowAnySHA1InWant", "true"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    let old = repo
        .git(&["rev-parse", "HEAD~1:tests/test_invoice.py"])
        .trim()
        .to_string();
    let clone = repo.clone_origin("partial", &["--filter=blob:none"]);
    let missing = clone.git(&["rev-list", "--objects", "--missing=print", "HEAD~1"]);
    assert!(
        missing.contains(&format!("?{old}")),
        "the old test is not in the partial clone yet: {missing}"
    );
    let run = clone.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("assertion-loosened"), "{}", run.stdout);
    let base = clone.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    let run = clone.guard(&["ci", "--base", &base, "--no-fetch"]);
    run.expect(1);
    assert!(run.stdout.contains("assertion-loosened"), "{}", run.stdout);
}

#[test]
fn bumping_a_submodule_at_a_protected_path_is_blocked() {
    let lib = TestRepo::with_history();
    let repo = TestRepo::new();
    repo.write("src/invoice.py", "RATE = 0.075\n");
    repo.commit_all("code");
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        lib.root.to_str().unwrap(),
        "tests",
    ]);
    repo.commit_all("tests live in a submodule");
    repo.guard(&["install"]).expect(0);
    let old = repo.git(&["rev-parse", "HEAD:tests"]).trim().to_string();
    let sub = repo.root.join("tests");
    let git = |args: &[&str]| {
        let out = repo.command_in("git", &sub).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
    };
    std::fs::write(sub.join("tests/test_invoice.py"), WEAKENED).unwrap();
    git(&["commit", "-q", "-a", "-m", "weaken inside the submodule"]);
    repo.git(&["add", "tests"]);
    let new = repo.git(&["rev-parse", ":tests"]).trim().to_string();
    assert_ne!(old, new);
    let run = repo.commit("bump the tests", &[]);
    run.expect(1);
    assert!(
        run.stderr.contains(&format!(
            "M tests  (protected by `tests/**`; submodule {} -> {})",
            &old[..7],
            &new[..7]
        )),
        "{}",
        run.stderr
    );
    // Committed past the hook, the commit check and CI see it too.
    repo.commit("bump the tests", &["--no-verify"]).expect(0);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("tests"), "{}", run.stdout);
    let base = repo.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    repo.guard(&["ci", "--base", &base, "--no-fetch"]).expect(1);
}

#[test]
fn a_submodule_outside_protected_paths_still_bumps_freely() {
    let lib = TestRepo::with_history();
    let repo = TestRepo::with_history();
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        lib.root.to_str().unwrap(),
        "vendor/lib",
    ]);
    repo.commit_all("vendor lib");
    repo.guard(&["install"]).expect(0);
    let sub = repo.root.join("vendor/lib");
    std::fs::write(sub.join("src/invoice.py"), "RATE = 0.08\n").unwrap();
    let out = repo
        .command_in("git", &sub)
        .args(["commit", "-q", "-a", "-m", "lib work"])
        .output()
        .unwrap();
    assert!(out.status.success());
    repo.git(&["add", "vendor/lib"]);
    repo.commit("bump lib", &[]).expect(0);
}

#[test]
fn a_test_file_larger_than_the_analysis_reads_blocks_with_an_error_not_a_pass() {
    let repo = TestRepo::installed();
    // 65 MiB of test code: over the 64 MiB the analyser reads.
    let mut big = String::from("def test_rate():\n    assert RATE == 0.075\n");
    let filler = "# generated table row ............................................\n";
    while big.len() <= (65 << 20) {
        big.push_str(filler);
    }
    repo.write("tests/test_huge.py", &big);
    repo.commit_all("huge test file");
    repo.write(
        "tests/test_huge.py",
        big.replacen("RATE == 0.075", "RATE >= 0", 1),
    );
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(
        run.stderr
            .contains("tests/test_huge.py is 65 MiB, larger than the 64 MiB"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint: "), "{}", run.stderr);
}

#[test]
fn a_test_file_over_the_old_4_mib_cap_is_analysed() {
    let repo = TestRepo::installed();
    let mut big = String::from("def test_rate():\n    assert RATE == 0.075\n");
    while big.len() <= (5 << 20) {
        big.push_str("# generated table row ............................................\n");
    }
    repo.write("tests/test_big.py", &big);
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.commit_all("big test file, nothing protected by path");
    repo.write(
        "tests/test_big.py",
        big.replacen("RATE == 0.075", "RATE >= 0", 1),
    );
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
    assert!(
        run.stdout
            .contains("assertion-loosened tests/test_big.py:2"),
        "{}",
        run.stdout
    );
}
