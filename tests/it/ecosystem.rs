//! Beside the hook managers teams already run: husky, lefthook, pre-commit and prek,
//! each the real tool from its registry (see tools.rs), each blocking a weakened test.

use std::path::Path;

use crate::common::{TestRepo, WEAKENED};
use crate::tools;

/// Stages the incident's change: the equality assertion loosened.
fn stage_weakening(repo: &TestRepo) {
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests/test_invoice.py"]);
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn husky_keeps_running_the_team_scripts_and_git_guard_blocks_a_weakened_test() {
    let Some(husky) = tools::npm_bin("husky") else {
        return;
    };
    let repo = TestRepo::with_history().with_path(tools::path_with(&[]));
    repo.write("package.json", "{\"name\": \"shop\", \"private\": true}\n");
    repo.run_ok(&husky, &["init"]);
    assert_eq!(repo.git(&["config", "core.hooksPath"]).trim(), ".husky/_");
    let log = repo.base().join("husky.log");
    let team_script = format!("echo team-pre-commit >> '{}'\n", log.display());
    repo.write(".husky/pre-commit", &team_script);

    let run = repo.guard(&["install"]);
    run.expect(0);
    assert!(
        run.stdout.contains("husky manages the hooks"),
        "{}",
        run.stdout
    );
    assert!(!repo.root.join(".husky/_/pre-commit.guard-chained").exists());
    let script = read(repo.root.join(".husky/pre-commit"));
    assert!(script.starts_with(&team_script), "{script}");
    assert!(script.contains("git-guard hook pre-commit"), "{script}");
    repo.guard(&["install"]).expect(0); // idempotent: one block per script
    assert_eq!(read(repo.root.join(".husky/pre-commit")), script);
    repo.commit_all("husky and git-guard");
    repo.guard(&["doctor"]).expect(0);

    stage_weakening(&repo);
    let blocked = repo.commit("make CI green", &[]);
    assert_ne!(blocked.code, 0, "{}", blocked.all());
    assert!(
        blocked.stderr.contains("commit blocked"),
        "{}",
        blocked.stderr
    );
    assert!(
        read(&log).contains("team-pre-commit"),
        "the team's script ran first"
    );

    repo.git(&["restore", "--staged", "--worktree", "tests/test_invoice.py"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.git(&["add", "src/invoice.py"]);
    repo.commit("raise the rate", &[]).expect(0);
    assert_eq!(read(&log).lines().count(), 2);

    repo.guard(&["uninstall"]).expect(0);
    assert_eq!(read(repo.root.join(".husky/pre-commit")), team_script);
    assert!(!repo.root.join(".husky/post-commit").exists());
    assert!(!repo.root.join(".husky/pre-push").exists());
}

#[test]
fn lefthook_install_says_what_to_add_and_then_git_guard_blocks_commit_and_push() {
    let Some(lefthook) = tools::npm_bin("lefthook") else {
        return;
    };
    let repo = TestRepo::with_origin().with_path(tools::path_with(&[]));
    let log = repo.base().join("lint.log");
    let team = format!(
        "pre-commit:\n  commands:\n    lint:\n      run: echo lint >> '{}'\n",
        log.display()
    );
    repo.write("lefthook.yml", &team);

    let refused = repo.guard(&["install"]);
    refused.expect(2);
    assert!(
        refused.stderr.contains("error: lefthook manages the hooks"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("run: git guard hook pre-push {1}"),
        "{}",
        refused.stderr
    );
    assert!(
        !repo.root.join(".git/hooks/pre-commit").exists(),
        "nothing written"
    );

    // The user follows the hint: the snippet, with the team's lint kept.
    let snippet = refused
        .stderr
        .lines()
        .skip_while(|l| !l.starts_with("hint: pre-commit:"))
        .map(|l| l.strip_prefix("hint: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let merged = snippet.replacen(
        "pre-commit:\n  commands:\n",
        &format!(
            "pre-commit:\n  commands:\n    lint:\n      run: echo lint >> '{}'\n",
            log.display()
        ),
        1,
    );
    repo.write("lefthook.yml", format!("{merged}\n"));
    repo.run_ok(&lefthook, &["install"]);
    let run = repo.guard(&["install"]);
    run.expect(0);
    assert!(
        run.stdout.contains("already runs git-guard"),
        "{}",
        run.stdout
    );
    repo.commit_all("lefthook runs git-guard");
    repo.guard(&["doctor"]).expect(0);

    stage_weakening(&repo);
    let blocked = repo.commit("make CI green", &[]);
    assert_ne!(blocked.code, 0, "{}", blocked.all());
    assert!(
        blocked.all().contains("commit blocked"),
        "{}",
        blocked.all()
    );
    assert!(read(&log).contains("lint"));

    // Skipping the commit hook does not get it past the push.
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    let push = crate::common::Run::from(repo.git_output(&["push", "origin", "main"]));
    assert_ne!(push.code, 0, "{}", push.all());
    assert!(push.all().contains("push blocked"), "{}", push.all());
}

/// A stand-in for the published git-guard repository: its `.pre-commit-hooks.yaml`,
/// committed; returns (url, rev) for `.pre-commit-config.yaml`.
fn hooks_repository(repo: &TestRepo) -> (String, String) {
    let dir = repo.base().join("git-guard-hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    std::fs::copy(manifest, dir.join(".pre-commit-hooks.yaml")).unwrap();
    let dir = dir.display().to_string();
    let git = |args: &[&str]| {
        let mut all = vec!["-C", dir.as_str()];
        all.extend_from_slice(args);
        repo.git(&all).trim().to_string()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "hooks"]);
    let rev = git(&["rev-parse", "HEAD"]);
    (dir, rev)
}

/// The whole flow under pre-commit or prek: blocked commit, `allow`, the note written
/// at the framework's post-commit stage, a push that carries it, and a push of an
/// unapproved commit blocked at the framework's pre-push stage.
fn framework_flow(tool: &Path) {
    let repo = TestRepo::with_origin().with_path(tools::path_with(&[]));
    let (url, rev) = hooks_repository(&repo);
    // `language: system` runs the binary under test; users get `language: rust` from
    // the manifest, which builds it with `cargo install`.
    repo.write(
        ".pre-commit-config.yaml",
        format!(
            "default_install_hook_types: [pre-commit, post-commit, pre-push]\n\
             repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n  - id: git-guard\n    language: system\n"
        ),
    );
    repo.commit_all("pre-commit config");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    // The tools keep their caches under the hermetic HOME of `repo`.
    repo.run_ok(tool, &["install"]);
    let run = repo.guard(&["install"]);
    run.expect(0);
    assert!(
        run.stdout.contains("already runs git-guard"),
        "{}",
        run.stdout
    );
    let push = || crate::common::Run::from(repo.git_output(&["push", "origin", "main"]));

    stage_weakening(&repo);
    let blocked = repo.commit("make CI green", &[]);
    assert_ne!(blocked.code, 0, "{}", blocked.all());
    assert!(
        blocked.all().contains("commit blocked"),
        "{}",
        blocked.all()
    );

    repo.human(&[
        "allow",
        "--reason",
        "The rate became configurable per region (FIN-12)",
    ])
    .expect(0);
    let approved = repo.commit("rate is configurable", &[]);
    approved.expect(0);
    let note = repo
        .note("HEAD")
        .expect("the post-commit stage wrote the note");
    assert!(
        note.contains("Guard-Reason: The rate became configurable"),
        "{note}"
    );
    push().expect(0);
    assert!(repo.origin_git(&["show-ref"]).contains("refs/notes/guard"));

    repo.write("tests/test_invoice.py", "def test_rate():\n    pass\n");
    repo.git(&["add", "-A"]);
    repo.commit("make CI green again", &["--no-verify"])
        .expect(0);
    let refused = push();
    assert_ne!(refused.code, 0, "{}", refused.all());
    assert!(refused.all().contains("push blocked"), "{}", refused.all());
}

#[test]
fn both_frameworks_accept_the_hooks_manifest_as_published() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let repo = TestRepo::new(); // a hermetic HOME for the tools' caches
    for tool in ["pre-commit", "prek"] {
        let Some(bin) = tools::pypi_bin(tool) else {
            return;
        };
        let out = repo
            .command_in(bin, &repo.root)
            .arg("validate-manifest")
            .arg(&manifest)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{tool}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.contains("language: rust"), "users get a built binary");
    assert!(text.contains("stages: [pre-commit, post-commit, pre-push]"));
}

#[test]
fn pre_commit_runs_git_guard_from_its_hooks_manifest() {
    if let Some(tool) = tools::pypi_bin("pre-commit") {
        framework_flow(&tool);
    }
}

#[test]
fn prek_runs_git_guard_from_its_hooks_manifest() {
    if let Some(tool) = tools::pypi_bin("prek") {
        framework_flow(&tool);
    }
}
