//! The command line, as clap derive types. Their doc comments are the manual.

use clap::{Parser, Subcommand};

pub use crate::render::{CiFormat, Format};

/// Stop silent test weakening: changes to protected test paths need a human's reason,
/// stored in git notes and re-checked in CI.
#[derive(Debug, Parser)]
#[command(
    name = "git-guard",
    bin_name = "git guard",
    version,
    propagate_version = true
)]
#[command(after_help = "Start with: git guard init && git guard install")]
pub struct Cli {
    /// Colour the output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        global = true,
        display_order = 900
    )]
    pub color: Option<crate::settings::ColorChoice>,
    /// Say only what blocked and what failed; the exit code tells the rest.
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        display_order = 901
    )]
    pub quiet: bool,
    /// Also say which policy is in force, what was looked at, and how long it took.
    #[arg(short, long, global = true, display_order = 902)]
    pub verbose: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The hooks git-guard answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookName {
    /// Before a commit is recorded: judge the staged change.
    PreCommit,
    /// After a commit is recorded: attach the approval as a note.
    PostCommit,
    /// Before a push: judge every outgoing commit, then push the notes.
    PrePush,
    /// Called by the pre-commit framework (pre-commit, prek) at any of its stages.
    ///
    /// The framework hides git's hook name and pre-push stdin, so the stage is read off
    /// its environment: `PRE_COMMIT_REMOTE_NAME` means pre-push (the refs come from
    /// `PRE_COMMIT_FROM_REF`/`TO_REF`); otherwise a staged change means pre-commit, and an
    /// empty index means post-commit.
    PreCommitFramework,
}

/// The agents whose hook protocol we speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    /// Claude Code's `PreToolUse` hook (JSON on stdin, a JSON decision on stdout).
    ClaudeCode,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a commented guard.toml with the defaults.
    ///
    /// Example: git guard init
    Init {
        /// Overwrite an existing guard.toml.
        #[arg(long)]
        force: bool,
    },
    /// Install the hooks into the hooks directory git really uses.
    ///
    /// Respects core.hooksPath and linked worktrees. A hook that is already there and is
    /// not ours is kept and runs first. Under husky it adds a marked block to the team's
    /// `.husky/` scripts; under lefthook it prints what to add to lefthook.yml; when
    /// .pre-commit-config.yaml runs git-guard it writes no hook files. Also configures
    /// notes.rewriteRef and fetching origin's notes. Safe to run again.
    ///
    /// Example: git guard install
    Install,
    /// Remove git-guard's hooks and restore the hooks they had chained, byte for byte.
    ///
    /// Example: git guard uninstall
    Uninstall,
    /// The entry point the installed hooks call.
    ///
    /// Example: git guard hook pre-commit
    #[command(hide = true)]
    Hook {
        /// Which hook git is running.
        #[arg(value_enum)]
        name: HookName,
        /// The arguments git passed to the hook.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Report protected changes and findings; exit 1 if an approval is missing.
    ///
    /// Example: git guard check --staged --format json
    Check {
        /// The staged change (the default).
        #[arg(long, conflicts_with_all = ["commit", "range"])]
        staged: bool,
        /// One commit, against its first parent, with the policy of that parent.
        #[arg(long, value_name = "REV", conflicts_with = "range")]
        commit: Option<String>,
        /// Every commit in A..B, with the policy at A.
        #[arg(long, value_name = "A..B")]
        range: Option<String>,
        /// With --range: JUnit XML reports of the head (a quoted glob); needs --baseline.
        #[arg(long, value_name = "GLOB")]
        results: Option<String>,
        /// With --range: JUnit XML reports of the base (a quoted glob); needs --results.
        #[arg(long, value_name = "GLOB")]
        baseline: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Approve exactly the staged change, from your own terminal, before committing it.
    ///
    /// The approval is bound to the index tree: any other staged change is not covered.
    /// Refused when guard.toml sets allow_without_tty = false.
    ///
    /// Example: git guard allow --reason "Rounding rule changed by finance ticket FIN-12"
    Allow {
        /// One sentence: why the test itself must change.
        #[arg(long)]
        reason: String,
    },
    /// List the overrides recorded on commits: who, when, why, which paths.
    ///
    /// Example: git guard log main..HEAD
    Log {
        /// A revision (its whole history) or a range A..B; defaults to HEAD.
        range: Option<String>,
    },
    /// Attach an override note to an existing commit (prompts when --reason is absent).
    ///
    /// With --tests, approve instead exactly the named tests that the test reports show
    /// vanished or newly skipped (`git guard ci --results … --baseline …`); the note goes
    /// on REV, normally the head of the pull request, and names each id (`Guard-Tests`).
    /// Any other test that vanishes still blocks.
    ///
    /// Example: git guard override HEAD~2 --reason "Fixture currency table now seeded"
    Override {
        /// The commit to approve (with --tests: a commit of the pull request, its head).
        #[arg(value_name = "REV")]
        rev: String,
        /// Test ids to approve, `<classname>::<name>` as `git guard ci` lists them.
        #[arg(long, value_name = "ID", num_args = 1.., action = clap::ArgAction::Append)]
        tests: Vec<String>,
        /// One sentence: why the test itself must change.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Re-check every commit of base..head in CI, with the policy of the base commit.
    ///
    /// Base and labels come from GitHub Actions, GitLab, or GUARD_BASE / GUARD_LABELS /
    /// PR_LABELS; flags win. Notes are fetched from origin unless --no-fetch.
    ///
    /// Example: git guard ci --base origin/main --format github --results 'reports/head/*.xml' --baseline 'reports/base/*.xml'
    Ci {
        /// The base revision (default: from the CI environment).
        #[arg(long, value_name = "REF")]
        base: Option<String>,
        /// The head revision.
        #[arg(long, value_name = "REF")]
        head: Option<String>,
        /// Comma-separated PR/MR labels.
        #[arg(long, value_name = "L1,L2")]
        labels: Option<String>,
        /// Fetch nothing from origin (notes, base branch, history).
        #[arg(long)]
        no_fetch: bool,
        /// JUnit XML reports of the head's test run (a quoted glob); needs --baseline.
        ///
        /// Tests that ran at the base and are absent at the head (test-vanished), or are
        /// skipped at the head (test-newly-skipped), block until approved by the label
        /// or by `git guard override <head> --tests ID…`.
        #[arg(long, value_name = "GLOB")]
        results: Option<String>,
        /// JUnit XML reports of the base commit's test run (a quoted glob); needs --results.
        #[arg(long, value_name = "GLOB")]
        baseline: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: CiFormat,
    },
    /// Run one agent attempt under the attempt budget and record it in the ledger.
    ///
    /// Refuses (exit 2) once the ledger holds the budget. The command runs with inherited
    /// stdio; its exit code becomes ours. The ledger stores a hash of the command line,
    /// never the command line itself.
    ///
    /// Example: git guard run -- claude -p "make CI green"
    Run {
        /// The budget (default: `max_attempts` in guard.toml's `[ledger]`).
        #[arg(long, value_name = "N")]
        max_attempts: Option<u32>,
        /// The ledger file (default: $(git rev-parse --git-path guard)/ledger.jsonl).
        #[arg(long, value_name = "PATH")]
        ledger: Option<std::path::PathBuf>,
        /// The command and its arguments.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Summarise the ledger: attempts used, failures, time, protected paths touched.
    ///
    /// Example: git guard ledger --format json
    Ledger {
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Start a new budget (appends a marker; history is kept).
        #[arg(long)]
        reset: bool,
        /// The ledger file (default: $(git rev-parse --git-path guard)/ledger.jsonl).
        #[arg(long, value_name = "PATH")]
        ledger: Option<std::path::PathBuf>,
    },
    /// Replay the incident in a throw-away repository and show each defence hold.
    ///
    /// Example: git guard demo
    Demo {
        /// Keep the demo repository in DIR (must not exist yet) instead of deleting it.
        #[arg(long, value_name = "DIR")]
        keep: Option<std::path::PathBuf>,
    },
    /// Check the installation and say what to fix: hooks, binary, notes config, guard.toml.
    ///
    /// Exit 0 when everything is in order, 1 when something needs fixing.
    ///
    /// Example: git guard doctor
    Doctor,
    /// Judge an edit a coding agent is about to make, before it reaches the disk.
    ///
    /// Reads the agent's hook payload on stdin and answers in that agent's hook protocol.
    /// The commit and push hooks stay the authority: an edit made another way is still
    /// stopped there.
    ///
    /// Example: git guard agent-hook claude-code
    AgentHook {
        /// The agent whose hook protocol to speak.
        #[arg(value_enum)]
        agent: Agent,
    },
    /// Print the man page (roff) to stdout, or write one page per command into DIR.
    ///
    /// `--install` puts the pages where `man` finds them for this binary (beside it, in
    /// `../share/man/man1`), so `git guard --help` (which git turns into `man git-guard`)
    /// works; `git guard -h` always does.
    ///
    /// Example: git guard man --install
    Man {
        /// Write `git-guard.1` and `git-guard-<command>.1` into DIR instead.
        #[arg(long, value_name = "DIR", conflicts_with = "install")]
        dir: Option<std::path::PathBuf>,
        /// Write the pages beside this binary, where `man` looks (`<bin>/../share/man/man1`).
        #[arg(long)]
        install: bool,
    },
    /// Print shell completions for git-guard to stdout.
    ///
    /// Example: git guard completions bash > ~/.local/share/bash-completion/completions/git-guard
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The commands as people look for them, in `git guard --help`.
const GROUPS: [(&str, &[&str]); 5] = [
    ("Setup", &["init", "install", "uninstall", "doctor"]),
    ("Everyday", &["check", "allow", "override", "log"]),
    ("CI", &["ci"]),
    ("Agents", &["run", "ledger", "agent-hook"]),
    ("More", &["demo", "man", "completions", "help"]),
];

/// The clap command with the top-level help grouped (setup, everyday, CI, agents,
/// more); the internal `hook` entry point stays hidden. Every visible command must be in
/// a group (`tests/it/cli.rs` checks it).
pub fn command() -> clap::Command {
    let base = <Cli as clap::CommandFactory>::command();
    let width = 13;
    let mut groups = String::new();
    for (title, names) in GROUPS {
        groups.push_str(&format!("{title}:\n"));
        for name in names {
            let about = if *name == "help" {
                "Print this message or the help of the given subcommand(s)".to_string()
            } else {
                base.find_subcommand(name)
                    .and_then(|s| s.get_about())
                    .map(|a| a.to_string())
                    .unwrap_or_default()
            };
            groups.push_str(&format!("  {name:<width$}{about}\n"));
        }
        groups.push('\n');
    }
    let template = format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}Options:\n{{options}}{{after-help}}"
    );
    base.help_template(template)
}

/// The names of the commands in [`command`]'s grouped help.
pub fn grouped_names() -> Vec<&'static str> {
    GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .collect()
}
