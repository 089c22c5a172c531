//! The git edge-case matrix: each case a real repository, named after what it proves.

use std::os::unix::fs::PermissionsExt;

use crate::common::{GUARD, REASON, TestRepo, WEAKENED};

#[test]
fn detached_head_commits_are_guarded_and_noted() {
    let repo = TestRepo::installed();
    repo.git(&["switch", "-q", "--detach", "HEAD"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("detached", &[]).expect(1);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.commit("detached", &[]).expect(0);
    assert!(repo.note("HEAD").unwrap().contains(REASON));
}

#[test]
fn a_symlink_added_inside_tests_is_a_protected_change() {
    let repo = TestRepo::installed();
    std::os::unix::fs::symlink("../src/invoice.py", repo.root.join("tests/linked.py")).unwrap();
    repo.git(&["add", "-A"]);
    let run = repo.commit("link", &[]);
    run.expect(1);
    assert!(run.stderr.contains("A tests/linked.py"), "{}", run.stderr);
}

#[test]
fn a_case_only_rename_out_of_tests_is_caught_and_within_tests_is_not_a_finding() {
    let repo = TestRepo::installed();
    repo.git(&["mv", "tests", "Tests"]);
    let run = repo.guard(&["check", "--format", "json"]);
    run.expect(1);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["checked"][0]["findings"][0]["kind"], "protected-moved");
    repo.git(&["mv", "Tests", "tests"]);
    repo.git(&["mv", "tests/test_invoice.py", "tests/Test_invoice.py"]);
    let run = repo.guard(&["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["checked"][0]["findings"], serde_json::json!([]));
}

#[test]
fn an_empty_guard_toml_means_the_defaults() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "");
    repo.commit_all("empty policy");
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
    assert!(run.stdout.contains("`tests/**`"), "{}", run.stdout);
}

#[test]
fn a_10_mb_guard_toml_is_read_without_trouble() {
    let repo = TestRepo::with_history();
    let mut text = String::with_capacity(10 << 20);
    while text.len() < 10 << 20 {
        text.push_str(
            "# a very long comment line to make this file large, as a hostile repo might\n",
        );
    }
    text.push_str("[protect]\npaths = [\"tests/**\"]\n");
    repo.write("guard.toml", text);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests"]);
    let run = repo.guard(&["check"]);
    run.expect(1);
}

#[test]
fn a_binary_foreign_hook_is_chained_and_restored_byte_for_byte() {
    let repo = TestRepo::with_history();
    let hook = repo.root.join(".git/hooks/pre-commit");
    let binary = std::fs::read("/bin/true").unwrap();
    std::fs::write(&hook, &binary).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    repo.guard(&["install"]).expect(0);
    repo.write("src/invoice.py", "RATE = 1\n");
    repo.git(&["add", "-A"]);
    repo.commit("runs through the chained binary", &[])
        .expect(0);
    repo.guard(&["uninstall"]).expect(0);
    assert_eq!(std::fs::read(&hook).unwrap(), binary);
}

#[test]
fn check_in_a_bare_repository_is_a_clear_error() {
    let repo = TestRepo::with_history();
    // (A commit that only adds tests is now a strengthening and needs nothing; judge a
    // weakening instead.)
    repo.write("tests/test_invoice.py", crate::common::WEAKENED);
    repo.commit_all("loosen the rate test");
    let bare = repo.base().join("bare.git");
    repo.git(&[
        "clone",
        "-q",
        "--bare",
        repo.root.to_str().unwrap(),
        bare.to_str().unwrap(),
    ]);
    let out = repo
        .command_in(GUARD, &bare)
        .args(["check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: this is a bare repository"), "{err}");
    // A commit is judged fine in a bare repository (CI servers have those): HEAD
    // loosens a test without a note, so it needs approval.
    let ok = repo
        .command_in(GUARD, &bare)
        .args(["check", "--commit", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(
        ok.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("NEEDS APPROVAL"));
}

#[test]
fn a_cherry_pick_without_its_note_is_matched_by_patch_id() {
    let repo = TestRepo::with_history();
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.git(&["switch", "-q", "-c", "release"]);
    repo.git(&["switch", "-q", "-c", "fix", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("loosen");
    let picked = repo
        .git(&["rev-parse", "--short", "HEAD"])
        .trim()
        .to_string();
    repo.human(&["override", &picked, "--reason", REASON])
        .expect(0);
    repo.git(&["switch", "-q", "release"]);
    repo.write("README.md", "release notes\n");
    repo.commit_all("release prep");
    repo.git(&["cherry-pick", &picked]);
    let run = repo.guard(&["check", "--range", &format!("{base}..release")]);
    run.expect(0);
    assert!(run.stdout.contains("approved"), "{}", run.stdout);
}

#[test]
fn concurrent_overrides_never_lose_a_note_silently() {
    let repo = TestRepo::with_history();
    // Six processes at once, without a terminal each: the policy opts into that.
    repo.write("guard.toml", "[override]\nallow_without_tty = true\n");
    repo.commit_all("policy: approvals without a terminal");
    let mut ids = Vec::new();
    for i in 0..6 {
        repo.write(
            format!("tests/test_{i}.py"),
            format!("def test_{i}():\n    assert {i} == {i}\n"),
        );
        repo.commit_all(&format!("test {i}"));
        ids.push(repo.git(&["rev-parse", "HEAD"]).trim().to_string());
    }
    let children: Vec<_> = ids
        .iter()
        .map(|id| {
            repo.command_in(GUARD, &repo.root)
                .args(["override", id, "--reason", REASON])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let codes: Vec<i32> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap().status.code().unwrap())
        .collect();
    // Writers take turns on the notes ref: every override succeeds and every note stays.
    assert_eq!(codes, vec![0; ids.len()]);
    for id in &ids {
        assert!(
            repo.note(id).is_some(),
            "override of {id} said yes but its note is gone"
        );
    }
}

#[test]
fn a_sparse_checkout_commits_through_the_hook() {
    let repo = TestRepo::installed();
    repo.git(&["sparse-checkout", "set", "src"]);
    assert!(!repo.root.join("tests/test_invoice.py").exists());
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "-A"]);
    repo.commit("code only, sparse", &[]).expect(0);
    // Removing a protected file from the index (not just from the sparse work tree) is seen.
    repo.git(&["rm", "-q", "--cached", "--sparse", "tests/test_invoice.py"]);
    repo.commit("drop the test, sparse", &[]).expect(1);
}

#[test]
fn a_submodule_is_guarded_by_its_own_hooks_and_policy() {
    let repo = TestRepo::with_history();
    let lib = TestRepo::with_history();
    lib.write("guard.toml", "[protect]\npaths = [\"spec/**\"]\n");
    lib.write("spec/a_spec.txt", "x\n");
    lib.commit_all("lib policy");
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        lib.root.to_str().unwrap(),
        "vendor/lib",
    ]);
    repo.commit_all("add submodule");
    let sub = repo.root.join("vendor/lib");
    let guard = |args: &[&str]| {
        repo.command_in(crate::common::GUARD, &sub)
            .args(args)
            .output()
            .unwrap()
    };
    assert!(guard(&["install"]).status.success());
    assert!(
        repo.root
            .join(".git/modules/vendor/lib/hooks/pre-commit")
            .exists()
    );
    std::fs::write(sub.join("spec/a_spec.txt"), "y\n").unwrap();
    let git = |args: &[&str]| repo.command_in("git", &sub).args(args).output().unwrap();
    assert!(git(&["add", "-A"]).status.success());
    let blocked = git(&["commit", "-q", "-m", "edit spec"]);
    assert_eq!(blocked.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&blocked.stderr).contains("`spec/**`"));
    // Put the spec back (nothing was lost: it was still staged), commit something else.
    assert!(
        git(&["restore", "--staged", "--worktree", "spec/a_spec.txt"])
            .status
            .success()
    );
    // The superproject only sees a gitlink move, which its policy does not protect.
    repo.guard(&["install"]).expect(0);
    std::fs::write(sub.join("README.md"), "lib\n").unwrap();
    assert!(git(&["add", "README.md"]).status.success());
    assert!(git(&["commit", "-q", "-m", "lib docs"]).status.success());
    repo.git(&["add", "vendor/lib"]);
    repo.commit("bump lib", &[]).expect(0);
}

#[test]
fn a_force_rewritten_remote_notes_ref_is_merged_back_not_overwritten() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("first", &["--no-verify"]).expect(0);
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    crate::common::Run::from(repo.git_output(&["push", "-q", "origin", "main"])).expect(0);
    // Someone force-pushes an unrelated notes history to the remote.
    let other = repo.clone_origin("other", &[]);
    other.git(&[
        "notes",
        "--ref",
        "refs/notes/guard",
        "add",
        "-m",
        "unrelated note",
        "HEAD~1",
    ]);
    other.git(&[
        "push",
        "-q",
        "-f",
        "--no-verify",
        "origin",
        "refs/notes/guard",
    ]);
    // The next push merges both histories: nothing of either side is lost.
    repo.write("src/invoice.py", "RATE = 0.09\n");
    repo.commit_all("code");
    let run = crate::common::Run::from(repo.git_output(&["push", "-q", "origin", "main"]));
    run.expect(0);
    assert!(!run.stderr.contains("WARNING"), "{}", run.stderr);
    let remote = repo.origin_git(&["notes", "--ref", "refs/notes/guard", "list"]);
    assert_eq!(remote.lines().count(), 2, "{remote}");
    assert!(
        repo.origin_git(&["notes", "--ref", "refs/notes/guard", "show", "main~1"])
            .contains(REASON)
    );
}

/// Whether the current user is root, whom file permissions do not stop.
fn is_root() -> bool {
    #[allow(unsafe_code)]
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    euid == 0
}

/// Runs git-guard as a user the file permissions apply to: as root (CI), that is
/// `nobody` through `setpriv`, with the whole test directory handed over to it first;
/// otherwise the current user.
fn guard_unprivileged(repo: &TestRepo, args: &[&str]) -> crate::common::Run {
    let mut cmd = if is_root() {
        chown_tree(repo.base(), 65534, 65534);
        let mut cmd = repo.command_in("setpriv", &repo.root);
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(GUARD);
        cmd
    } else {
        repo.command_in(GUARD, &repo.root)
    };
    crate::common::Run::from(cmd.args(args).output().unwrap())
}

fn chown_tree(path: &std::path::Path, uid: u32, gid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid)).unwrap();
    if path.is_dir() && !path.is_symlink() {
        for entry in std::fs::read_dir(path).unwrap() {
            chown_tree(&entry.unwrap().path(), uid, gid);
        }
    }
}

/// Every file in `dir` with its bytes and mode, to compare before and after.
fn listing(dir: &std::path::Path) -> Vec<(String, Vec<u8>, u32)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            let bytes = std::fs::read(&path).unwrap_or_default();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                bytes,
                mode,
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_read_only_hooks_directory_fails_with_a_hint_and_loses_nothing() {
    let repo = TestRepo::with_history();
    // As root the test runs git-guard as `nobody`, who must be able to reach the
    // temporary directory and the binary (a private parent directory would stop it).
    let reachable = |path: &std::path::Path| {
        path.ancestors()
            .skip(1)
            .all(|dir| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
    };
    let setpriv = std::path::Path::new("/usr/bin/setpriv").exists();
    if is_root() && !(reachable(repo.base()) && reachable(std::path::Path::new(GUARD)) && setpriv) {
        eprintln!(
            "SKIPPED: running as root, and `nobody` cannot reach {} or {} (or setpriv is missing)",
            repo.base().display(),
            GUARD
        );
        return;
    }
    let hooks = repo.root.join(".git/hooks");
    let foreign = hooks.join("pre-commit");
    std::fs::write(&foreign, "#!/bin/sh\necho lint\n").unwrap();
    std::fs::set_permissions(&foreign, std::fs::Permissions::from_mode(0o755)).unwrap();
    let read_only = |on: bool| {
        let mode = if on { 0o555 } else { 0o755 };
        std::fs::set_permissions(&hooks, std::fs::Permissions::from_mode(mode)).unwrap();
    };

    let before = listing(&hooks);
    read_only(true);
    let install = guard_unprivileged(&repo, &["install"]);
    read_only(false);
    install.expect(2);
    assert!(install.stderr.starts_with("error: "), "{}", install.stderr);
    assert!(install.stderr.contains("\nhint: "), "{}", install.stderr);
    assert_eq!(
        listing(&hooks),
        before,
        "the foreign hook is untouched, no temp file left"
    );

    // Installed, then the directory turns read-only: uninstall refuses, hooks intact.
    guard_unprivileged(&repo, &["install"]).expect(0);
    let installed = listing(&hooks);
    read_only(true);
    let uninstall = guard_unprivileged(&repo, &["uninstall"]);
    read_only(false);
    uninstall.expect(2);
    assert!(
        uninstall.stderr.contains("\nhint: "),
        "{}",
        uninstall.stderr
    );
    assert_eq!(listing(&hooks), installed);
}

/// A fast-import stream: `main` with 100,000 files (10,000 of them tests), and `next`
/// changing 10,000 of them: 9,000 sources, 900 tests kept strict and 100 tests loosened.
fn big_history() -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(8 << 20);
    let file = |s: &mut String, path: &str, body: &str| {
        let _ = write!(s, "M 100644 inline {path}\ndata {}\n{body}\n", body.len());
    };
    let header = |s: &mut String, branch: &str, message: &str| {
        let _ = write!(
            s,
            "commit refs/heads/{branch}\ncommitter Jane Doe <jane@example.com> 1764666000 +0000\ndata {}\n{message}\n",
            message.len()
        );
    };
    header(&mut s, "main", "100k files");
    for i in 0..90_000 {
        file(
            &mut s,
            &format!("src/d{:03}/f{i:05}.py", i % 900),
            &format!("X = {i}\n"),
        );
    }
    for i in 0..10_000 {
        let body = format!("def test_{i}():\n    assert f({i}) == {i}\n");
        file(
            &mut s,
            &format!("tests/d{:02}/test_{i:05}.py", i % 100),
            &body,
        );
    }
    header(&mut s, "next", "10k changes");
    s.push_str("from refs/heads/main\n");
    for i in 0..9_000 {
        file(
            &mut s,
            &format!("src/d{:03}/f{i:05}.py", i % 900),
            &format!("X = {i} + 1\n"),
        );
    }
    for i in 0..1_000 {
        let body = if i < 100 {
            format!("def test_{i}():\n    assert f({i}) >= 0\n")
        } else {
            format!("def test_{i}():\n    assert f({i}) == {i}  # checked\n")
        };
        file(
            &mut s,
            &format!("tests/d{:02}/test_{i:05}.py", i % 100),
            &body,
        );
    }
    s
}

#[test]
fn a_10k_file_change_in_a_100k_file_repository_is_judged_whole() {
    use std::io::Write;
    let repo = TestRepo::new();
    let mut import = repo
        .command_in("git", &repo.root)
        .args(["fast-import", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    import
        .stdin
        .take()
        .unwrap()
        .write_all(big_history().as_bytes())
        .unwrap();
    assert!(import.wait().unwrap().success());
    assert_eq!(
        repo.git(&["ls-tree", "-r", "--name-only", "main"])
            .lines()
            .count(),
        100_000
    );

    // The range, as CI and pre-push see it.
    let range = repo.guard(&["check", "--range", "main..next", "--format", "json"]);
    range.expect(1);
    let json: serde_json::Value = serde_json::from_str(&range.stdout).unwrap();
    let report = &json["checked"][0];
    assert_eq!(report["files_changed"], 10_000);
    assert_eq!(report["protected"].as_array().unwrap().len(), 1_000);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 100);
    assert!(findings.iter().all(|f| f["kind"] == "assertion-loosened"));

    // The same change staged, as the commit hook sees it (index = next, HEAD = main).
    repo.git(&["read-tree", "next"]);
    let hook = repo.guard(&["hook", "pre-commit", "-v"]);
    hook.expect(1);
    assert!(
        hook.stderr
            .contains("staged: 1000 protected changes, 100 findings in 10000 changed files"),
        "{}",
        &hook.stderr[..hook.stderr.len().min(600)]
    );
    // Only sources changed: allowed.
    repo.git(&["read-tree", "main"]);
    repo.git(&[
        "update-index",
        "--remove",
        "--force-remove",
        "src/d000/f00000.py",
    ]);
    repo.guard(&["hook", "pre-commit"]).expect(0);
}

#[test]
fn a_rebase_carries_the_note_to_the_rewritten_commit() {
    let repo = TestRepo::installed();
    repo.git(&["checkout", "-q", "-b", "topic"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.human(&["allow", "--reason", REASON]).expect(0);
    repo.commit("loosen the rate test", &[]).expect(0);
    let before = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write("src/other.py", "X = 1\n");
    repo.commit_all("unrelated work on main");
    repo.git(&["checkout", "-q", "topic"]);
    repo.git(&["rebase", "-q", "main"]);
    assert_ne!(repo.git(&["rev-parse", "HEAD"]), before, "rewritten");
    assert!(repo.note("HEAD").unwrap().contains(REASON));
    let run = repo.guard(&["check", "--commit", "HEAD", "--format", "json"]);
    run.expect(0);
    assert!(
        run.stdout.contains("\"approved_via\": \"note\""),
        "{}",
        run.stdout
    );
}
