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
        "override",
        "ci",
        "run",
        "ledger",
        "demo",
        "doctor",
        "agent-hook",
        "man",
        "completions",
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

/// A repository whose staged change needs approval (the incident's weakened test).
fn weakened() -> TestRepo {
    let repo = TestRepo::with_history();
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE >= 0\n",
    );
    repo.git(&["add", "-A"]);
    repo
}

#[test]
fn colour_is_off_by_default_off_a_terminal_and_on_when_asked() {
    let repo = weakened();
    let plain = repo.guard(&["check"]);
    plain.expect(1);
    assert!(!plain.stdout.contains('\x1b'), "{}", plain.stdout);
    let coloured = repo.guard(&["check", "--color", "always"]);
    coloured.expect(1);
    assert!(
        coloured.stdout.contains("\x1b[1;31mNEEDS APPROVAL\x1b[0m"),
        "{}",
        coloured.stdout
    );
    let error = repo.guard(&["--color", "always", "check", "--commit", "nope"]);
    error.expect(2);
    assert!(
        error.stderr.starts_with("\x1b[1;31merror:\x1b[0m "),
        "{}",
        error.stderr
    );
    assert!(
        error.stderr.contains("\x1b[33mhint:\x1b[0m "),
        "{}",
        error.stderr
    );
    let never = repo.guard(&["check", "--color", "never"]);
    assert!(!never.stdout.contains('\x1b'));
}

#[test]
fn no_color_beats_the_personal_file_and_the_flag_beats_both() {
    let repo = weakened();
    let config = repo.home().join(".config/git-guard");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("config.toml"), "color = \"always\"\n").unwrap();
    let check = |no_color: Option<&str>, extra: &[&str]| {
        let mut cmd = repo.command_in(GUARD, &repo.root);
        cmd.arg("check").args(extra);
        match no_color {
            Some(v) => cmd.env("NO_COLOR", v),
            None => cmd.env_remove("NO_COLOR"),
        };
        crate::common::Run::from(cmd.output().unwrap())
    };
    assert!(
        check(None, &[]).stdout.contains('\x1b'),
        "the file asks for colour"
    );
    assert!(
        !check(Some("1"), &[]).stdout.contains('\x1b'),
        "NO_COLOR wins"
    );
    assert!(
        check(Some("1"), &["--color", "always"])
            .stdout
            .contains('\x1b')
    );
    assert!(!check(None, &["--color", "never"]).stdout.contains('\x1b'));
}

#[test]
fn quiet_leaves_only_the_exit_code_and_verbose_says_what_was_looked_at() {
    let repo = weakened();
    let quiet = repo.guard(&["-q", "check"]);
    quiet.expect(1);
    assert_eq!(quiet.all(), "");
    // What blocks is still said under -q: a hook's refusal is not optional.
    let hook = repo.guard(&["hook", "pre-commit", "--quiet"]);
    hook.expect(1);
    assert!(hook.stderr.contains("commit blocked"), "{}", hook.stderr);
    // JSON was asked for by name.
    let json = repo.guard(&["check", "-q", "--format", "json"]);
    assert!(json.stdout.contains("\"blocked\": true"), "{}", json.stdout);

    let verbose = repo.guard(&["hook", "pre-commit", "-v"]);
    verbose.expect(1);
    assert!(
        verbose
            .stderr
            .contains("git-guard: staged: 1 protected change, 1 finding in 1 changed file; policy: built-in defaults"),
        "{}",
        verbose.stderr
    );
    assert!(
        verbose.stderr.contains("git-guard: pre-commit done in "),
        "{}",
        verbose.stderr
    );
    repo.guard(&["-q", "-v", "check"]).expect(2);
}

#[test]
fn the_personal_file_can_shorten_findings_and_is_checked_like_any_input() {
    let repo = weakened();
    let config = repo.home().join(".config/git-guard");
    std::fs::create_dir_all(&config).unwrap();
    let detail = repo.guard(&["check"]);
    assert!(detail.stdout.contains("replaced by"), "{}", detail.stdout);
    std::fs::write(config.join("config.toml"), "findings = \"summary\"\n").unwrap();
    let summary = repo.guard(&["check"]);
    assert!(
        summary
            .stdout
            .contains("! assertion-loosened tests/test_invoice.py:2\n"),
        "{}",
        summary.stdout
    );
    // Team policy does not belong in the personal file.
    std::fs::write(config.join("config.toml"), "[protect]\npaths = []\n").unwrap();
    let bad = repo.guard(&["check"]);
    bad.expect(2);
    assert!(
        bad.stderr.contains("unknown field `protect`"),
        "{}",
        bad.stderr
    );
    assert!(bad.stderr.contains("hint: valid keys"), "{}", bad.stderr);
}

#[test]
fn the_man_page_is_generated_from_the_command_line_definition() {
    let repo = TestRepo::new();
    let page = repo.guard(&["man"]);
    page.expect(0);
    assert!(
        page.stdout.contains(".TH git-guard 1"),
        "{}",
        &page.stdout[..200]
    );
    for command in ["install", "check", "ci", "doctor", r"agent\-hook"] {
        assert!(page.stdout.contains(command), "{command} missing");
    }
    let dir = repo.base().join("man1");
    repo.guard(&["man", "--dir", dir.to_str().unwrap()])
        .expect(0);
    let check = std::fs::read_to_string(dir.join("git-guard-check.1")).unwrap();
    assert!(check.contains("Example: git guard check"), "{check}");
    // man itself can render it.
    if let Ok(out) = std::process::Command::new("man")
        .args(["-l", dir.join("git-guard.1").to_str().unwrap()])
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        && out.status.success()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("git-guard"), "{text}");
    }
}

#[test]
fn git_guard_help_finds_the_man_page_after_man_install() {
    if std::process::Command::new("man")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: no `man` on this machine");
        return;
    }
    let repo = TestRepo::new();
    // Installed as `cargo install` does: a prefix with bin/ (here a copy of the binary).
    let prefix = repo.base().join("prefix");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    let exe = prefix.join("bin/git-guard");
    crate::common::copy_executable(crate::common::GUARD, &exe);
    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        prefix.join("bin").display()
    );
    let repo = repo.with_path(path);
    let install = repo.run_ok(&exe, &["man", "--install"]);
    assert!(install.contains("share/man/man1"), "{install}");
    assert!(prefix.join("share/man/man1/git-guard.1").is_file());
    // git turns `--help` into `man git-guard`; man finds the page through PATH.
    let help = repo
        .command_in("git", &repo.root)
        .args(["guard", "--help"])
        .env_remove("MANPATH")
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.status.success(),
        "{}{}",
        text,
        String::from_utf8_lossy(&help.stderr)
    );
    assert!(text.contains("git-guard"), "{text}");
    assert!(text.contains("init"), "{text}");
}

#[test]
fn a_clap_error_ends_with_exactly_one_hint_naming_dash_h() {
    let repo = TestRepo::new();
    let run = repo.guard(&["chek"]);
    run.expect(2);
    assert!(
        run.stderr.contains("a similar subcommand exists: 'check'"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.matches("hint:").count(), 1, "{}", run.stderr);
    assert!(
        !run.stderr.contains("For more information"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .trim_end()
            .ends_with("hint: see `git guard -h` for the commands and their options"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_with_nothing_staged_says_so() {
    let repo = TestRepo::with_history();
    let run = repo.guard(&["check"]);
    run.expect(0);
    assert!(
        run.stdout.contains("Nothing to check: nothing is staged."),
        "{}",
        run.stdout
    );
}

#[test]
fn top_level_help_groups_every_visible_command_and_hides_hook() {
    let command = git_guard::cli::command();
    let grouped = git_guard::cli::grouped_names();
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        assert!(
            grouped.contains(&sub.get_name()),
            "`{}` is in no group of the top-level help",
            sub.get_name()
        );
    }
    let repo = TestRepo::new();
    let help = repo.guard(&["--help"]);
    help.expect(0);
    for heading in ["Setup:", "Everyday:", "CI:", "Agents:", "More:", "Options:"] {
        assert!(help.stdout.contains(heading), "{}", help.stdout);
    }
    assert!(!help.stdout.contains("\n  hook "), "{}", help.stdout);
    // Hidden, not gone: the installed hooks still call it.
    repo.guard(&["hook", "--help"]).expect(0);
}

#[test]
fn git_guard_tab_completes_through_gits_own_bash_completion() {
    let git_completion = std::path::Path::new("/usr/share/bash-completion/completions/git");
    if !git_completion.is_file() {
        eprintln!("SKIPPED: git's bash completion is not installed here");
        return;
    }
    let repo = TestRepo::new();
    let script = repo.guard(&["completions", "bash"]);
    script.expect(0);
    let ours = repo.base().join("git-guard.bash");
    std::fs::write(&ours, &script.stdout).unwrap();
    let probe = format!(
        r#"source /usr/share/bash-completion/bash_completion 2>/dev/null
source {git}
source {ours}
complete_line() {{
  COMP_LINE="$1"; COMP_POINT=${{#COMP_LINE}}
  read -r -a COMP_WORDS <<< "$COMP_LINE"
  COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
  COMPREPLY=()
  __git_wrap__git_main git "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
  echo "${{COMPREPLY[*]}}"
}}
complete_line "git guard ch"
complete_line "git guard check --for"
"#,
        git = git_completion.display(),
        ours = ours.display()
    );
    let out = repo.run_ok("bash", &["-c", &probe]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first().map(|l| l.trim()), Some("check"), "{out}");
    assert_eq!(lines.get(1).map(|l| l.trim()), Some("--format"), "{out}");
}

#[test]
fn a_commands_help_lists_its_own_options_before_the_global_ones() {
    let repo = TestRepo::new();
    let help = repo.guard(&["check", "-h"]);
    help.expect(0);
    let own = help.stdout.find("--range").expect("own option");
    let global = help.stdout.find("--color").expect("global option");
    assert!(own < global, "{}", help.stdout);
}
