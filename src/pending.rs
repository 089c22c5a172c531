//! Pending approvals: a human's reason bound to the exact index tree it approves.
//!
//! `git guard allow` and the pre-commit prompt store one; post-commit turns it into a
//! note on the new commit. Keyed by tree id, so any other staged change — even one
//! byte — is not covered. Files live in the per-worktree state directory and are
//! written atomically (temp file + rename).

use std::path::PathBuf;

use anyhow::Context;
use git2::Oid;

use crate::notes::Approval;
use crate::repo::Repo;

fn dir(repo: &Repo) -> PathBuf {
    repo.state_dir().join("pending")
}

fn file(repo: &Repo, tree: Oid) -> PathBuf {
    dir(repo).join(format!("{tree}.json"))
}

/// Stores `approval` for the staged tree `tree`, replacing an earlier one for it.
pub fn save(repo: &Repo, tree: Oid, approval: &Approval) -> anyhow::Result<()> {
    let dir = dir(repo);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut bytes = serde_json::to_vec(approval).context("encoding the pending approval")?;
    bytes.push(b'\n');
    let path = file(repo, tree);
    crate::atomic::write(&path, &bytes, 0o644)
        .with_context(|| format!("saving {}", path.display()))?;
    Ok(())
}

/// The approval pending for `tree`, if any.
pub fn load(repo: &Repo, tree: Oid) -> anyhow::Result<Option<Approval>> {
    let path = file(repo, tree);
    match std::fs::read(&path) {
        Ok(bytes) => {
            let approval = serde_json::from_slice(&bytes)
                .with_context(|| format!("reading the pending approval {}", path.display()))?;
            Ok(Some(approval))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Forgets the approval for `tree` once it has become a note. The directory goes with
/// the last one, so the post-commit hook script can see "nothing pending" by itself.
pub fn remove(repo: &Repo, tree: Oid) -> anyhow::Result<()> {
    let path = file(repo, tree);
    match std::fs::remove_file(&path) {
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
