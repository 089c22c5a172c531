//! The notes ref: reading approvals from it, appending to it, and moving it between
//! repositories (push with merge, fetch into a side ref).

use std::collections::HashMap;

use anyhow::Context;
use git2::Oid;

use crate::changes::BlobChange;
use crate::notes::{Approval, parse};
use crate::repo::Repo;

/// The note text on `commit`, if any.
pub fn read(repo: &Repo, notes_ref: &str, commit: Oid) -> anyhow::Result<Option<String>> {
    match repo.git.find_note(Some(notes_ref), commit) {
        Ok(note) => Ok(Some(
            String::from_utf8_lossy(note.message_bytes()).into_owned(),
        )),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading the note on {commit} in {notes_ref}")),
    }
}

/// The approvals recorded on `commit`.
pub fn approvals(repo: &Repo, notes_ref: &str, commit: Oid) -> anyhow::Result<Vec<Approval>> {
    Ok(read(repo, notes_ref, commit)?
        .as_deref()
        .map(parse)
        .unwrap_or_default())
}

/// The notes of one or more notes refs (local, and what CI fetched), read lazily.
///
/// Also answers "which noted commit approved exactly this change?", so a commit rebased
/// or cherry-picked without `notes.rewriteRef` still finds its approval.
pub struct NoteStore<'r> {
    repo: &'r Repo,
    refs: Vec<String>,
    /// Annotated commit → the note blobs on it, across the refs; listing a notes tree
    /// reads no note, and a commit without a note then costs one hash lookup.
    entries: std::cell::OnceCell<HashMap<Oid, Vec<Oid>>>,
    by_change: std::cell::OnceCell<HashMap<BlobChange, Vec<(Oid, Approval)>>>,
}

impl<'r> NoteStore<'r> {
    /// Reads notes from `refs` (missing refs are simply empty).
    pub fn new(repo: &'r Repo, refs: Vec<String>) -> NoteStore<'r> {
        NoteStore {
            repo,
            refs,
            entries: std::cell::OnceCell::new(),
            by_change: std::cell::OnceCell::new(),
        }
    }

    fn entries(&self) -> anyhow::Result<&HashMap<Oid, Vec<Oid>>> {
        if self.entries.get().is_none() {
            let mut entries: HashMap<Oid, Vec<Oid>> = HashMap::new();
            for notes_ref in &self.refs {
                // The notes tree is walked directly: libgit2's note iterator would read
                // the repository's index first, for nothing.
                let tree = match self.repo.git.find_reference(notes_ref) {
                    Ok(r) => r
                        .peel_to_tree()
                        .with_context(|| format!("reading {notes_ref}"))?,
                    Err(e) if e.code() == git2::ErrorCode::NotFound => continue,
                    Err(e) => return Err(e).with_context(|| format!("reading {notes_ref}")),
                };
                tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
                    if entry.kind() == Some(git2::ObjectType::Blob) {
                        // Fan-out directories split the annotated id: "ab/cdef…".
                        let name = format!(
                            "{}{}",
                            dir.replace('/', ""),
                            entry.name().unwrap_or_default()
                        );
                        if let Ok(commit) = Oid::from_str(&name)
                            && name.len() == 40
                        {
                            entries.entry(commit).or_default().push(entry.id());
                        }
                    }
                    git2::TreeWalkResult::Ok
                })
                .with_context(|| format!("listing notes in {notes_ref}"))?;
            }
            let _ = self.entries.set(entries);
        }
        self.entries.get().context("the notes index was just built")
    }

    /// Every approval recorded on `commit`, across the refs.
    pub fn approvals(&self, commit: Oid) -> anyhow::Result<Vec<Approval>> {
        let mut all = Vec::new();
        for blob in self.entries()?.get(&commit).into_iter().flatten() {
            let blob = self.repo.git.find_blob(*blob).context("reading a note")?;
            for approval in parse(&String::from_utf8_lossy(blob.content())) {
                if !all.contains(&approval) {
                    all.push(approval);
                }
            }
        }
        Ok(all)
    }

    /// Approvals that name `change` exactly, with the commit each is attached to.
    /// Only notes on commit objects count: a note on a blob or a tree approves nothing.
    pub fn naming(&self, change: &BlobChange) -> anyhow::Result<&[(Oid, Approval)]> {
        if self.by_change.get().is_none() {
            let index = self.index_changes()?;
            let _ = self.by_change.set(index);
        }
        let index = self
            .by_change
            .get()
            .context("the change index was just built")?;
        Ok(index.get(change).map(Vec::as_slice).unwrap_or_default())
    }

    fn index_changes(&self) -> anyhow::Result<HashMap<BlobChange, Vec<(Oid, Approval)>>> {
        let mut index: HashMap<BlobChange, Vec<(Oid, Approval)>> = HashMap::new();
        for &annotated in self.entries()?.keys() {
            if self.repo.git.find_commit(annotated).is_err() {
                continue;
            }
            for approval in self.approvals(annotated)? {
                for change in &approval.changes {
                    index
                        .entry(change.clone())
                        .or_default()
                        .push((annotated, approval.clone()));
                }
            }
        }
        Ok(index)
    }
}

/// Pushes the notes ref to `remote`; on a non-fast-forward, fetches the remote notes into
/// a scratch ref (never forced over local notes), merges them with `cat_sort_uniq`, and
/// retries once. On failure, returns the commands to run by hand.
pub fn push(repo: &Repo, remote: &str, notes_ref: &str) -> Result<(), String> {
    let refspec = format!("{notes_ref}:{notes_ref}");
    let push = || repo.run_git(&["push", "--quiet", "--no-verify", remote, &refspec]);
    let by_hand = format!(
        "git fetch {remote} {notes_ref}:{notes_ref}-incoming && \\\n  git notes --ref {notes_ref} merge -s cat_sort_uniq {notes_ref}-incoming && \\\n  git push {remote} {refspec}"
    );
    let first = match push() {
        Ok(_) => return Ok(()),
        Err(e) => format!("{e:#}"),
    };
    let incoming = format!("{notes_ref}-incoming");
    let _lock = lock_notes(repo).map_err(|e| format!("{e:#}"))?;
    let merged = repo
        .run_git(&[
            "fetch",
            "--quiet",
            "--no-tags",
            remote,
            &format!("+{notes_ref}:{incoming}"),
        ])
        .and_then(|_| {
            repo.run_git(&[
                "notes",
                "--ref",
                notes_ref,
                "merge",
                "--quiet",
                "-s",
                "cat_sort_uniq",
                &incoming,
            ])
        });
    let _ = repo.run_git(&["update-ref", "-d", &incoming]);
    match merged.and_then(|_| push()) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{first}\n{e:#}\nrun by hand:\n  {by_hand}")),
    }
}

/// The refspec `install` adds to `remote.origin.fetch`: origin's notes land beside ours
/// in `<ref>-origin`, where [`fetch_copy`] also puts them, and are read with ours.
///
/// It is a pattern (`*` matching the empty string) because an exact refspec for a ref
/// the remote does not have yet makes every `git fetch` fail.
pub fn fetch_refspec(notes_ref: &str) -> String {
    format!("+{notes_ref}*:{notes_ref}-origin*")
}

/// The refs approvals are read from locally: ours, and origin's last fetched copy.
pub fn local_refs(notes_ref: &str) -> Vec<String> {
    vec![notes_ref.to_string(), format!("{notes_ref}-origin")]
}

/// Fetches `notes_ref` from `remote` into a scratch ref beside it and returns that ref,
/// or `None` when the remote has no notes yet.
pub fn fetch_copy(repo: &Repo, remote: &str, notes_ref: &str) -> anyhow::Result<Option<String>> {
    let copy = format!("{notes_ref}-{remote}");
    let spec = format!("+{notes_ref}:{copy}");
    match repo.run_git(&["fetch", "--quiet", "--no-tags", remote, &spec]) {
        Ok(_) => Ok(Some(copy)),
        Err(e) if format!("{e:#}").contains("couldn't find remote ref") => Ok(None),
        Err(e) => Err(e),
    }
}

/// Appends a note block (as `Approval::to_note` wrote it, signature included) to the
/// note on `commit`, keeping whatever the note already says.
pub fn append(repo: &Repo, notes_ref: &str, commit: Oid, block: &str) -> anyhow::Result<()> {
    let _lock = lock_notes(repo)?;
    let mut text = read(repo, notes_ref, commit)?.unwrap_or_default();
    if !text.is_empty() {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
    }
    text.push_str(block);
    let signature = note_signature(repo)?;
    repo.git
        .note(&signature, &signature, Some(notes_ref), commit, &text, true)
        .with_context(|| format!("writing the note on {commit} to {notes_ref}"))?;
    Ok(())
}

/// Serialises git-guard's writes to notes across processes and worktrees.
///
/// Updating a notes ref is read-modify-write: neither libgit2 nor `git notes` checks
/// that the ref still holds the commit the new notes commit builds on, so two
/// concurrent writers lose one note (the edge-case suite caught exactly that). An
/// exclusive lock on a file in the common git directory, held until the returned
/// handle drops, makes each write see the one before it.
pub fn lock_notes(repo: &Repo) -> anyhow::Result<std::fs::File> {
    let path = repo.git.commondir().join("guard-notes.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.lock()
        .with_context(|| format!("locking {}", path.display()))?;
    Ok(file)
}

/// Who the notes commit is by: the user's identity, or a neutral one when git has none.
fn note_signature(repo: &Repo) -> anyhow::Result<git2::Signature<'static>> {
    repo.git
        .signature()
        .or_else(|_| git2::Signature::now("git-guard", "git-guard@localhost"))
        .context("making the notes commit signature")
}
