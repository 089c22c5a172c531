//! The JSONL ledger: one line per agent attempt (`git guard run`) and per hook block.
//!
//! Lines are appended with one `write` on a file opened for appending, under an
//! exclusive advisory lock, so concurrent writers never interleave; a torn last line (a
//! crash mid-write) is skipped by readers and fenced off by the next writer. `--reset` appends a marker
//! instead of deleting history; budgets count attempts after the last marker.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::notes;
use crate::repo::Repo;

/// What a ledger line records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// One `git guard run` of an agent command.
    #[default]
    Attempt,
    /// A hook blocked a commit or a push.
    Blocked,
    /// `git guard ledger --reset`: a new budget starts after this line.
    Reset,
}

/// One ledger line. Unknown fields are kept out of the way of older readers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// What the line records.
    pub kind: EntryKind,
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
        .rposition(|e| e.kind == EntryKind::Reset)
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
        .filter(|e| e.kind == EntryKind::Blocked && matches(e))
        .count() as u32;
    (n > 0).then_some(n)
}

/// Records a block by a hook. Failing to record must never turn a block into an error,
/// so a failure here is reported by the caller as a warning at most.
pub fn record_block(repo: &Repo, mut entry: Entry) -> anyhow::Result<()> {
    entry.kind = EntryKind::Blocked;
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
                kind: EntryKind::Attempt,
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
                kind: EntryKind::Blocked,
                ..Entry::default()
            },
        )
        .unwrap();
        let kinds: Vec<EntryKind> = read(&path).unwrap().into_iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec![EntryKind::Attempt, EntryKind::Blocked]);
    }

    #[test]
    fn the_budget_period_starts_after_the_last_reset() {
        let entry = |kind: EntryKind| Entry {
            kind,
            ..Entry::default()
        };
        let all = vec![
            entry(EntryKind::Attempt),
            entry(EntryKind::Reset),
            entry(EntryKind::Attempt),
            entry(EntryKind::Blocked),
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
                            kind: EntryKind::Attempt,
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
