//! What changed: the index against HEAD, or a commit against its parent, as byte paths.
//!
//! Renames are detected (as `git diff -M` does), so a file moved out of a protected
//! directory shows both its old and its new path.

use anyhow::Context;
use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Oid, Tree};

use crate::exit::hinted;
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

/// How every diff git-guard asks git for is shaped: raw records with full ids, NUL
/// separated, renames detected as `git diff -M` does, untouched by the user's colour,
/// external-diff or submodule settings.
const RAW_DIFF: [&str; 7] = [
    "-z",
    "--raw",
    "--no-abbrev",
    "-M",
    "--no-color",
    "--no-ext-diff",
    "--ignore-submodules=none",
];

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

/// Parses `git diff --raw -z --no-abbrev` output.
pub fn parse_raw(out: &[u8]) -> anyhow::Result<Vec<Change>> {
    parse_records(&mut out.split(|&b| b == 0))
}

/// The changes of every commit that `git log` lists for `revs` (for example
/// `["feature", "^main"]`), oldest first, each against its first parent; for a merge
/// only the paths whose result differs from every parent.
pub fn of_range(repo: &Repo, revs: &[String]) -> anyhow::Result<Vec<(Oid, Vec<Change>)>> {
    let mut commits = Vec::new();
    stream_range(repo, revs, &mut |id, changes| {
        commits.push((id, changes));
        Ok(())
    })?;
    commits.reverse();
    Ok(commits)
}

/// Like [`of_range`], but hands each commit to `each` as `git log` produces it, newest
/// first, so judging overlaps git's own work.
///
/// One `git log` process reads the whole range: git compares trees by skipping equal
/// subtrees, where a tree-to-tree diff per commit through libgit2 walks every entry (40x
/// slower over 1,000 commits of a 10,000-file tree; see README, Performance).
pub fn stream_range(
    repo: &Repo,
    revs: &[String],
    each: &mut dyn FnMut(Oid, Vec<Change>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use std::io::BufRead;
    use std::process::Stdio;

    let mut child = repo
        .git_command()
        .arg("log")
        .args(RAW_DIFF)
        .args(["--diff-merges=first-parent", "--format=%x01%H %P"])
        .args(revs)
        .arg("--")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            hinted(
                format!("cannot run git: {e}"),
                "install git and put it on PATH",
            )
        })?;
    let stdout = child.stdout.take().context("git log's output")?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<anyhow::Result<(Oid, usize, Vec<Change>)>>(256);
    let reader = std::thread::spawn(move || {
        let mut input = std::io::BufReader::with_capacity(1 << 16, stdout);
        let mut header: Option<Vec<u8>> = None;
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let mut token = Vec::new();
        loop {
            token.clear();
            let done = match input.read_until(0, &mut token) {
                Ok(0) => true,
                Ok(_) => false,
                Err(e) => {
                    let _ = tx.send(Err(anyhow::Error::new(e).context("reading git log")));
                    return;
                }
            };
            if token.last() == Some(&0) {
                token.pop();
            }
            let starts_commit = token.first() == Some(&1);
            if done || starts_commit {
                if let Some(h) = header.take() {
                    let parsed = commit_from(&h, &fields);
                    fields.clear();
                    if tx.send(parsed).is_err() {
                        return;
                    }
                }
                if done {
                    return;
                }
                header = Some(token[1..].to_vec());
            } else if header.is_some() {
                fields.push(token.clone());
            }
        }
    });
    let mut result = Ok(());
    for item in rx {
        let step = item.and_then(|(id, parents, changes)| {
            let changes = if parents > 1 {
                let commit = repo
                    .git
                    .find_commit(id)
                    .context("reading a merge of the range")?;
                merge_rule(&commit, changes)?
            } else {
                changes
            };
            each(id, changes)
        });
        if let Err(e) = step {
            result = Err(e);
            break;
        }
    }
    if result.is_err() {
        let _ = child.kill();
    }
    let _ = reader.join();
    let output = child.wait_with_output().context("waiting for git log")?;
    result?;
    if !output.status.success() {
        anyhow::bail!(
            "`git log {}` failed: {}",
            revs.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// One commit from its `%H %P` header and its raw-diff fields.
fn commit_from(header: &[u8], fields: &[Vec<u8>]) -> anyhow::Result<(Oid, usize, Vec<Change>)> {
    let header = std::str::from_utf8(header).unwrap_or_default();
    let mut ids = header.split_ascii_whitespace();
    let id = Oid::from_str(ids.next().unwrap_or_default())
        .context("reading a commit id from `git log`")?;
    let parents = ids.count();
    let changes = parse_records(&mut fields.iter().map(Vec::as_slice))?;
    Ok((id, parents, changes))
}

/// Parses `git log -z --raw --format=%x01%H %P` output into commits, their number of
/// parents, and their changes (the batch form of what [`stream_range`] reads).
pub fn parse_log(out: &[u8]) -> anyhow::Result<Vec<(Oid, usize, Vec<Change>)>> {
    let mut commits = Vec::new();
    let mut tokens = out.split(|&b| b == 0).peekable();
    while let Some(token) = tokens.next() {
        let Some(header) = token.strip_prefix(b"\x01") else {
            if token.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            anyhow::bail!(
                "unexpected `git log` output {:?}",
                String::from_utf8_lossy(token)
            );
        };
        let mut fields = Vec::new();
        while let Some(next) = tokens.next_if(|t| !t.starts_with(b"\x01")) {
            fields.push(next.to_vec());
        }
        commits.push(commit_from(header, &fields)?);
    }
    Ok(commits)
}

/// Raw diff records from NUL-separated fields: `:modes ids status`, then one or two paths.
fn parse_records(fields: &mut dyn Iterator<Item = &[u8]>) -> anyhow::Result<Vec<Change>> {
    let mut changes = Vec::new();
    while let Some(meta) = fields.next() {
        let meta = meta.trim_ascii_start();
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

    #[test]
    fn log_output_splits_into_commits_including_empty_ones() {
        let a = "1111111111111111111111111111111111111111";
        let b = "2222222222222222222222222222222222222222";
        let c = "3333333333333333333333333333333333333333";
        let out = format!(
            "\x01{a} {b}\0\n:100644 100644 {b} {c} M\0tests/a.py\0:000000 100644 {a} {b} A\0new.py\0\0\x01{b}\0\0\x01{c} {a} {b}\0\n:100644 100644 {b} {c} R090\0x.py\0y.py\0"
        );
        let commits = parse_log(out.as_bytes()).unwrap();
        let shape: Vec<(String, usize, usize)> = commits
            .iter()
            .map(|(id, parents, ch)| (id.to_string(), *parents, ch.len()))
            .collect();
        assert_eq!(
            shape,
            vec![
                (a.to_string(), 1, 2),
                (b.to_string(), 0, 0),
                (c.to_string(), 2, 1)
            ]
        );
        assert_eq!(commits[2].2[0].status, Status::Renamed);
        assert!(parse_log(b"garbage").is_err());
    }
}
