//! What changed: the index against HEAD, or a commit against its parent, as byte paths.
//!
//! Renames are detected (as `git diff -M` does), so a file moved out of a protected
//! directory shows both its old and its new path.

use anyhow::Context;
use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Oid, Tree};

use crate::repo::Repo;

mod raw;

use raw::RAW_DIFF;
pub use raw::{of_range, parse_log, parse_raw, stream_range};

/// How a path changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// A new file.
    Added,
    /// A file removed.
    Deleted,
    /// Content or mode changed in place.
    Modified,
    /// Moved, perhaps with edits.
    Renamed,
    /// A file turned into a symlink or submodule, or back.
    TypeChanged,
}

impl serde::Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl Status {
    /// The one-letter code `git diff --name-status` uses.
    pub fn letter(self) -> char {
        match self {
            Status::Added => 'A',
            Status::Deleted => 'D',
            Status::Modified => 'M',
            Status::Renamed => 'R',
            Status::TypeChanged => 'T',
        }
    }

    /// A lower-case word for reports.
    pub fn word(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Deleted => "deleted",
            Status::Modified => "modified",
            Status::Renamed => "renamed",
            Status::TypeChanged => "type-changed",
        }
    }
}

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// How it changed.
    pub status: Status,
    /// The path before (absent for an added file).
    pub old_path: Option<Vec<u8>>,
    /// The path after (absent for a deleted file).
    pub new_path: Option<Vec<u8>>,
    /// The blob before, when there was one.
    pub old_id: Option<Oid>,
    /// The blob after, when there is one.
    pub new_id: Option<Oid>,
}

/// One side-by-side content change of one path: the exact blob (or, for a submodule,
/// commit) before and after. An approval names these, so it covers exactly this content
/// and nothing else (`Guard-Change`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlobChange {
    /// The object before; `None` where the path did not exist.
    pub old: Option<Oid>,
    /// The object after; `None` where the path no longer exists.
    pub new: Option<Oid>,
    /// The path (bytes).
    pub path: Vec<u8>,
}

impl Change {
    /// The exact content changes of this file, per path: one for an edit in place; a
    /// rename is its old path going away plus its new path appearing.
    pub fn blob_changes(&self) -> Vec<BlobChange> {
        match (&self.old_path, &self.new_path) {
            (Some(old), Some(new)) if old != new => vec![
                BlobChange {
                    old: self.old_id,
                    new: None,
                    path: old.clone(),
                },
                BlobChange {
                    old: None,
                    new: self.new_id,
                    path: new.clone(),
                },
            ],
            _ => vec![BlobChange {
                old: self.old_id,
                new: self.new_id,
                path: self.path().to_vec(),
            }],
        }
    }

    /// The path a reader knows the file by: the new one, else the old one.
    pub fn path(&self) -> &[u8] {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or_default()
    }

    /// Old and new path, without repeating an unchanged one.
    pub fn paths(&self) -> impl Iterator<Item = &[u8]> {
        let old = self.old_path.as_deref();
        let new = self.new_path.as_deref().filter(|n| Some(*n) != old);
        old.into_iter().chain(new)
    }
}

/// Where the analyser reads file contents from (the object database, in practice).
pub trait Blobs {
    /// The bytes of blob `id`, if it can be read.
    fn blob(&self, id: Oid) -> Option<Vec<u8>>;
}

/// A source with no contents: only path findings are produced.
pub struct NoBlobs;

impl Blobs for NoBlobs {
    fn blob(&self, _: Oid) -> Option<Vec<u8>> {
        None
    }
}

impl Blobs for Repo {
    fn blob(&self, id: Oid) -> Option<Vec<u8>> {
        self.git.find_blob(id).ok().map(|b| b.content().to_vec())
    }
}

/// Index files up to this size (about 1,300 files) are compared in-process; measured
/// crossover on 2 cores: ~2,000 files (README, Performance).
pub const IN_PROCESS_INDEX_BYTES: u64 = 128 * 1024;

/// The staged change: the index (as `GIT_INDEX_FILE` names it) against HEAD, or
/// against the empty tree before the first commit, with renames detected.
///
/// A small index (up to [`IN_PROCESS_INDEX_BYTES`]) is compared by libgit2 in-process:
/// there, starting `git diff` costs more than the whole comparison (1,000 files: 5.6 ms
/// for the hook against 7.4 ms).
/// A larger one goes to `git diff --cached`, which skips unchanged directories through
/// the index's cache-tree where libgit2 walks every entry (on 100,000 files ~60 ms
/// against ~250 ms; README, Performance). An index libgit2 cannot read (a split or
/// sparse index) also goes to git.
pub fn staged(repo: &Repo) -> anyhow::Result<Vec<Change>> {
    if index_is_small(repo)
        && let Ok(changes) = staged_in_process(repo)
    {
        return Ok(changes);
    }
    staged_via_git(repo)
}

fn index_is_small(repo: &Repo) -> bool {
    let path = match std::env::var_os("GIT_INDEX_FILE") {
        Some(path) => std::path::PathBuf::from(path),
        None => repo.git.path().join("index"),
    };
    // No index yet (a fresh repository) is small too.
    std::fs::metadata(path).map_or(true, |m| m.len() <= IN_PROCESS_INDEX_BYTES)
}

/// [`staged`] through libgit2, whatever the index size.
pub fn staged_in_process(repo: &Repo) -> anyhow::Result<Vec<Change>> {
    let index = repo.git.index().context("reading the index")?;
    let head = repo.head_commit()?;
    let tree = head.as_ref().map(|c| c.tree()).transpose()?;
    let mut diff = repo
        .git
        .diff_tree_to_index(tree.as_ref(), Some(&index), Some(&mut options()))
        .context("comparing the index with HEAD")?;
    collect(&mut diff)
}

/// [`staged`] through `git diff --cached`, whatever the index size.
pub fn staged_via_git(repo: &Repo) -> anyhow::Result<Vec<Change>> {
    let mut args = vec!["diff", "--cached"];
    args.extend(RAW_DIFF);
    let empty_tree;
    if repo.head_commit()?.is_none() {
        empty_tree = repo.empty_tree()?.to_string();
        args.push(&empty_tree);
    }
    let out = repo
        .run_git(&args)
        .context("comparing the index with HEAD")?;
    parse_raw(&out)
}

/// A short hash naming HEAD plus this exact change (statuses, paths, blob ids): what the
/// ledger calls "the staged diff", cheap to compute on every blocked commit.
pub fn fingerprint(head: Option<Oid>, changes: &[Change]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(head.map(|h| h.to_string()).unwrap_or_default());
    for c in changes {
        hasher.update([c.status.letter() as u8, 0]);
        for path in [&c.old_path, &c.new_path] {
            hasher.update(path.as_deref().unwrap_or_default());
            hasher.update([0]);
        }
        for id in [c.old_id, c.new_id] {
            hasher.update(id.map(|i| i.to_string()).unwrap_or_default());
            hasher.update([0]);
        }
    }
    hasher
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The change a commit made: against its first parent (the empty tree for a root).
///
/// For a merge, only paths whose result differs from *every* parent count: merging
/// main into a branch does not re-flag main's own (already approved) changes, while a
/// conflict resolution that edits a test does.
pub fn of_commit(repo: &Repo, commit: &git2::Commit<'_>) -> anyhow::Result<Vec<Change>> {
    let tree = commit.tree().context("reading a commit's tree")?;
    let mut diff = first_parent_diff(repo, commit, &tree)?;
    let changes = collect(&mut diff)?;
    if commit.parent_count() < 2 {
        return Ok(changes);
    }
    merge_rule(commit, changes)
}

/// Keeps the changes of a merge whose result differs from every parent.
fn merge_rule(commit: &git2::Commit<'_>, changes: Vec<Change>) -> anyhow::Result<Vec<Change>> {
    let tree = commit.tree().context("reading a merge's tree")?;
    let others = (1..commit.parent_count())
        .map(|i| commit.parent(i).and_then(|p| p.tree()))
        .collect::<Result<Vec<_>, _>>()
        .context("reading a merge's parents")?;
    Ok(changes
        .into_iter()
        .filter(|change| {
            change.paths().any(|path| {
                let result = entry_id(&tree, path);
                others.iter().all(|parent| entry_id(parent, path) != result)
            })
        })
        .collect())
}

/// `git patch-id --stable` of a commit's change against its first parent: the same for
/// the same change wherever it is replayed (rebase, cherry-pick).
///
/// `changes` (the commit's changed paths, when known) limit the diff to those paths, so
/// libgit2 need not walk the whole tree; the patch, and so its id, is the same.
pub fn patch_id(
    repo: &Repo,
    commit: &git2::Commit<'_>,
    changes: &[Change],
) -> anyhow::Result<String> {
    let tree = commit.tree().context("reading a commit's tree")?;
    let parent_tree: Option<Tree<'_>> = match commit.parent(0) {
        Ok(parent) => Some(parent.tree().context("reading a parent's tree")?),
        Err(_) => None,
    };
    let mut opts = options();
    for change in changes {
        for path in change.paths() {
            opts.pathspec(std::ffi::CString::new(path).unwrap_or_default());
        }
    }
    if !changes.is_empty() {
        opts.disable_pathspec_match(true);
    }
    let mut diff = repo
        .git
        .diff_tree_to_tree(parent_tree.as_ref(), Some(&tree), Some(&mut opts))
        .context("comparing a commit with its parent")?;
    diff.find_similar(Some(DiffFindOptions::new().renames(true)))
        .context("detecting renames")?;
    Ok(diff
        .patchid(None)
        .context("computing a patch id")?
        .to_string())
}

fn first_parent_diff<'r>(
    repo: &'r Repo,
    commit: &git2::Commit<'_>,
    tree: &Tree<'_>,
) -> anyhow::Result<Diff<'r>> {
    let parent_tree: Option<Tree<'_>> = match commit.parent(0) {
        Ok(parent) => Some(parent.tree().context("reading a parent's tree")?),
        Err(_) => None,
    };
    repo.git
        .diff_tree_to_tree(parent_tree.as_ref(), Some(tree), Some(&mut options()))
        .context("comparing a commit with its parent")
}

/// The object at `path` in `tree`, if any.
fn entry_id(tree: &Tree<'_>, path: &[u8]) -> Option<Oid> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
    tree.get_path(path).ok().map(|entry| entry.id())
}

fn options() -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.include_typechange(true);
    opts
}

/// Detects renames the way `git diff -M` does by default, then lists the deltas.
fn collect(diff: &mut Diff<'_>) -> anyhow::Result<Vec<Change>> {
    diff.find_similar(Some(DiffFindOptions::new().renames(true)))
        .context("detecting renames")?;
    let mut changes = Vec::with_capacity(diff.deltas().len());
    for delta in diff.deltas() {
        let status = match delta.status() {
            Delta::Added | Delta::Copied => Status::Added,
            Delta::Deleted => Status::Deleted,
            Delta::Renamed => Status::Renamed,
            Delta::Typechange => Status::TypeChanged,
            _ => Status::Modified,
        };
        let old = delta.old_file();
        let new = delta.new_file();
        let (old_path, new_path) = match status {
            Status::Added => (None, new.path_bytes()),
            Status::Deleted => (old.path_bytes(), None),
            _ => (old.path_bytes(), new.path_bytes()),
        };
        let id = |oid: Oid| (!oid.is_zero()).then_some(oid);
        changes.push(Change {
            status,
            old_path: old_path.map(<[u8]>::to_vec),
            new_path: new_path.map(<[u8]>::to_vec),
            old_id: if status == Status::Added {
                None
            } else {
                id(old.id())
            },
            new_id: if status == Status::Deleted {
                None
            } else {
                id(new.id())
            },
        });
    }
    Ok(changes)
}
