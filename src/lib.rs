//! git-guard: git hooks that stop silent test weakening.
//!
//! The binary parses arguments and calls [`run`]; everything else is here so that tests
//! and later tools can call the engine in-process. Modules sit in layers and import only
//! from layers below (README, "Architecture"; `tests/it/layers.rs` keeps it so):
//! leaves → inputs (config, repo, policy, changes) → judgement (analysis, notes,
//! verdict) → words (`ui`, `render`, `prompt`) → commands (`cmd`) → this dispatcher.

pub mod agent;
pub mod atomic;
pub mod changes;
pub mod cli;
pub mod cmd;
pub mod config;
pub mod exit;
pub mod finding;
pub mod hook_script;
pub mod judge;
pub mod ledger;
pub mod managers;
pub mod note_store;
pub mod notes;
pub mod paths;
pub mod pending;
pub mod policy;
pub mod prompt;
pub mod render;
pub mod repo;
pub mod report;
pub mod reports;
pub mod runner;
pub mod scan;
pub mod settings;
pub mod signature;
pub mod ui;
pub mod verdict;
pub mod weakening;

use std::io::Write;

use cli::{Agent, Cli, Command, HookName};
use cmd::{
    agent_hook, allow, check, ci, demo, doctor, hook, init, install, ledger as ledger_cmd, log,
    man, run as attempt,
};
use exit::Outcome;
use repo::Repo;
use ui::Ui;

/// The personal settings and flags of this command line, resolved.
pub fn settings(cli: &Cli) -> anyhow::Result<settings::Settings> {
    settings::resolve(settings::Flags {
        color: cli.color,
        quiet: cli.quiet,
        verbose: cli.verbose,
    })
}

/// Runs one command, writing its output to `out` and diagnostics to `err`.
pub fn run(cli: Cli, ui: &Ui, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    // `-q`: a text report is not wanted, only its exit code. What the user asked for by
    // name (JSON, completions, a man page, annotations) is still written.
    let mut sink = std::io::sink();
    let out: &mut dyn Write = if ui.quiet() && report_is_optional(&cli.command) {
        &mut sink
    } else {
        out
    };
    let clap_command = || <Cli as clap::CommandFactory>::command();
    match cli.command {
        Command::Hook { name, args } => run_hook(name, &args, ui, err),
        Command::Init { force } => init::run(&Repo::open()?, force, out),
        Command::Install => install::install(&Repo::open()?, out),
        Command::Uninstall => install::uninstall(&Repo::open()?, out),
        Command::Check {
            staged: _,
            commit,
            range,
            results,
            baseline,
            format,
        } => check::run(
            &Repo::open()?,
            ui,
            check::Target { commit, range },
            (results.as_deref(), baseline.as_deref()),
            format,
            out,
        ),
        Command::Allow { reason } => allow::run(&Repo::open()?, ui, &reason, out),
        Command::Log { range } => log::run(&Repo::open()?, range.as_deref(), out),
        Command::Ci {
            base,
            head,
            labels,
            no_fetch,
            results,
            baseline,
            format,
        } => ci::run(
            ci::CiArgs {
                base,
                head,
                labels,
                no_fetch,
                results,
                baseline,
                format,
            },
            ui,
            out,
            err,
        ),
        Command::Run {
            max_attempts,
            ledger,
            command,
        } => {
            let code = attempt::run(&Repo::open()?, max_attempts, ledger, &command, err)?;
            Ok(Outcome::Passthrough(code.clamp(0, 255) as u8))
        }
        Command::Ledger {
            format,
            reset,
            ledger,
        } => ledger_cmd::run(
            &Repo::open()?,
            ledger,
            format == cli::Format::Json,
            reset,
            out,
        ),
        Command::Demo { keep } => demo::run(keep, ui, out),
        Command::Doctor => doctor::run(&Repo::open()?, ui, out),
        Command::AgentHook {
            agent: Agent::ClaudeCode,
        } => agent_hook::claude_code(out),
        Command::Man { dir, install } => {
            let dir = match (dir, install) {
                (_, true) => Some(man::beside_binary()?),
                (dir, false) => dir,
            };
            man::run(clap_command(), dir.as_deref(), out)
        }
        Command::Completions { shell } => man::completions(clap_command(), shell, out),
        Command::Override { rev, tests, reason } if !tests.is_empty() => {
            cmd::r#override::tests(&Repo::open()?, ui, &rev, &tests, reason.as_deref(), out)
        }
        Command::Override { rev, reason, .. } => {
            cmd::r#override::run(&Repo::open()?, ui, &rev, reason.as_deref(), out)
        }
    }
}

/// `git guard hook <name>`: the entry points the installed hooks call.
fn run_hook(
    name: HookName,
    args: &[String],
    ui: &Ui,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let started = std::time::Instant::now();
    let repo = Repo::open()?;
    let outcome = match name {
        HookName::PreCommit => hook::pre_commit(&repo, ui, err),
        HookName::PostCommit => hook::post_commit(&repo, ui, err),
        HookName::PrePush => hook::pre_push(&repo, ui, args, err),
        HookName::PreCommitFramework => hook::framework(&repo, ui, err),
    }?;
    let what = clap::ValueEnum::to_possible_value(&name).map(|v| v.get_name().to_string());
    render::verbose_elapsed(ui, err, &what.unwrap_or_default(), started.elapsed())?;
    Ok(outcome)
}

/// Whether `-q` may drop this command's standard output.
fn report_is_optional(command: &Command) -> bool {
    match command {
        Command::Check { format, .. } | Command::Ledger { format, .. } => {
            *format == cli::Format::Text
        }
        Command::Ci { format, .. } => *format == cli::CiFormat::Text,
        Command::Completions { .. }
        | Command::Log { .. }
        | Command::Man { .. }
        | Command::AgentHook { .. }
        | Command::Doctor => false,
        _ => true,
    }
}
