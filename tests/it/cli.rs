//! The command line itself: help, version, usage errors, outside a repository.

use crate::common::{GUARD, TestRepo};

#[test]
fn help_lists_every_command() {
    let repo = TestRepo::new();
    let run = repo.guard(&["--help"]);
    run.expect(0);
    insta::assert_snapshot!("help", run.stdout);
}

#[test]
fn every_command_help_has_an_example() {
    let repo = TestRepo::new();
    for cmd in [
        "init",
        "install",
        "uninstall",
        "hook",
        "check",
        "allow",
        "log",
    ] {
        let run = repo.guard(&[cmd, "--help"]);
        run.expect(0);
        assert!(
            run.stdout.contains("Example: git guard"),
            "{cmd}: {}",
            run.stdout
        );
    }
}

#[test]
fn version_prints_the_crate_version() {
    let repo = TestRepo::new();
    let run = repo.guard(&["--version"]);
    run.expect(0);
    assert_eq!(
        run.stdout,
        format!("git-guard {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_error_is_exit_2_with_error_and_hint() {
    let repo = TestRepo::new();
    let run = repo.guard(&["check", "--bogus"]);
    run.expect(2);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert!(run.stderr.contains("\nhint: "), "{}", run.stderr);
}

#[test]
fn outside_a_repository_is_exit_2_with_a_hint_and_no_backtrace() {
    let repo = TestRepo::new();
    let outside = repo.base().join("home");
    let out = repo
        .command_in(GUARD, &outside)
        .args(["check"])
        .env("RUST_BACKTRACE", "1")
        .env("GIT_CEILING_DIRECTORIES", repo.base())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: not a git repository"), "{err}");
    assert!(err.contains("\nhint: "), "{err}");
    assert!(!err.contains("backtrace") && !err.contains("Os {"), "{err}");
}

#[test]
fn works_as_a_git_subcommand() {
    let repo = TestRepo::with_history();
    let dir = std::path::Path::new(GUARD).parent().unwrap();
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap());
    let out = repo
        .command_in("git", &repo.root)
        .args(["guard", "check"])
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    let repo = TestRepo::new();
    for (shell, marker) in [
        ("bash", "_git__guard()"),
        ("zsh", "#compdef git-guard"),
        ("fish", "complete -c git-guard"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let run = repo.guard(&["completions", shell]);
        run.expect(0);
        assert!(
            run.stdout.contains(marker),
            "{shell}: {}",
            &run.stdout[..run.stdout.len().min(300)]
        );
        assert!(
            run.stdout.contains("override"),
            "{shell} completes the subcommands"
        );
    }
    repo.guard(&["completions", "tcsh"]).expect(2);
}
