//! The one place that opens git: discovery, git paths, the policy blob, identities.
//!
//! Everything else receives a [`Repo`]. Opening honours git's environment (`GIT_DIR`,
//! `GIT_INDEX_FILE`, …) because hooks run with it: `git commit -a` and
//! `git commit -- path` hand the hook a temporary index through `GIT_INDEX_FILE`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use git2::{Commit, ObjectType, Oid, Repository};

use crate::exit::hinted;

/// An open repository.
pub struct Repo {
    /// The libgit2 handle. Opening and paths stay here; modules that read objects and
    /// history (`changes`, `policy`, `note_store`, `judge`, `agent`) and commands that
    /// resolve revisions or write notes use it directly.
    pub git: Repository,
}

impl Repo {
    /// Opens the repository the current directory (or git's environment) points to.
    pub fn open() -> anyhow::Result<Repo> {
        // git itself does not re-hash every object it reads; libgit2 does by default,
        // which doubles the cost of walking a tree on the commit hook's hot path.
        git2::opts::strict_hash_verification(false);
        let git = Repository::open_from_env().map_err(|e| {
            hinted(
                format!(
                    "not a git repository (or any parent up to the root): {}",
                    e.message()
                ),
                "run this inside a git work tree, or `git init` one first",
            )
        })?;
        Ok(Repo { git })
    }

    /// Opens the repository at `path` (tests and the demo use this seam).
    pub fn open_at(path: &Path) -> anyhow::Result<Repo> {
        let git = Repository::open(path)
            .with_context(|| format!("opening the repository at {}", path.display()))?;
        Ok(Repo { git })
    }

    /// The repository that contains `dir`, if any (the agent hook's file may be anywhere).
    pub fn discover(dir: &Path) -> Option<Repo> {
        Repository::discover(dir).ok().map(|git| Repo { git })
    }

    /// The work tree root; an error in a bare repository.
    pub fn work_tree(&self) -> anyhow::Result<&Path> {
        self.git.workdir().ok_or_else(|| {
            hinted(
                "this is a bare repository, which has no work tree to guard",
                "run git-guard in a clone with a work tree; in CI use `git guard ci`",
            )
        })
    }

    /// Every value of a multi-valued config key (`remote.origin.fetch`), in order.
    pub fn config_values(&self, key: &str) -> Vec<String> {
        let mut values = Vec::new();
        if let Ok(config) = self.git.config()
            && let Ok(mut entries) = config.multivar(key, None)
        {
            while let Some(Ok(entry)) = entries.next() {
                if let Ok(value) = entry.value() {
                    values.push(value.to_string());
                }
            }
        }
        values
    }

    /// Per-worktree state (pending approvals, ledger): `git rev-parse --git-path guard`.
    pub fn state_dir(&self) -> PathBuf {
        self.git.path().join("guard")
    }

    /// The commit HEAD points to, or `None` before the first commit.
    pub fn head_commit(&self) -> anyhow::Result<Option<Commit<'_>>> {
        match self.git.head() {
            Ok(head) => Ok(Some(head.peel_to_commit().context("reading HEAD")?)),
            Err(e)
                if e.code() == git2::ErrorCode::UnbornBranch
                    || e.code() == git2::ErrorCode::NotFound =>
            {
                Ok(None)
            }
            Err(e) => Err(e).context("reading HEAD"),
        }
    }

    /// Resolves a revision (`HEAD~2`, a branch, an id) to a commit, or explains.
    pub fn commit(&self, rev: &str) -> anyhow::Result<Commit<'_>> {
        let object = self.git.revparse_single(rev).map_err(|e| {
            hinted(
                format!("unknown revision `{rev}`: {}", e.message()),
                "name a commit: a branch, a tag, HEAD~1 or an object id",
            )
        })?;
        object
            .peel_to_commit()
            .map_err(|_| hinted(format!("`{rev}` is not a commit"), "name a commit"))
    }

    /// The bytes of the file at `name` (root-relative) in a commit, if present.
    pub fn blob_at(&self, commit: &Commit<'_>, name: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let tree = commit.tree().context("reading a commit's tree")?;
        let Ok(entry) = tree.get_path(Path::new(name)) else {
            return Ok(None);
        };
        if entry.kind() != Some(ObjectType::Blob) {
            bail!("{name} in commit {} is not a file", short_id(commit.id()));
        }
        let blob = self
            .git
            .find_blob(entry.id())
            .with_context(|| format!("reading {name}"))?;
        Ok(Some(blob.content().to_vec()))
    }

    /// The tree the index would commit now (`git write-tree`, which reuses the index's
    /// cache-tree; it writes the tree objects, as `git commit` is about to).
    pub fn index_tree(&self) -> anyhow::Result<Oid> {
        let out = self
            .run_git(&["write-tree"])
            .context("writing the index as a tree")?;
        let text = String::from_utf8_lossy(&out);
        Oid::from_str(text.trim()).context("reading `git write-tree` output")
    }

    /// The id of the empty tree (what a first commit is compared with).
    pub fn empty_tree(&self) -> anyhow::Result<Oid> {
        Ok(self.git.treebuilder(None)?.write()?)
    }

    /// `Name <email>` of the person at the keyboard, as git would record them.
    pub fn identity(&self) -> String {
        let from_env = |name: &str, email: &str| {
            let name = std::env::var(name).ok()?;
            let email = std::env::var(email).ok()?;
            Some(format!("{name} <{email}>"))
        };
        from_env("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL")
            .or_else(|| {
                let sig = self.git.signature().ok()?;
                Some(format!("{} <{}>", sig.name().ok()?, sig.email().ok()?))
            })
            .unwrap_or_else(|| "unknown <unknown>".to_string())
    }

    /// A `git` subprocess in this repository, for what only git does well (hook paths,
    /// config edits); never for the hot path.
    ///
    /// It never follows `git replace` refs (`GIT_NO_REPLACE_OBJECTS=1`): a replacement
    /// would let `git log` show one commit's content in place of another's. libgit2,
    /// which reads everything else, does not implement replace refs at all.
    pub fn git_command(&self) -> Command {
        let mut cmd = Command::new("git");
        // git's messages are parsed in places (a missing remote ref): always in English.
        cmd.env("LC_ALL", "C");
        cmd.env("GIT_NO_REPLACE_OBJECTS", "1");
        cmd.current_dir(self.git.workdir().unwrap_or_else(|| self.git.path()));
        cmd
    }

    /// Runs `git args…` and returns its stdout, or an error carrying git's stderr.
    pub fn run_git(&self, args: &[&str]) -> anyhow::Result<Vec<u8>> {
        let output = self.git_command().args(args).output().map_err(|e| {
            hinted(
                format!("cannot run git: {e}"),
                "install git and put it on PATH",
            )
        })?;
        if !output.status.success() {
            bail!(
                "`git {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        Ok(output.stdout)
    }

    /// Refuses to judge history through `info/grafts`: a graft rewrites a commit's
    /// parents for libgit2 and git alike (unlike a replace ref, no switch turns it off),
    /// so a grafted parent could make any commit's change look empty.
    pub fn refuse_grafts(&self) -> anyhow::Result<()> {
        let grafts = self.git.commondir().join("info").join("grafts");
        match std::fs::metadata(&grafts) {
            Ok(meta) if meta.len() > 0 => Err(hinted(
                format!(
                    "{} rewrites commits' parents, so history cannot be judged as it really is",
                    grafts.display()
                ),
                "grafts are deprecated in git: `git replace --convert-graft-file` turns them \
                 into replace refs (which git-guard ignores), or remove the file",
            )),
            _ => Ok(()),
        }
    }

    /// `git cat-file --batch` for `ids`: reads each object, which in a partial clone
    /// fetches a missing one from the promisor remote (libgit2 cannot). The contents are
    /// discarded: what matters is that the objects are then in the repository.
    pub fn cat_file_batch(&self, ids: &[Oid]) -> anyhow::Result<()> {
        use std::io::Write;
        use std::process::Stdio;
        let mut child = self
            .git_command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("running git cat-file --batch")?;
        let mut stdin = child.stdin.take().context("git cat-file's input")?;
        let input: String = ids.iter().map(|id| format!("{id}\n")).collect();
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let mut stdout = child.stdout.take().context("git cat-file's output")?;
        std::io::copy(&mut stdout, &mut std::io::sink()).context("reading git cat-file")?;
        let _ = writer.join();
        child.wait().context("waiting for git cat-file")?;
        Ok(())
    }

    /// The directory git really runs hooks from (`core.hooksPath`, worktrees honoured).
    pub fn hooks_dir(&self) -> anyhow::Result<PathBuf> {
        let out = self.run_git(&["rev-parse", "--git-path", "hooks"])?;
        let text = String::from_utf8(out).context("hooks path is not UTF-8")?;
        let path = PathBuf::from(text.trim_end_matches('\n'));
        let base = self.git.workdir().unwrap_or_else(|| self.git.path());
        Ok(if path.is_absolute() {
            path
        } else {
            base.join(path)
        })
    }
}

/// A commit's subject line, lossily decoded.
pub fn subject(commit: &Commit<'_>) -> String {
    commit
        .summary_bytes()
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_default()
}

/// The abbreviated id used in every message (git's default length of 7).
pub fn short_id(id: Oid) -> String {
    let mut s = id.to_string();
    s.truncate(7);
    s
}
