//! The JSONL ledger: one line per agent attempt (`git guard run`) and per hook block.
//!
//! Lines are appended with one `write` on a file opened for appending, under an
//! exclusive advisory lock, so concurrent writers never interleave; a torn last line (a
//! crash mid-write) is skipped by readers and fenced off by the next writer. `--reset` appends a marker
//! instead of deleting history; budgets count attempts after the last marker.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Instant;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::exit::{Outcome, hinted};
use crate::notes;
use crate::policy::Policy;
use crate::render;
use crate::repo::Repo;
use crate::{changes, check::Report};

/// One ledger line. Unknown fields are kept out of the way of older readers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// `attempt`, `blocked` or `reset`.
    pub kind: String,
    /// RFC 3339 UTC.
    pub ts: String,
    /// attempt: first 12 hex digits of sha256 of the argv (never the argv itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argv_sha: Option<String>,
    /// attempt: the command's exit code (`null` when a signal ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    /// attempt: the signal that ended the command, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// attempt: wall time in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// attempt: HEAD before the run (`null` before the first commit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_before: Option<String>,
    /// attempt: HEAD after the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_after: Option<String>,
    /// attempt: protected paths changed during the run; blocked: the protected paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protected_changed: Option<Vec<String>>,
    /// attempt and blocked: weakening findings (`kind path:line`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<String>>,
    /// blocked: which hook blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// blocked: whether a terminal was present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal: Option<bool>,
    /// blocked (pre-commit): HEAD when the commit was tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// blocked (pre-commit): a hash of HEAD and the staged diff; an approval of the
    /// same change counts these blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staged_diff: Option<String>,
    /// blocked (pre-push): the commits blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commits: Option<Vec<String>>,
}

/// The default ledger file: `ledger.jsonl` in the per-worktree state directory.
pub fn default_path(repo: &Repo) -> PathBuf {
    repo.state_dir().join("ledger.jsonl")
}

/// Appends one entry as one line.
pub fn append(path: &Path, entry: &Entry) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .with_context(|| format!("opening the ledger {}", path.display()))?;
    let mut line = serde_json::to_vec(entry).context("encoding a ledger line")?;
    line.push(b'\n');
    // Writers take turns (an advisory lock, released when the file closes), so the
    // torn-line check below never sees another writer's line half-written.
    file.lock()
        .with_context(|| format!("locking the ledger {}", path.display()))?;
    // A torn last line (a crash mid-write) would swallow ours: start on a fresh line.
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))
            .and_then(|_| file.read_exact(&mut last))
            .context("reading the ledger's end")?;
        if last[0] != b'\n' {
            line.insert(0, b'\n');
        }
    }
    file.write_all(&line)
        .with_context(|| format!("appending to the ledger {}", path.display()))
}

/// Every readable entry, in order; unreadable (torn) lines are skipped.
pub fn read(path: &Path) -> anyhow::Result<Vec<Entry>> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading the ledger {}", path.display())),
    };
    Ok(text
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Entry>(line).ok())
        .collect())
}

/// The entries since the last `reset` marker (the current budget period).
pub fn current(entries: &[Entry]) -> &[Entry] {
    let start = entries
        .iter()
        .rposition(|e| e.kind == "reset")
        .map_or(0, |i| i + 1);
    &entries[start..]
}

/// How many blocks of this exact staged change the ledger holds since the last reset;
/// `None` for none, so an approval's note only says so when there were some.
pub fn blocked_attempts_for_diff(repo: &Repo, fingerprint: &str) -> Option<u32> {
    count_blocks(repo, |e| e.staged_diff.as_deref() == Some(fingerprint))
}

/// How many pre-push blocks named this commit since the last reset (`None` for none).
pub fn blocked_attempts_for_commit(repo: &Repo, commit: &str) -> Option<u32> {
    count_blocks(repo, |e| {
        e.commits
            .as_ref()
            .is_some_and(|c| c.iter().any(|id| id == commit))
    })
}

fn count_blocks(repo: &Repo, matches: impl Fn(&Entry) -> bool) -> Option<u32> {
    let entries = read(&default_path(repo)).unwrap_or_default();
    let n = current(&entries)
        .iter()
        .filter(|e| e.kind == "blocked" && matches(e))
        .count() as u32;
    (n > 0).then_some(n)
}

/// Records a block by a hook. Failing to record must never turn a block into an error,
/// so a failure here is reported by the caller as a warning at most.
pub fn record_block(repo: &Repo, mut entry: Entry) -> anyhow::Result<()> {
    entry.kind = "blocked".into();
    entry.ts = notes::now();
    append(&default_path(repo), &entry)
}

/// First 12 hex digits of sha256 over the argv, each argument NUL-terminated.
pub fn argv_sha(argv: &[String]) -> String {
    let mut hasher = Sha256::new();
    for arg in argv {
        hasher.update(arg.as_bytes());
        hasher.update([0]);
    }
    let digest = hasher.finalize();
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// `git guard run [--max-attempts N] [--ledger PATH] -- CMD…`.
pub fn run(
    repo: &Repo,
    max_attempts: Option<u32>,
    ledger: Option<PathBuf>,
    argv: &[String],
    err: &mut dyn Write,
) -> anyhow::Result<i32> {
    let (config, _) = repo.policy()?;
    let path = ledger.unwrap_or_else(|| default_path(repo));
    let budget = max_attempts.unwrap_or(config.ledger.max_attempts);
    let entries = read(&path)?;
    let used = current(&entries)
        .iter()
        .filter(|e| e.kind == "attempt")
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
        kind: "attempt".into(),
        ts: notes::now(),
        argv_sha: Some(argv_sha(argv)),
        exit,
        signal,
        seconds: Some(seconds),
        head_before,
        head_after,
        protected_changed: Some(protected_changed),
        findings: Some(findings),
        ..Entry::default()
    };
    append(&path, &entry)?;
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
    let (config, _) = repo.policy()?;
    let policy = Policy::new(&config.protect.paths)?;
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
            let report =
                Report::evaluate(&changes::of_commit(repo, &commit)?, &config, &policy, repo);
            collect(&report, &mut protected, &mut findings);
        }
    }
    let staged = Report::evaluate(&changes::staged(repo)?, &config, &policy, repo);
    for (path, status) in dirty_paths(repo)? {
        let unchanged = dirty_before.binary_search(&(path.clone(), status)).is_ok();
        if !unchanged && policy.is_protected(&path) {
            protected.insert(render::path(&path));
        }
    }
    for f in staged.findings.iter() {
        let label = f.label();
        let path = render::path(&f.path);
        if dirty_before.iter().all(|(p, _)| render::path(p) != path) && !findings.contains(&label) {
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
            protected.insert(render::path(&m.path));
        }
    }
    for f in &report.findings {
        let label = f.label();
        if !findings.contains(&label) {
            findings.push(label);
        }
    }
}

/// `git guard ledger [--format text|json] [--reset]`.
pub fn summary(
    repo: &Repo,
    ledger: Option<PathBuf>,
    json: bool,
    reset: bool,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let (config, _) = repo.policy()?;
    let path = ledger.unwrap_or_else(|| default_path(repo));
    if reset {
        append(
            &path,
            &Entry {
                kind: "reset".into(),
                ts: notes::now(),
                ..Entry::default()
            },
        )?;
        render::ledger_reset(out, &path.display().to_string(), config.ledger.max_attempts)?;
        return Ok(Outcome::Allowed);
    }
    let entries = read(&path)?;
    let period = current(&entries);
    let stats = render::LedgerStats::new(period, config.ledger.max_attempts, entries.len());
    if json {
        render::ledger_json(out, &stats)?;
    } else {
        render::ledger_text(out, &stats, &path.display().to_string())?;
    }
    Ok(Outcome::Allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_sha_is_12_hex_and_depends_on_argument_boundaries() {
        let a = argv_sha(&["echo".into(), "a b".into()]);
        let b = argv_sha(&["echo".into(), "a".into(), "b".into()]);
        assert_eq!(a.len(), 12);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn torn_lines_are_skipped_and_the_next_append_starts_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.jsonl");
        append(
            &path,
            &Entry {
                kind: "attempt".into(),
                ..Entry::default()
            },
        )
        .unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"kind\":\"att")
            .unwrap();
        append(
            &path,
            &Entry {
                kind: "blocked".into(),
                ..Entry::default()
            },
        )
        .unwrap();
        let kinds: Vec<String> = read(&path).unwrap().into_iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec!["attempt", "blocked"]);
    }

    #[test]
    fn the_budget_period_starts_after_the_last_reset() {
        let entry = |kind: &str| Entry {
            kind: kind.into(),
            ..Entry::default()
        };
        let all = vec![
            entry("attempt"),
            entry("reset"),
            entry("attempt"),
            entry("blocked"),
        ];
        assert_eq!(current(&all).len(), 2);
        assert_eq!(current(&all[..1]).len(), 1);
    }

    #[test]
    fn concurrent_appends_leave_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.jsonl");
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let entry = Entry {
                            kind: "attempt".into(),
                            argv_sha: Some(format!("{i:012}")),
                            ..Entry::default()
                        };
                        append(&path, &entry).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 400);
        assert_eq!(read(&path).unwrap().len(), 400);
    }
}
