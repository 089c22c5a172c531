//! A coding agent's edit, judged before it reaches the disk (`git guard agent-hook`).
//!
//! The agent's hook hands us the tool call; we rebuild the file as the edit would leave
//! it, run the same policy and weakening engine as the commit hook on (file on disk →
//! proposed file), and answer in the agent's protocol. This is early feedback only: an
//! edit made another way (a shell command) is still stopped at commit and in CI.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid};
use serde::Deserialize;

use crate::changes::Blobs;
use crate::changes::{Change, Status};
use crate::exit::hinted;
use crate::policy::Rules;
use crate::repo::Repo;
use crate::report::Report;

/// A Claude Code `PreToolUse` payload: the parts we read.
#[derive(Debug, Deserialize)]
struct Payload {
    tool_name: String,
    #[serde(default)]
    tool_input: ToolInput,
    cwd: Option<PathBuf>,
}

/// The input of Write, Edit and MultiEdit.
#[derive(Debug, Default, Deserialize)]
struct ToolInput {
    file_path: Option<PathBuf>,
    content: Option<String>,
    old_string: Option<String>,
    new_string: Option<String>,
    #[serde(default)]
    replace_all: bool,
    edits: Option<Vec<Edit>>,
}

/// One replacement of an Edit or MultiEdit.
#[derive(Debug, Deserialize)]
struct Edit {
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: bool,
}

/// What we tell the agent, with the report it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// No opinion: not a file edit, outside a repository, or nothing protected.
    Pass,
    /// A protected path without weakening: a human decides (Claude Code asks the user).
    Ask(Report),
    /// Weakening the policy blocks: the edit is refused, with what to do instead.
    Deny(Report),
}

/// What to tell a user whose hook payload cannot be read.
pub const PAYLOAD_HINT: &str = "configure this command as a Claude Code PreToolUse hook (README, \"Agent hooks\"); \
     it reads the hook's JSON payload on stdin";

/// The decision for one Claude Code payload.
pub fn judge_claude_code(payload: &str) -> anyhow::Result<Decision> {
    let payload: Payload = serde_json::from_str(payload).map_err(|e| {
        hinted(
            format!("the hook payload is not a Claude Code PreToolUse payload: {e}"),
            PAYLOAD_HINT,
        )
    })?;
    if !matches!(payload.tool_name.as_str(), "Write" | "Edit" | "MultiEdit") {
        return Ok(Decision::Pass);
    }
    let Some(file) = &payload.tool_input.file_path else {
        return Ok(Decision::Pass);
    };
    let file = match (file.is_absolute(), &payload.cwd) {
        (false, Some(cwd)) => cwd.join(file),
        _ => file.clone(),
    };
    let Some((repo, relative)) = locate(&file) else {
        return Ok(Decision::Pass);
    };
    let current = std::fs::read(&file).ok();
    let Some(proposed) = proposed(&payload.tool_name, &payload.tool_input, current.as_deref())
    else {
        return Ok(Decision::Pass); // the edit will not apply; the tool itself reports that
    };
    let rules = Rules::load(&repo)?;
    let mut blobs = MemoryBlobs::default();
    let old_id = current.map(|bytes| blobs.add(bytes)).transpose()?;
    let new_id = blobs.add(proposed)?;
    if old_id == Some(new_id) {
        return Ok(Decision::Pass);
    }
    let path = relative.into_os_string().into_encoded_bytes();
    let change = Change {
        status: if old_id.is_some() {
            Status::Modified
        } else {
            Status::Added
        },
        old_path: old_id.map(|_| path.clone()),
        new_path: Some(path),
        old_id,
        new_id: Some(new_id),
        ..Change::default()
    };
    let report = Report::evaluate(&[change], &rules, &blobs)?;
    Ok(if report.findings.iter().any(|f| f.blocking) {
        Decision::Deny(report)
    } else if report.needs_approval() {
        Decision::Ask(report)
    } else {
        Decision::Pass
    })
}

/// The repository holding `file` and the file's path inside its work tree.
fn locate(file: &Path) -> Option<(Repo, PathBuf)> {
    let dir = file.parent()?;
    // The directory may not exist yet (Write creates it): start at its nearest ancestor.
    let existing = dir.ancestors().find(|d| d.is_dir())?;
    let repo = Repo::discover(existing)?;
    let root = repo.git.workdir()?.canonicalize().ok()?;
    let real_dir = existing.canonicalize().ok()?;
    let rest = dir.strip_prefix(existing).ok()?;
    let relative = real_dir
        .strip_prefix(&root)
        .ok()?
        .join(rest)
        .join(file.file_name()?);
    Some((repo, relative))
}

/// The file as the tool call would leave it; `None` when an edit would not apply.
fn proposed(tool: &str, input: &ToolInput, current: Option<&[u8]>) -> Option<Vec<u8>> {
    if tool == "Write" {
        return Some(input.content.clone()?.into_bytes());
    }
    let mut text = String::from_utf8(current?.to_vec()).ok()?;
    let single;
    let edits: &[Edit] = match &input.edits {
        Some(edits) => edits,
        None => {
            single = [Edit {
                old_string: input.old_string.clone()?,
                new_string: input.new_string.clone()?,
                replace_all: input.replace_all,
            }];
            &single
        }
    };
    for edit in edits {
        if edit.old_string.is_empty() || !text.contains(&edit.old_string) {
            return None;
        }
        text = if edit.replace_all {
            text.replace(&edit.old_string, &edit.new_string)
        } else {
            text.replacen(&edit.old_string, &edit.new_string, 1)
        };
    }
    Some(text.into_bytes())
}

/// Contents held in memory under their git blob ids.
#[derive(Default)]
struct MemoryBlobs(HashMap<Oid, Vec<u8>>);

impl MemoryBlobs {
    fn add(&mut self, bytes: Vec<u8>) -> anyhow::Result<Oid> {
        let id = Oid::hash_object(ObjectType::Blob, &bytes)?;
        self.0.insert(id, bytes);
        Ok(id)
    }
}

impl Blobs for MemoryBlobs {
    fn blob(&self, id: Oid) -> Option<Vec<u8>> {
        self.0.get(&id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(json: &str) -> ToolInput {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn edits_apply_like_the_tools_do() {
        let now = b"a == 1\na == 1\n".as_slice();
        let one = input(r#"{"old_string": "==", "new_string": ">="}"#);
        assert_eq!(
            proposed("Edit", &one, Some(now)).unwrap(),
            b"a >= 1\na == 1\n"
        );
        let all = input(r#"{"old_string": "==", "new_string": ">=", "replace_all": true}"#);
        assert_eq!(
            proposed("Edit", &all, Some(now)).unwrap(),
            b"a >= 1\na >= 1\n"
        );
        let multi = input(
            r#"{"edits": [{"old_string": "a", "new_string": "b", "replace_all": true},
                          {"old_string": "b ==", "new_string": "c !="}]}"#,
        );
        assert_eq!(
            proposed("MultiEdit", &multi, Some(now)).unwrap(),
            b"c != 1\nb == 1\n"
        );
        let missing = input(r#"{"old_string": "zz", "new_string": "y"}"#);
        assert_eq!(proposed("Edit", &missing, Some(now)), None);
        let write = input(r#"{"content": "new"}"#);
        assert_eq!(proposed("Write", &write, None).unwrap(), b"new");
    }
}
