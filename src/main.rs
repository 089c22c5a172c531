//! The `git-guard` binary: parse, run, map the outcome to exit 0/1/2.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use git_guard::cli::Cli;
use git_guard::exit::CANNOT_RUN;
use git_guard::ui::Ui;

fn main() -> ExitCode {
    // A bug must still fail closed with the usual two lines, never a Rust panic dump.
    std::panic::set_hook(Box::new(|info| {
        let mut err = io::stderr().lock();
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        let _ = writeln!(
            err,
            "error: internal error in git-guard: {message}{location}"
        );
        let _ = writeln!(
            err,
            "hint: nothing was changed and the operation was blocked; please report this with the command you ran"
        );
        std::process::exit(i32::from(CANNOT_RUN));
    }));
    let parsed = git_guard::cli::command()
        .try_get_matches()
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap ends with its own "For more information, try '--help'."; one hint
            // is enough, and ours names `-h`, which works even without the man page.
            let rendered = e.render().to_string();
            let kept: Vec<&str> = rendered
                .lines()
                .filter(|line| !line.starts_with("For more information, try"))
                .collect();
            let mut err = io::stderr().lock();
            let _ = write!(err, "{}", kept.join("\n").trim_end());
            let _ = writeln!(
                err,
                "\nhint: see `git guard -h` for the commands and their options"
            );
            return ExitCode::from(CANNOT_RUN);
        }
    };
    let mut out = io::stdout().lock();
    // Line-buffered: one write per line rather than per fragment (stderr is unbuffered).
    let mut err = io::LineWriter::new(io::stderr().lock());
    // A broken personal settings file is reported like any error, in default colours.
    let settings = git_guard::settings(&cli);
    let ui = Ui::new(settings.as_ref().copied().unwrap_or_default());
    let result = settings.and_then(|_| git_guard::run(cli, &ui, &mut out, &mut err));
    let _ = err.flush();
    match result {
        Ok(outcome) => ExitCode::from(outcome.code()),
        // The reader went away (`git guard log | head`): nothing is wrong.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            ui.print_error(&mut err, &e);
            ExitCode::from(CANNOT_RUN)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
