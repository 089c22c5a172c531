//! What changed: the index against HEAD, or a commit against its parent, as byte paths.
//!
//! Renames are detected (as `git diff -M` does), so a file moved out of a protected
//! directory shows both its old and its new path. A merge is compared with git's own
//! automatic merge of its parents (`git merge-tree --write-tree`, git 2.38 or later).

use anyhow::Context;
use git2::{Delta, Diff, DiffFindOptions, DiffOptions, Oid, Tree};

use crate::repo::Repo;

mod raw;

use raw::RAW_DIFF;
pub use raw::{of_range, parse_log, parse_raw, stream_range};

/// How a path changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// A new file.
    Added,
    /// A file removed.
    Deleted,
    /// Content or mode changed in place.
    #[default]
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

impl Change {
    /// The first parent's own change of this path since the merge base, for a merge's
    /// change against the second parent's side of a conflict ([`Change::first_parents_own`]).
    pub fn first_parents_own_change(&self) -> Option<Change> {
        let (base, first) = self.first_parents_own?;
        let path = self.path().to_vec();
        Some(Change {
            status: if base.is_some() {
                Status::Modified
            } else {
                Status::Added
            },
            old_path: base.map(|_| path.clone()),
            new_path: Some(path),
            old_id: base,
            new_id: Some(first),
            old_mode: if base.is_some() { self.old_mode } else { 0 },
            new_mode: self.old_mode,
            first_parents_own: None,
        })
    }
}

/// The mode git gives a submodule entry (a gitlink): its id names a commit, not a blob.
pub const GITLINK_MODE: u32 = 0o160000;

/// One changed file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// The entry's mode before, as git writes it (`0o100644`, [`GITLINK_MODE`]); 0 when
    /// absent or unknown.
    pub old_mode: u32,
    /// The entry's mode after; 0 when absent or unknown.
    pub new_mode: u32,
    /// For a merge judged against the second parent's side of a conflict: the first
    /// parent's own change of the path since the merge base (the base's blob, if any,
    /// and the first parent's). What that change does was judged in the first parent's
    /// own commits, so the same finding against the second parent's side is not the
    /// merge's (a branch that deleted a test main later edited keeps it deleted).
    pub first_parents_own: Option<(Option<Oid>, Oid)>,
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

    /// Whether the old side is a submodule (its id is the submodule's commit).
    pub fn old_is_gitlink(&self) -> bool {
        self.old_mode == GITLINK_MODE
    }

    /// Whether the new side is a submodule (its id is the submodule's commit).
    pub fn new_is_gitlink(&self) -> bool {
        self.new_mode == GITLINK_MODE
    }

    /// Whether either side is a submodule.
    pub fn is_gitlink(&self) -> bool {
        self.old_is_gitlink() || self.new_is_gitlink()
    }

    /// Each blob this change names, with the path it is read for (submodule commits,
    /// which are not in this repository, left out).
    pub fn blobs(&self) -> impl Iterator<Item = (Oid, &[u8])> {
        let old = self
            .old_id
            .filter(|_| !self.old_is_gitlink())
            .map(|id| (id, self.old_path.as_deref().unwrap_or_default()));
        let new = self
            .new_id
            .filter(|_| !self.new_is_gitlink())
            .map(|id| (id, self.new_path.as_deref().unwrap_or_default()));
        old.into_iter().chain(new)
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

    /// The size of blob `id` in bytes, if it can be read (cheaper than its content where
    /// the source allows).
    fn size(&self, id: Oid) -> Option<usize> {
        self.blob(id).map(|b| b.len())
    }

    /// Makes sure each blob of `wanted` (an id and the path it is read for) can be read,
    /// so that a verdict never rests on content that was silently skipped: an error
    /// names the first path and object that cannot be read.
    fn ensure_readable(&self, wanted: &[(Oid, &[u8])]) -> anyhow::Result<()> {
        match wanted.iter().find(|(id, _)| self.blob(*id).is_none()) {
            Some((id, path)) => Err(unreadable(*id, path)),
            None => Ok(()),
        }
    }
}

/// The error for a blob that cannot be read: exit 2, naming the path and the object.
pub fn unreadable(id: Oid, path: &[u8]) -> anyhow::Error {
    crate::exit::hinted(
        format!(
            "cannot read {} (object {id}): it is missing from the repository, so the change \
             cannot be judged",
            crate::paths::quote_path(path)
        ),
        "the object database is incomplete: `git fsck` names what is missing; in a partial \
         clone, make sure its promisor remote can be reached (`git fetch`). git-guard blocks \
         rather than pass what it cannot read",
    )
}

/// A source with no contents on purpose: only path findings are produced, and nothing
/// is reported unreadable.
pub struct NoBlobs;

impl Blobs for NoBlobs {
    fn blob(&self, _: Oid) -> Option<Vec<u8>> {
        None
    }

    fn ensure_readable(&self, _: &[(Oid, &[u8])]) -> anyhow::Result<()> {
        Ok(())
    }
}

impl Blobs for Repo {
    fn blob(&self, id: Oid) -> Option<Vec<u8>> {
        self.git.find_blob(id).ok().map(|b| b.content().to_vec())
    }

    fn size(&self, id: Oid) -> Option<usize> {
        let odb = self.git.odb().ok()?;
        odb.read_header(id).ok().map(|(size, _)| size)
    }

    /// Checks that each object exists (an index lookup: no content is inflated, no delta
    /// resolved, so a long range pays almost nothing); what is missing is
    /// asked of `git cat-file --batch`, which in a partial clone fetches it from the
    /// promisor remote (libgit2 cannot), before it is called unreadable.
    fn ensure_readable(&self, wanted: &[(Oid, &[u8])]) -> anyhow::Result<()> {
        let odb = self.git.odb().context("opening the object database")?;
        let missing: Vec<(Oid, &[u8])> = wanted
            .iter()
            .filter(|(id, _)| !odb.exists(*id))
            .copied()
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let ids: Vec<Oid> = missing.iter().map(|(id, _)| *id).collect();
        // A failure to run git leaves the objects missing, which is reported below.
        let _ = self.cat_file_batch(&ids);
        let _ = odb.refresh();
        match missing.iter().find(|(id, _)| !odb.exists(*id)) {
            Some((id, path)) => Err(unreadable(*id, path)),
            None => Ok(()),
        }
    }
}

/// Index files up to this size (about 1,300 files) are compared in-process; measured
/// crossover on 2 cores: ~2,000 files (docs/reference.md, Performance).
pub const IN_PROCESS_INDEX_BYTES: u64 = 128 * 1024;

/// The staged change: the index (as `GIT_INDEX_FILE` names it) against HEAD, or
/// against the empty tree before the first commit, with renames detected.
///
/// A small index (up to [`IN_PROCESS_INDEX_BYTES`]) is compared by libgit2 in-process:
/// there, starting `git diff` costs more than the whole comparison (1,000 files: 5.6 ms
/// for the hook against 7.4 ms).
/// A larger one goes to `git diff --cached`, which skips unchanged directories through
/// the index's cache-tree where libgit2 walks every entry (on 100,000 files ~60 ms
/// against ~250 ms; docs/reference.md, Performance). An index libgit2 cannot read (a split or
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
    collect(&mut diff, true)
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
/// A merge is judged by [`of_merge`]: against git's own automatic merge of its parents.
pub fn of_commit(repo: &Repo, commit: &git2::Commit<'_>) -> anyhow::Result<Vec<Change>> {
    repo.refuse_grafts()?;
    if commit.parent_count() >= 2 {
        return of_merge(repo, commit);
    }
    let tree = commit.tree().context("reading a commit's tree")?;
    let mut diff = first_parent_diff(repo, commit, &tree)?;
    collect(&mut diff, true)
}

/// The change a merge made: what its recorded result does differently from git's
/// automatic merge of its two parents (`git merge-tree --write-tree`), plus every path
/// where that automatic merge conflicted.
///
/// A path that differs from the automatic result is a change from the automatic result's
/// entry to the merge's. A path whose content conflicted is the merge's change against
/// each side: from git's merge with every conflicting hunk resolved to the first
/// parent's side (`-X ours`) to the merge's, and likewise from the second parent's side
/// (`-X theirs`), each where the result differs from it. So a resolution that keeps one
/// side's hunk is judged for what it drops of the other's, whichever side it took. Any
/// other conflicted path (modify/delete, a type change) is a change from the first
/// parent's entry to the merge's. So merging main into a branch does not re-flag main's
/// own (already approved) changes, while a resolution that edits a test, or a merge
/// with an old commit that brings back an old test or drops `tests/` (where no parent
/// vouches for the result, whatever the parents hold), is the merge's change. An
/// octopus merge is compared with its first parent: all it brings in counts.
///
/// Renames are not paired here: each path is judged on its own, as added or deleted.
pub fn of_merge(repo: &Repo, commit: &git2::Commit<'_>) -> anyhow::Result<Vec<Change>> {
    let tree = commit.tree().context("reading a merge's tree")?;
    if commit.parent_count() != 2 {
        let mut diff = first_parent_diff(repo, commit, &tree)?;
        return collect(&mut diff, true);
    }
    let first = commit.parent(0).context("reading a merge's first parent")?;
    let second = commit.parent_id(1).context("reading a merge's parents")?;
    let (auto, conflicted) = automatic_merge(repo, first.id(), second, None)?;
    let auto = repo
        .git
        .find_tree(auto)
        .context("reading git's automatic merge")?;
    let mut diff = repo
        .git
        .diff_tree_to_tree(Some(&auto), Some(&tree), Some(&mut options()))
        .context("comparing a merge with git's automatic merge")?;
    let mut changes = collect(&mut diff, false)?;
    if conflicted.is_empty() {
        return Ok(changes);
    }
    changes.retain(|c| !c.paths().any(|p| conflicted.contains_key(p)));
    // Each side's resolution is git's merge again with `-X ours` or `-X theirs`: git
    // resolves every conflicting hunk, no markers to parse.
    let side = |favour: &str| -> anyhow::Result<Tree<'_>> {
        let (id, _) = automatic_merge(repo, first.id(), second, Some(favour))?;
        let tree = repo.git.find_tree(id);
        tree.context("reading git's merge favouring one side")
    };
    let ours = side("ours")?;
    let theirs = conflicted
        .values()
        .any(is_content_conflict)
        .then(|| side("theirs"))
        .transpose()?;
    // With more than one merge base, stage 1 is git's virtual base (itself a merge,
    // markers and all): no change of the first parent's own is read against it.
    let one_base = repo
        .git
        .merge_bases(first.id(), second)
        .map_or(true, |bases| bases.len() <= 1);
    let second = repo
        .git
        .find_commit(second)
        .and_then(|c| c.tree())
        .context("reading a merge's second parent")?;
    let first = first.tree().context("reading a merge's first parent")?;
    for (path, stages) in &conflicted {
        let new = entry(&tree, path);
        let mut baselines = Vec::with_capacity(2);
        if let (true, Some(theirs)) = (is_content_conflict(stages), &theirs) {
            let own = stages[1]
                .filter(|_| one_base)
                .map(|(id, _)| (stages[0].map(|(base, _)| base), id));
            baselines.push((entry(&ours, path), None));
            baselines.push((entry(theirs, path), own));
            baselines.dedup_by_key(|(side, _)| *side);
        } else {
            // The first parent's side where it has the path (or had it under another
            // name that the second parent renamed: then its content is in the `-X ours`
            // merge, unlike the second parent's); else the first parent's entry, or none.
            let side = entry(&ours, path)
                .filter(|&side| {
                    entry(&first, path).is_some_and(|(_, mode)| mode == side.1)
                        || entry(&second, path).is_none_or(|theirs| theirs != side)
                })
                .or_else(|| entry(&first, path));
            baselines.push((side, None));
        }
        for (old, first_parents_own) in baselines {
            let status = match (&old, &new) {
                (None, None) => continue,
                (Some(a), Some(b)) if a == b => continue, // resolved as that side has it
                (None, Some(_)) => Status::Added,
                (Some(_), None) => Status::Deleted,
                (Some((_, a)), Some((_, b))) if a & 0o170000 != b & 0o170000 => Status::TypeChanged,
                _ => Status::Modified,
            };
            changes.push(Change {
                status,
                old_path: old.map(|_| path.clone()),
                new_path: new.map(|_| path.clone()),
                old_id: old.map(|(id, _)| id),
                new_id: new.map(|(id, _)| id),
                old_mode: old.map_or(0, |(_, mode)| mode),
                new_mode: new.map_or(0, |(_, mode)| mode),
                first_parents_own,
            });
        }
    }
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(changes)
}

/// The entries git's merge left at one conflicted path: the merge base's, the first
/// parent's and the second parent's (stages 1, 2 and 3), each absent where that side
/// has no file there.
type Stages = [Option<(Oid, u32)>; 3];

/// Both parents hold a regular file at the path and their contents conflicted (not a
/// modify/delete, a symlink or a submodule): git resolves it hunk by hunk to either side.
fn is_content_conflict(stages: &Stages) -> bool {
    let regular =
        |side: &Option<(Oid, u32)>| side.is_some_and(|(_, mode)| mode & 0o170000 == 0o100000);
    regular(&stages[1]) && regular(&stages[2])
}

/// `git merge-tree --write-tree` of two commits: the tree git's automatic merge writes,
/// and the paths where it conflicted with their stages. `favour`: `ours` or `theirs`,
/// passed as `-X`, each conflicting hunk resolved to that side.
fn automatic_merge(
    repo: &Repo,
    first: Oid,
    second: Oid,
    favour: Option<&str>,
) -> anyhow::Result<(Oid, std::collections::BTreeMap<Vec<u8>, Stages>)> {
    let (a, b) = (first.to_string(), second.to_string());
    let output = repo
        .git_command()
        .args([
            "merge-tree",
            "--write-tree",
            "-z",
            "--no-messages",
            "--allow-unrelated-histories",
        ])
        .args(favour.map(|side| format!("-X{side}")))
        .args([&a, &b])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            crate::exit::hinted(
                format!("cannot run git: {e}"),
                "install git and put it on PATH",
            )
        })?;
    // 0: a clean merge; 1: conflicts; anything else: git could not merge at all.
    if !matches!(output.status.code(), Some(0 | 1)) {
        return Err(crate::exit::hinted(
            format!(
                "`git merge-tree --write-tree {} {}` failed: {}",
                short(first),
                short(second),
                String::from_utf8_lossy(&output.stderr).trim()
            ),
            "merges are judged against git's automatic merge, which needs git 2.38 or \
             later (`git --version`; `git guard doctor` checks it)",
        ));
    }
    let mut fields = output.stdout.split(|&b| b == 0);
    let tree = fields
        .next()
        .and_then(|t| std::str::from_utf8(t).ok())
        .and_then(|t| Oid::from_str(t.trim()).ok())
        .context("reading `git merge-tree` output")?;
    let mut conflicted = std::collections::BTreeMap::<Vec<u8>, Stages>::new();
    // Each conflicted entry: `<mode> <object> <stage>\t<path>`.
    for field in fields.filter(|f| !f.is_empty()) {
        let parsed = field.iter().position(|&b| b == b'\t').and_then(|tab| {
            let head = std::str::from_utf8(&field[..tab]).ok()?;
            let mut words = head.split(' ');
            let mode = u32::from_str_radix(words.next()?, 8).ok()?;
            let id = Oid::from_str(words.next()?).ok()?;
            let stage = words
                .next()?
                .parse::<usize>()
                .ok()
                .filter(|s| (1..=3).contains(s))?;
            Some((stage, (id, mode), field[tab + 1..].to_vec()))
        });
        let (stage, side, path) = parsed.context("reading `git merge-tree` output")?;
        conflicted.entry(path).or_default()[stage - 1] = Some(side);
    }
    Ok((tree, conflicted))
}

fn short(id: Oid) -> String {
    crate::repo::short_id(id)
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

/// The object at `path` in `tree` and its mode, if any.
fn entry(tree: &Tree<'_>, path: &[u8]) -> Option<(Oid, u32)> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
    tree.get_path(path)
        .ok()
        .map(|entry| (entry.id(), u32::try_from(entry.filemode()).unwrap_or(0)))
}

fn options() -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.include_typechange(true);
    opts
}

/// Detects renames the way `git diff -M` does by default (when `renames`), then lists
/// the deltas.
fn collect(diff: &mut Diff<'_>, renames: bool) -> anyhow::Result<Vec<Change>> {
    if renames {
        diff.find_similar(Some(DiffFindOptions::new().renames(true)))
            .context("detecting renames")?;
    }
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
        let mode = |file: &git2::DiffFile<'_>| u32::from(file.mode());
        changes.push(Change {
            old_mode: if status == Status::Added {
                0
            } else {
                mode(&old)
            },
            new_mode: if status == Status::Deleted {
                0
            } else {
                mode(&new)
            },
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
            first_parents_own: None,
        });
    }
    Ok(changes)
}
