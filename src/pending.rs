//! Pending approvals: a human's reason bound to the exact staged change it approves.
//!
//! `git guard allow` and the pre-commit prompt store one; post-commit turns it into a
//! note on the new commit. The key is a hash of the change's `Guard-Change` lines (HEAD's
//! and the index's object for every path that needs approval), so any other staged
//! change — another base, one more file, one byte — is not covered. The file holds the
//! note block verbatim (signature included, when there is one), so what post-commit
//! writes is exactly what was approved. Files live in the per-worktree state directory
//! and are written atomically (temp file + rename).

use std::path::PathBuf;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::changes::BlobChange;
use crate::notes::{self, Approval};
use crate::repo::Repo;

fn dir(repo: &Repo) -> PathBuf {
    repo.state_dir().join("pending")
}

/// The key of a staged change: sha256 over its sorted `Guard-Change` lines.
pub fn key(changes: &[BlobChange]) -> String {
    let mut lines: Vec<String> = changes.iter().map(notes::format_change).collect();
    lines.sort();
    let mut hasher = Sha256::new();
    for line in lines {
        hasher.update(line.as_bytes());
        hasher.update(b"\n");
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn file(repo: &Repo, key: &str) -> PathBuf {
    dir(repo).join(format!("{key}.note"))
}

/// Stores the note block `text` for the staged change `changes`, replacing an earlier
/// one for exactly that change.
pub fn save(repo: &Repo, changes: &[BlobChange], text: &str) -> anyhow::Result<()> {
    let dir = dir(repo);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = file(repo, &key(changes));
    crate::atomic::write(&path, text.as_bytes(), 0o644)
        .with_context(|| format!("saving {}", path.display()))?;
    Ok(())
}

/// The note block pending for exactly `changes`, if any, with its approval.
pub fn load(repo: &Repo, changes: &[BlobChange]) -> anyhow::Result<Option<(String, Approval)>> {
    let path = file(repo, &key(changes));
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8(bytes)
            .with_context(|| format!("reading the pending approval {}", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    Ok(notes::parse(&text).into_iter().next().map(|a| (text, a)))
}

/// Every pending note block (post-commit looks for the one its commit carries out).
pub fn all(repo: &Repo) -> anyhow::Result<Vec<(PathBuf, String, Approval)>> {
    let entries = match std::fs::read_dir(dir(repo)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).context("reading the pending approvals"),
    };
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.context("reading the pending approvals")?.path();
        if path.extension().is_none_or(|e| e != "note") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some(approval) = notes::parse(&text).into_iter().next() {
            found.push((path, text, approval));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// Forgets a pending approval once it has become a note. The directory goes with the
/// last one, so the post-commit hook script can see "nothing pending" by itself.
pub fn remove(repo: &Repo, path: &std::path::Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("removing {}", path.display()));
        }
        _ => {}
    }
    let _ = std::fs::remove_dir(dir(repo)); // fails harmlessly while others remain
    Ok(())
}

/// Whether any approval is pending at all (the post-commit fast path).
pub fn any(repo: &Repo) -> bool {
    std::fs::read_dir(dir(repo))
        .map(|mut entries| entries.next().is_some())
        .unwrap_or(false)
}
