//! `git guard run [--max-attempts N] [--ledger PATH] -- CMD…`: one agent attempt,
//! run with inherited stdio and recorded as one ledger line.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitStatus};
use std::time::Instant;

use anyhow::Context;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::changes;
use crate::exit::hinted;
use crate::ledger::{self, Entry, EntryKind};
use crate::notes;
use crate::paths::quote_path;
use crate::policy::Rules;
use crate::render;
use crate::repo::Repo;
use crate::report::Report;

/// Runs the command once and records it; returns its exit code.
pub fn run(
    repo: &Repo,
    max_attempts: Option<u32>,
    ledger: Option<PathBuf>,
    argv: &[String],
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let config = Rules::load(repo)?.config;
    let path = ledger.unwrap_or_else(|| ledger::default_path(repo));
    let budget = max_attempts.unwrap_or(config.ledger.max_attempts);
    let entries = ledger::read(&path)?;
    let used = ledger::current(&entries)
        .iter()
        .filter(|e| e.kind == EntryKind::Attempt)
        .count() as u32;
    if used >= budget {
        return Err(hinted(
            format!(
                "the attempt budget is spent: {used} of {budget} attempts in {}",
                path.display()
            ),
            "a human reviews the attempts (`git guard ledger`) and starts a new budget with \
             `git guard ledger --reset`",
        ));
    }
    let Some((program, args)) = argv.split_first() else {
        return Err(hinted(
            "no command to run",
            "git guard run -- <command> [args…]",
        ));
    };
    let head_before = head_id(repo);
    let dirty_before = dirty_paths(repo)?;
    // Handlers first: a Ctrl-C that arrives just after the command starts must not kill
    // us before the line is written.
    let signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).context("installing signal handlers")?;
    let started = Instant::now();
    let mut child = Command::new(program).args(args).spawn().map_err(|e| {
        hinted(
            format!("cannot run `{program}`: {e}"),
            "check the command and PATH",
        )
    })?;
    let status = wait_forwarding_signals(&mut child, signals)?;
    let seconds = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;

    let repo = Repo::open_at(repo.git.path())?; // see what the command did
    let head_after = head_id(&repo);
    let (protected_changed, findings) =
        changed_during(&repo, &head_before, &head_after, &dirty_before)?;
    let (exit, signal) = exit_and_signal(status);
    let entry = Entry {
        kind: EntryKind::Attempt,
        ts: notes::now(),
        argv_sha: Some(ledger::argv_sha(argv)),
        exit,
        signal,
        seconds: Some(seconds),
        head_before,
        head_after,
        protected_changed: Some(protected_changed),
        findings: Some(findings),
        ..Entry::default()
    };
    ledger::append(&path, &entry)?;
    render::attempt_recorded(err, used + 1, budget, &entry)?;
    Ok(exit.unwrap_or_else(|| 128 + signal.unwrap_or(0)))
}

fn exit_and_signal(status: ExitStatus) -> (Option<i32>, Option<i32>) {
    use std::os::unix::process::ExitStatusExt;
    (status.code(), status.signal())
}

/// Waits for the child while SIGINT is ignored here (the terminal delivers Ctrl-C to
/// the child's process group itself) and SIGTERM / SIGHUP are passed on to it, so the
/// ledger line is always written.
fn wait_forwarding_signals(
    child: &mut std::process::Child,
    mut signals: Signals,
) -> anyhow::Result<ExitStatus> {
    let handle = signals.handle();
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let forwarder = std::thread::spawn(move || {
        for signal in signals.forever() {
            if signal == SIGINT {
                continue;
            }
            if let Ok(sig) = nix::sys::signal::Signal::try_from(signal) {
                let _ = nix::sys::signal::kill(pid, sig);
            }
        }
    });
    let status = child.wait().context("waiting for the command");
    handle.close();
    let _ = forwarder.join();
    status
}

fn head_id(repo: &Repo) -> Option<String> {
    repo.head_commit()
        .ok()
        .flatten()
        .map(|c| c.id().to_string())
}

/// Paths that differ from HEAD in the index or work tree, with their status, so a run
/// is only charged for what it changed.
fn dirty_paths(repo: &Repo) -> anyhow::Result<Vec<(Vec<u8>, u32)>> {
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .renames_head_to_index(true);
    let statuses = repo
        .git
        .statuses(Some(&mut opts))
        .context("reading git status")?;
    let mut out: Vec<(Vec<u8>, u32)> = statuses
        .iter()
        .map(|s| (s.path_bytes().to_vec(), s.status().bits()))
        .collect();
    out.sort();
    Ok(out)
}

/// Protected paths and findings from commits made during the run, plus protected paths
/// whose status in the index or work tree changed during it.
fn changed_during(
    repo: &Repo,
    before: &Option<String>,
    after: &Option<String>,
    dirty_before: &[(Vec<u8>, u32)],
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let rules = Rules::load(repo)?;
    let mut protected = std::collections::BTreeSet::new();
    let mut findings = Vec::new();
    if before != after
        && let Some(after) = after
    {
        let mut walk = repo.git.revwalk()?;
        walk.push(git2::Oid::from_str(after)?)?;
        if let Some(before) = before {
            let _ = walk.hide(git2::Oid::from_str(before)?);
        }
        for id in walk {
            let commit = repo.git.find_commit(id?)?;
            let report = Report::evaluate(&changes::of_commit(repo, &commit)?, &rules, repo)?;
            collect(&report, &mut protected, &mut findings);
        }
    }
    let staged = Report::evaluate(&changes::staged(repo)?, &rules, repo)?;
    for (path, status) in dirty_paths(repo)? {
        let unchanged = dirty_before.binary_search(&(path.clone(), status)).is_ok();
        if !unchanged && rules.paths.is_protected(&path) {
            protected.insert(quote_path(&path));
        }
    }
    for f in staged.findings.iter() {
        let label = f.label();
        let path = quote_path(&f.path);
        if dirty_before.iter().all(|(p, _)| quote_path(p) != path) && !findings.contains(&label) {
            findings.push(label);
        }
    }
    Ok((protected.into_iter().collect(), findings))
}

fn collect(
    report: &Report,
    protected: &mut std::collections::BTreeSet<String>,
    findings: &mut Vec<String>,
) {
    for p in &report.protected {
        for m in &p.matched {
            protected.insert(quote_path(&m.path));
        }
    }
    for f in &report.findings {
        let label = f.label();
        if !findings.contains(&label) {
            findings.push(label);
        }
    }
}
