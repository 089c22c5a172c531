//! git-guard: git hooks that stop silent test weakening.
//!
//! The binary parses arguments and calls [`run`]; everything else is here so that tests
//! and later tools can call the engine in-process.

pub mod agent;
pub mod approval;
pub mod atomic;
pub mod changes;
pub mod check;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod config;
pub mod demo;
pub mod doctor;
pub mod exit;
pub mod gate;
pub mod hook;
pub mod install;
pub mod ledger;
pub mod managers;
pub mod notes;
pub mod policy;
pub mod prompt;
pub mod render;
pub mod repo;
pub mod reports;
pub mod settings;
pub mod weakening;

use std::io::Write;

use cli::{Cli, Command};
use exit::Outcome;
use repo::Repo;

/// Runs one command, writing its output to `out` and diagnostics to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    settings::init(settings::Flags {
        color: cli.color,
        quiet: cli.quiet,
        verbose: cli.verbose,
    })?;
    // `-q`: a text report is not wanted, only its exit code. What the user asked for by
    // name (JSON, completions, a man page, annotations) is still written.
    let mut sink = std::io::sink();
    let out: &mut dyn Write = if settings::quiet() && report_is_optional(&cli.command) {
        &mut sink
    } else {
        out
    };
    match cli.command {
        Command::Hook { name, args } => hook::run(name, &args, err),
        Command::Init { force } => commands::init(&Repo::open()?, force, out),
        Command::Install => install::install(&Repo::open()?, out),
        Command::Uninstall => install::uninstall(&Repo::open()?, out),
        Command::Check {
            staged: _,
            commit,
            range,
            format,
        } => commands::check(&Repo::open()?, commit, range, format, out),
        Command::Allow { reason } => commands::allow(&Repo::open()?, &reason, out),
        Command::Log { range } => commands::log(&Repo::open()?, range.as_deref(), out),
        Command::Ci {
            base,
            head,
            labels,
            no_fetch,
            format,
        } => ci::run(
            ci::CiArgs {
                base,
                head,
                labels,
                no_fetch,
                format,
            },
            out,
            err,
        ),
        Command::Run {
            max_attempts,
            ledger,
            command,
        } => {
            let code = ledger::run(&Repo::open()?, max_attempts, ledger, &command, err)?;
            Ok(Outcome::Passthrough(code.clamp(0, 255) as u8))
        }
        Command::Ledger {
            format,
            reset,
            ledger,
        } => ledger::summary(
            &Repo::open()?,
            ledger,
            format == cli::Format::Json,
            reset,
            out,
        ),
        Command::Demo { keep } => demo::run(keep, out),
        Command::Doctor => doctor::run(&Repo::open()?, out),
        Command::AgentHook { agent } => agent::run(agent, out),
        Command::Man { dir } => commands::man(dir.as_deref(), out),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command().bin_name("git-guard");
            clap_complete::generate(shell, &mut command, "git-guard", out);
            Ok(Outcome::Allowed)
        }
        Command::Override { rev, reason } => {
            commands::override_commit(&Repo::open()?, &rev, reason.as_deref(), out)
        }
    }
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
