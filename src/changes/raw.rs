//! Reading git's own diff output: `git diff --raw -z` records and `git log` streams
//! of them, parsed as bytes.

use anyhow::Context;
use git2::Oid;

use super::{Change, Status, of_merge};
use crate::exit::hinted;
use crate::repo::Repo;

/// How every diff git-guard asks git for is shaped: raw records with full ids, NUL
/// separated, renames detected as `git diff -M` does, untouched by the user's colour,
/// external-diff or submodule settings.
pub(super) const RAW_DIFF: [&str; 7] = [
    "-z",
    "--raw",
    "--no-abbrev",
    "-M",
    "--no-color",
    "--no-ext-diff",
    "--ignore-submodules=none",
];

/// Parses `git diff --raw -z --no-abbrev` output.
pub fn parse_raw(out: &[u8]) -> anyhow::Result<Vec<Change>> {
    parse_records(&mut out.split(|&b| b == 0))
}

/// The changes of every commit that `git log` lists for `revs` (for example
/// `["feature", "^main"]`), oldest first, each against its first parent; a merge
/// against git's automatic merge of its parents ([`of_merge`]).
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
/// slower over 1,000 commits of a 10,000-file tree; see docs/reference.md, Performance).
pub fn stream_range(
    repo: &Repo,
    revs: &[String],
    each: &mut dyn FnMut(Oid, Vec<Change>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use std::process::Stdio;

    repo.refuse_grafts()?;
    let mut child = repo
        .git_command()
        .arg("log")
        .args(RAW_DIFF)
        // A merge's change is not a diff git log can print: it is computed by `of_merge`
        // (and only for merges, so ordinary history costs nothing more).
        .args(["--diff-merges=off", "--format=%x01%H %P"])
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
    let (tx, rx) = std::sync::mpsc::sync_channel(256);
    let reader = std::thread::spawn(move || read_log(stdout, &tx));
    let mut result = Ok(());
    for item in rx {
        let step = item.and_then(|(id, parents, changes)| {
            let changes = if parents > 1 {
                let commit = repo
                    .git
                    .find_commit(id)
                    .context("reading a merge of the range")?;
                of_merge(repo, &commit)?
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

/// One commit of `git log -z --raw`: its id, its number of parents, its changes.
type LogCommit = (Oid, usize, Vec<Change>);

/// Reads `git log -z --raw --format=%x01%H %P` from `input` and sends each commit as
/// soon as the next one starts; stops when the receiver hangs up.
fn read_log(
    input: impl std::io::Read,
    tx: &std::sync::mpsc::SyncSender<anyhow::Result<LogCommit>>,
) {
    use std::io::BufRead;
    let mut input = std::io::BufReader::with_capacity(1 << 16, input);
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
}

/// One commit from its `%H %P` header and its raw-diff fields.
fn commit_from(header: &[u8], fields: &[Vec<u8>]) -> anyhow::Result<LogCommit> {
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
        let (old_mode, new_mode, old, new, status) = (
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
        let mode = |octal: &str| u32::from_str_radix(octal, 8).map_err(|_| bad());
        let (old_mode, new_mode) = (mode(old_mode)?, mode(new_mode)?);
        changes.push(Change {
            old_mode: if status == Status::Added { 0 } else { old_mode },
            new_mode: if status == Status::Deleted {
                0
            } else {
                new_mode
            },
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
            first_parents_own: None,
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
    fn modes_are_kept_and_a_gitlink_is_known_by_its_mode() {
        let a = "1111111111111111111111111111111111111111";
        let b = "2222222222222222222222222222222222222222";
        let z = "0000000000000000000000000000000000000000";
        let raw = format!(
            ":160000 160000 {a} {b} M\0tests\0:000000 100755 {z} {a} A\0run.sh\0:160000 000000 {a} {z} D\0vendor/lib\0"
        );
        let changes = parse_raw(raw.as_bytes()).unwrap();
        assert_eq!(
            (changes[0].old_mode, changes[0].new_mode),
            (0o160000, 0o160000)
        );
        assert!(changes[0].is_gitlink());
        assert_eq!(
            changes[0].blobs().count(),
            0,
            "a submodule commit is not a blob here"
        );
        assert_eq!((changes[1].old_mode, changes[1].new_mode), (0, 0o100755));
        assert!(!changes[1].is_gitlink());
        assert!(changes[2].old_is_gitlink() && !changes[2].new_is_gitlink());
        assert!(parse_raw(format!(":1600x0 160000 {a} {b} M\0tests\0").as_bytes()).is_err());
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
