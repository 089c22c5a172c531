//! What changed: the index against HEAD, or a commit against its parent, as byte paths.
//!
//! Renames are detected (as `git diff -M` does), so a file moved out of a protected
//! directory shows both its old and its new path.

use anyhow::Context;
use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Oid, Tree};

use crate::repo::Repo;

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

impl Change {
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

/// The staged change: the index (as `GIT_INDEX_FILE` names it) against HEAD, or
/// against the empty tree before the first commit, with renames detected.
///
/// This asks `git diff --cached` rather than libgit2: git skips unchanged directories
/// through the index's cache-tree and does not re-hash the index, which on a
/// 100,000-file repository is the difference between ~60 ms and ~250 ms (see
/// README, Performance). git also honours sparse and split indexes and the
/// temporary index of `git commit -a` / `git commit -- path` by itself.
pub fn staged(repo: &Repo) -> anyhow::Result<Vec<Change>> {
    let mut args = vec![
        "diff",
        "--cached",
        "-z",
        "--raw",
        "--no-abbrev",
        "-M",
        "--no-color",
        "--no-ext-diff",
        "--ignore-submodules=none",
    ];
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

/// Parses `git diff --raw -z --no-abbrev` output.
pub fn parse_raw(out: &[u8]) -> anyhow::Result<Vec<Change>> {
    let mut fields = out.split(|&b| b == 0);
    let mut changes = Vec::new();
    while let Some(meta) = fields.next() {
        if meta.is_empty() {
            continue;
        }
        let bad = || {
            anyhow::anyhow!(
                "unexpected `git diff --raw` record {:?}",
                String::from_utf8_lossy(meta)
            )
        };
        let meta = std::str::from_utf8(meta).map_err(|_| bad())?;
        let mut parts = meta.trim_start_matches(':').split(' ');
        let (_, _, old, new, status) = (
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
            parts.next().ok_or_else(bad)?,
        );
        let id = |hex: &str| -> anyhow::Result<Option<Oid>> {
            let oid = Oid::from_str(hex).map_err(|_| bad())?;
            Ok((!oid.is_zero()).then_some(oid))
        };
        let mut path = || {
            fields
                .next()
                .filter(|p| !p.is_empty())
                .map(<[u8]>::to_vec)
                .ok_or_else(bad)
        };
        let (status, old_path, new_path) = match status.as_bytes().first() {
            Some(b'A') => (Status::Added, None, Some(path()?)),
            Some(b'D') => (Status::Deleted, Some(path()?), None),
            Some(b'R') => {
                let from = path()?;
                (Status::Renamed, Some(from), Some(path()?))
            }
            Some(b'C') => {
                let _source = path()?;
                (Status::Added, None, Some(path()?))
            }
            Some(b'T') => {
                let p = path()?;
                (Status::TypeChanged, Some(p.clone()), Some(p))
            }
            Some(_) => {
                let p = path()?;
                (Status::Modified, Some(p.clone()), Some(p))
            }
            None => return Err(bad()),
        };
        changes.push(Change {
            old_id: if status == Status::Added {
                None
            } else {
                id(old)?
            },
            new_id: if status == Status::Deleted {
                None
            } else {
                id(new)?
            },
            status,
            old_path,
            new_path,
        });
    }
    Ok(changes)
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
pub fn patch_id(repo: &Repo, commit: &git2::Commit<'_>) -> anyhow::Result<String> {
    let tree = commit.tree().context("reading a commit's tree")?;
    let mut diff = first_parent_diff(repo, commit, &tree)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_records_of_every_kind_parse_as_bytes() {
        let z = "0000000000000000000000000000000000000000";
        let a = "1111111111111111111111111111111111111111";
        let b = "2222222222222222222222222222222222222222";
        let raw = format!(
            ":000000 100644 {z} {a} A\0tests/new file.py\0\
             :100644 000000 {a} {z} D\0gone.py\0\
             :100644 100644 {a} {b} M\0tests/x\ny.py\0\
             :100644 100644 {a} {a} R100\0tests/t.py\0checks/t.py\0\
             :120000 100644 {a} {b} T\0link\0"
        );
        let changes = parse_raw(raw.as_bytes()).unwrap();
        type Row<'a> = (Status, Option<&'a [u8]>, Option<&'a [u8]>);
        let summary: Vec<Row<'_>> = changes
            .iter()
            .map(|c| (c.status, c.old_path.as_deref(), c.new_path.as_deref()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (Status::Added, None, Some(&b"tests/new file.py"[..])),
                (Status::Deleted, Some(&b"gone.py"[..]), None),
                (
                    Status::Modified,
                    Some(&b"tests/x\ny.py"[..]),
                    Some(&b"tests/x\ny.py"[..])
                ),
                (
                    Status::Renamed,
                    Some(&b"tests/t.py"[..]),
                    Some(&b"checks/t.py"[..])
                ),
                (Status::TypeChanged, Some(&b"link"[..]), Some(&b"link"[..])),
            ]
        );
        assert_eq!(changes[0].old_id, None);
        assert_eq!(changes[1].new_id, None);
        assert_eq!(changes[3].new_id, Some(Oid::from_str(a).unwrap()));
    }

    #[test]
    fn truncated_raw_output_is_an_error_not_a_panic() {
        assert!(parse_raw(b":100644 100644 abc").is_err());
        assert!(parse_raw(b":100644 100644 1111111111111111111111111111111111111111 2222222222222222222222222222222222222222 M\0").is_err());
        assert!(parse_raw(b"").unwrap().is_empty());
    }
}
