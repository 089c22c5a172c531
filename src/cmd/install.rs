//! `git guard install` and `uninstall`: write our hook files, chain a foreign one,
//! restore it on uninstall; `notes.rewriteRef` and the notes fetch refspec.
//!
//! Our hooks are the embedded template `hooks/hook.sh` (see `hook_script`). A hook that
//! is not ours is renamed to `<name>.guard-chained` beside ours and run first by it;
//! uninstall renames it back, so its bytes and mode are exactly as they were.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::Context;

use crate::atomic;
use crate::exit::{Outcome, hinted};
use crate::hook_script::{CHAINED_SUFFIX, HOOKS, is_ours, script};
use crate::managers::{self, Manager};
use crate::note_store;
use crate::policy::Rules;
use crate::render::{self, HookAction};
use crate::repo::Repo;

/// `git guard install`: our hooks where git runs them (or the hook manager's way),
/// and the notes configuration.
pub fn install(repo: &Repo, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let work_tree = repo.work_tree()?;
    let config = Rules::load(repo)?.config;
    let dir = repo.hooks_dir()?;
    let notes_ref = &config.approval.notes_ref;
    match managers::detect(work_tree, &dir) {
        Some(Manager::Husky { scripts }) => {
            let edited = install_husky(&scripts)?;
            configure_notes(repo, notes_ref)?;
            render::husky_installed(out, &scripts.display().to_string(), &edited)?;
        }
        Some(Manager::Lefthook {
            config,
            runs_guard: false,
        }) => {
            return Err(hinted(
                format!(
                    "lefthook manages the hooks of this repository ({}), and `lefthook install` would replace git-guard's",
                    config.display()
                ),
                format!(
                    "add git-guard to {} and run `lefthook install`:\n{}",
                    config.display(),
                    managers::LEFTHOOK_SNIPPET.trim_end()
                ),
            ));
        }
        Some(Manager::Lefthook { config, .. }) | Some(Manager::PreCommit { config }) => {
            configure_notes(repo, notes_ref)?;
            render::managed_elsewhere(out, &config.display().to_string())?;
        }
        None => {
            let actions = install_hooks(&dir)?;
            let fetch = configure_notes(repo, notes_ref)?;
            render::install_done(out, &dir.display().to_string(), notes_ref, fetch.as_deref())?;
            for (hook, action) in actions {
                render::hook_action(out, hook, action)?;
            }
        }
    }
    Ok(Outcome::Allowed)
}

/// Our three hooks in `dir`, each chaining whatever foreign hook was there.
fn install_hooks(dir: &Path) -> anyhow::Result<Vec<(&'static str, HookAction)>> {
    std::fs::create_dir_all(dir).map_err(|e| {
        hinted(
            format!("cannot create the hooks directory {}: {e}", dir.display()),
            "check its permissions, or core.hooksPath",
        )
    })?;
    let guard = std::env::current_exe().context("finding the git-guard binary")?;
    let mut actions = Vec::new();
    for hook in HOOKS {
        let path = dir.join(hook);
        let chained = dir.join(format!("{hook}{CHAINED_SUFFIX}"));
        let wanted = script(hook, &guard);
        let action = match std::fs::read(&path) {
            Ok(existing) if is_ours(&existing) => {
                if existing == wanted.as_bytes() {
                    HookAction::AlreadyInstalled
                } else {
                    write_hook(&path, &wanted)?;
                    HookAction::Updated
                }
            }
            Ok(_) => {
                if chained.exists() {
                    return Err(hinted(
                        format!(
                            "{} is not a git-guard hook, and {} already holds an earlier chained hook",
                            path.display(),
                            chained.display()
                        ),
                        "keep one of the two: merge them by hand, or move one aside, then run `git guard install` again",
                    ));
                }
                // Ours is written before theirs moves, and theirs moves back if ours
                // cannot take its place: their hook never stops running.
                let ours = prepare(&path, &wanted, 0o755)?;
                std::fs::rename(&path, &chained).map_err(|e| {
                    hinted(
                        format!("cannot move the existing {hook} hook aside: {e}"),
                        format!("check permissions on {}", dir.display()),
                    )
                })?;
                if let Err(e) = ours.replace(&path) {
                    let _ = std::fs::rename(&chained, &path);
                    return Err(write_failed(&path, e));
                }
                HookAction::InstalledChaining
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write_hook(&path, &wanted)?;
                HookAction::Installed
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        actions.push((hook, action));
    }
    Ok(actions)
}

/// Adds our block to the team's husky scripts; returns the scripts it changed.
fn install_husky(scripts: &Path) -> anyhow::Result<Vec<String>> {
    let mut edited = Vec::new();
    for hook in HOOKS {
        let path = scripts.join(hook);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let wanted = managers::with_block(existing.as_deref(), hook);
        if existing.as_deref() != Some(wanted.as_str()) {
            let mode = std::fs::metadata(&path)
                .map(|m| m.permissions().mode())
                .unwrap_or(0o755);
            write_file(&path, &wanted, mode)?;
            edited.push(path.display().to_string());
        }
    }
    Ok(edited)
}

/// Removes our block from the team's husky scripts; returns the scripts it changed.
fn uninstall_husky(scripts: &Path) -> anyhow::Result<Vec<String>> {
    let mut edited = Vec::new();
    for hook in HOOKS {
        let path = scripts.join(hook);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !managers::has_block(&text) {
            continue;
        }
        match managers::without_block(&text) {
            Some(kept) => {
                let mode = std::fs::metadata(&path)?.permissions().mode();
                write_file(&path, &kept, mode)?;
            }
            None => std::fs::remove_file(&path)
                .with_context(|| format!("removing {}", path.display()))?,
        }
        edited.push(path.display().to_string());
    }
    Ok(edited)
}

/// `git guard uninstall`.
pub fn uninstall(repo: &Repo, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let dir = repo.hooks_dir()?;
    if let Ok(work_tree) = repo.work_tree()
        && let Some(Manager::Husky { scripts }) = managers::detect(work_tree, &dir)
    {
        let edited = uninstall_husky(&scripts)?;
        render::husky_uninstalled(out, &edited)?;
        return Ok(Outcome::Allowed);
    }
    let mut actions = Vec::new();
    for hook in HOOKS {
        let path = dir.join(hook);
        let chained = dir.join(format!("{hook}{CHAINED_SUFFIX}"));
        let action = match std::fs::read(&path) {
            Ok(existing) if is_ours(&existing) => {
                if chained.exists() {
                    std::fs::rename(&chained, &path)
                        .with_context(|| format!("restoring {}", path.display()))?;
                    HookAction::RemovedRestoring
                } else {
                    std::fs::remove_file(&path)
                        .with_context(|| format!("removing {}", path.display()))?;
                    HookAction::Removed
                }
            }
            Ok(_) => HookAction::NotOurs,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => HookAction::NotInstalled,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        actions.push((hook, action));
    }
    render::uninstall_done(out, &dir.display().to_string())?;
    for (hook, action) in actions {
        render::hook_action(out, hook, action)?;
    }
    Ok(Outcome::Allowed)
}

/// Writes an executable hook atomically: a temp file in the same directory, renamed.
fn write_hook(path: &Path, content: &str) -> anyhow::Result<()> {
    write_file(path, content, 0o755)
}

/// Writes `content` with `mode` atomically (see [`atomic`]).
fn write_file(path: &Path, content: &str, mode: u32) -> anyhow::Result<()> {
    prepare(path, content, mode)?
        .replace(path)
        .map_err(|e| write_failed(path, e))
}

fn prepare(path: &Path, content: &str, mode: u32) -> anyhow::Result<atomic::Prepared> {
    atomic::prepare(path, content.as_bytes(), mode).map_err(|e| write_failed(path, e))
}

fn write_failed(path: &Path, e: std::io::Error) -> anyhow::Error {
    let dir = path.parent().unwrap_or(Path::new("."));
    hinted(
        format!("cannot write {}: {e}", path.display()),
        format!(
            "check that {} is writable; nothing else was changed",
            dir.display()
        ),
    )
}

/// Makes amend and rebase carry the notes (`notes.rewriteRef`) and `git fetch` bring
/// origin's notes (into `<ref>-origin`, which is read beside ours and never forced over
/// it). Each value is added once.
/// `notes.rewriteRef`, and origin's notes fetched beside ours; returns the fetch refspec
/// when origin exists (so `install` can say what it added).
fn configure_notes(repo: &Repo, notes_ref: &str) -> anyhow::Result<Option<String>> {
    add_config_value(repo, "notes.rewriteRef", notes_ref)?;
    if repo.git.find_remote("origin").is_ok() {
        let refspec = note_store::fetch_refspec(notes_ref);
        add_config_value(repo, "remote.origin.fetch", &refspec)?;
        return Ok(Some(refspec));
    }
    Ok(None)
}

fn add_config_value(repo: &Repo, key: &str, value: &str) -> anyhow::Result<()> {
    if !repo.config_values(key).iter().any(|v| v == value) {
        repo.run_git(&["config", "--add", key, value])?;
    }
    Ok(())
}
