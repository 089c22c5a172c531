//! `git guard doctor`: is git-guard really guarding this clone, and if not, the fix.
//!
//! Each check looks at what git itself will do (the hooks directory git uses, the config
//! git reads), never at what `install` meant to write.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::config::{self, Config};
use crate::exit::Outcome;
use crate::hook_script::{self, CHAINED_SUFFIX, HOOKS};
use crate::managers::{self, Manager};
use crate::note_store;
use crate::policy::{PolicySource, Rules};
use crate::render::{self, Check};
use crate::repo::Repo;
use crate::ui::Ui;

/// `git guard doctor`.
pub fn run(repo: &Repo, ui: &Ui, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let work_tree = repo.work_tree()?.to_path_buf();
    let mut checks = Vec::new();
    let config = check_policy(repo, &work_tree, &mut checks);
    let notes_ref = config.approval.notes_ref.clone();
    let dir = repo.hooks_dir()?;
    let manager = managers::detect(&work_tree, &dir);
    let pre_push_runs_guard = check_hooks(&dir, manager.as_ref(), &mut checks);
    check_binary(manager.as_ref(), &mut checks);
    check_git_version(repo, &mut checks);
    check_notes(repo, &notes_ref, pre_push_runs_guard, &mut checks);
    render::doctor(ui, out, &checks)?;
    Ok(if checks.iter().any(|c| c.fix.is_some() && !c.warning) {
        Outcome::Blocked
    } else {
        Outcome::Allowed
    })
}

/// guard.toml as committed (what the hooks enforce) and as in the work tree.
fn check_policy(repo: &Repo, work_tree: &Path, checks: &mut Vec<Check>) -> Config {
    let committed = match Rules::load(repo) {
        Ok(rules) => {
            checks.push(Check::ok(format!(
                "policy: {} (valid)",
                render::policy_source(&rules.source)
            )));
            match rules.source {
                crate::policy::PolicySource::WorkTree => checks.push(Check::warn(
                    "guard.toml is not committed: the hooks use it for now, but CI reads the base commit's",
                    "git add guard.toml && git commit   (the policy commit is approved like any protected change)",
                )),
                crate::policy::PolicySource::Defaults => checks.push(Check::warn(
                    "no guard.toml: the built-in defaults apply, and CI sees no policy of the team's",
                    "git guard init, review it, and commit it",
                )),
                crate::policy::PolicySource::Commit(_) => {}
            }
            checks.push(check_forgeability(&rules));
            rules.config
        }
        Err(e) => {
            checks.push(Check::fix(
                format!("policy: {e:#}"),
                "fix guard.toml and commit it; until then every hook fails closed",
            ));
            Config::default()
        }
    };
    let path = work_tree.join(config::FILE_NAME);
    if let Ok(bytes) = std::fs::read(&path) {
        let head_bytes = repo
            .head_commit()
            .ok()
            .flatten()
            .and_then(|c| c.tree().ok())
            .and_then(|t| t.get_name(config::FILE_NAME).map(|e| e.id()))
            .and_then(|id| repo.git.find_blob(id).ok())
            .map(|b| b.content().to_vec());
        if head_bytes.is_some() && head_bytes.as_deref() != Some(bytes.as_slice()) {
            match Rules::parse(&bytes, config::FILE_NAME, PolicySource::WorkTree) {
                Ok(_) => checks.push(Check::ok(
                    "guard.toml in the work tree differs from HEAD's: it takes effect once committed",
                )),
                Err(e) => checks.push(Check::fix(
                    format!("guard.toml in the work tree is invalid: {e:#}"),
                    "fix it before you commit it (`git guard init --force` writes the defaults)",
                )),
            }
        }
    }
    committed
}

/// Whether an approval here can be forged by whoever can push (an agent included).
fn check_forgeability(rules: &Rules) -> Check {
    let approval = &rules.config.approval;
    let listed = rules
        .signers
        .as_deref()
        .map(|text| {
            crate::signature::AllowedSigners::parse(text)
                .entries()
                .len()
        })
        .unwrap_or(0);
    if (approval.require_signature || approval.require_presence) && listed > 0 {
        let touch = if approval.require_presence {
            " with a security-key touch"
        } else {
            ""
        };
        Check::ok(format!(
            "approvals cannot be forged: each must be signed{touch} by one of the {listed} keys in {}",
            approval.signers
        ))
    } else if approval.require_signature || approval.require_presence {
        Check::fix(
            format!(
                "signatures are required, but {} lists no usable key: no approval can count",
                approval.signers
            ),
            "add each reviewer's key: `<email> namespaces=\"git-guard\" <public key>` (README, \"Signed approvals\")",
        )
    } else {
        Check::warn(
            "approvals can be forged: unsigned ones count, and anyone with push access (an agent included) can write one",
            "set git's SSH signing key (gpg.format = ssh, user.signingKey) and run `git guard init --force`,\n\
             or set [override] signers and require_signature = true (README, \"Signed approvals\")",
        )
    }
}

/// The hooks git will run; returns whether pre-push runs git-guard (which pushes notes).
fn check_hooks(dir: &Path, manager: Option<&Manager>, checks: &mut Vec<Check>) -> bool {
    match manager {
        Some(Manager::Husky { scripts }) => check_husky_hooks(scripts, checks),
        Some(Manager::Lefthook { config, .. }) => check_lefthook_hooks(config, checks),
        Some(Manager::PreCommit { config }) => check_framework_hooks(dir, config, checks),
        None => check_own_hooks(dir, checks),
    }
}

/// husky: every team script carries the git-guard block.
fn check_husky_hooks(scripts: &Path, checks: &mut Vec<Check>) -> bool {
    let mut all = true;
    for hook in HOOKS {
        let path = scripts.join(hook);
        let has = std::fs::read_to_string(&path).is_ok_and(|t| managers::has_block(&t));
        all &= has;
        checks.push(if has {
            Check::ok(format!(
                "{hook}: husky runs git-guard from {}",
                path.display()
            ))
        } else {
            Check::fix(
                format!(
                    "{hook}: husky manages the hooks, and {} does not run git-guard",
                    path.display()
                ),
                "git guard install   (adds a marked block to the husky script; README, \"Hook managers\")",
            )
        });
    }
    all
}

/// lefthook: its configuration runs `git guard hook <name>` for each hook.
fn check_lefthook_hooks(config: &Path, checks: &mut Vec<Check>) -> bool {
    let text = std::fs::read_to_string(config).unwrap_or_default();
    let mut all = true;
    for hook in HOOKS {
        let has = text.contains(&format!("git guard hook {hook}"))
            || text.contains(&format!("git-guard hook {hook}"));
        all &= has;
        checks.push(if has {
            Check::ok(format!("{hook}: lefthook runs git-guard ({})", config.display()))
        } else {
            Check::fix(
                format!("{hook}: lefthook manages the hooks, and {} does not run `git guard hook {hook}`", config.display()),
                format!("add it (README, \"Hook managers\"):\n{}then run `lefthook install`", managers::LEFTHOOK_SNIPPET),
            )
        });
    }
    all
}

/// The pre-commit framework: each hook runs the framework, which runs git-guard.
fn check_framework_hooks(dir: &Path, config: &Path, checks: &mut Vec<Check>) -> bool {
    let mut all = true;
    for hook in HOOKS {
        let text = std::fs::read_to_string(dir.join(hook)).unwrap_or_default();
        let has = text.contains("pre-commit") || text.contains("prek");
        all &= has;
        checks.push(if has {
            Check::ok(format!("{hook}: the pre-commit framework runs it ({})", config.display()))
        } else {
            Check::fix(
                format!("{hook}: {} names git-guard, but no {hook} hook runs the framework", config.display()),
                "pre-commit install --hook-type pre-commit --hook-type post-commit --hook-type pre-push   (or prek install … alike; README, \"Hook managers\")",
            )
        });
    }
    all
}

/// Our own hook files, and any hook they chain.
fn check_own_hooks(dir: &Path, checks: &mut Vec<Check>) -> bool {
    let mut pre_push = false;
    for hook in HOOKS {
        let check = check_own_hook(dir, hook);
        if hook == "pre-push" {
            pre_push = check.fix.is_none();
        }
        checks.push(check);
        let chained = dir.join(format!("{hook}{CHAINED_SUFFIX}"));
        if chained.exists() && !is_executable(&chained) {
            checks.push(Check::fix(
                format!("{hook}: the chained hook {} is not executable, so it does not run (nor would git run it)", chained.display()),
                format!("chmod +x {}   (or delete it if it is unwanted)", chained.display()),
            ));
        }
    }
    pre_push
}

fn check_own_hook(dir: &Path, hook: &str) -> Check {
    let path = dir.join(hook);
    let Ok(content) = std::fs::read(&path) else {
        return Check::fix(
            format!("{hook}: no hook in {}", dir.display()),
            "git guard install",
        );
    };
    if !hook_script::is_ours(&content) {
        // pre-commit's `install` keeps an existing hook as `<name>.legacy` and runs it.
        let legacy = dir.join(format!("{hook}.legacy"));
        if std::fs::read(&legacy).is_ok_and(|c| hook_script::is_ours(&c)) && is_executable(&legacy)
        {
            return Check::ok(format!(
                "{hook}: the pre-commit framework's hook runs ours, kept as {}",
                legacy.display()
            ));
        }
        return Check::fix(
            format!("{hook}: {} is not git-guard's hook", path.display()),
            "git guard install   (keeps that hook and runs it first)",
        );
    }
    if !is_executable(&path) {
        return Check::fix(
            format!(
                "{hook}: {} is not executable, so git skips it",
                path.display()
            ),
            format!("chmod +x {}", path.display()),
        );
    }
    let text = String::from_utf8_lossy(&content);
    let binary = text
        .lines()
        .find_map(|l| l.strip_prefix("guard='"))
        .and_then(|rest| rest.strip_suffix('\''))
        .map(PathBuf::from);
    match binary {
        Some(b) if is_executable(&b) => {
            Check::ok(format!("{hook}: installed, runs {}", b.display()))
        }
        _ if on_path("git-guard").is_some() => Check::ok(format!(
            "{hook}: installed; its binary moved, so it runs git-guard from PATH"
        )),
        _ => Check::fix(
            format!(
                "{hook}: installed, but its binary is gone and git-guard is not on PATH: commits are blocked"
            ),
            "install git-guard, then run `git guard install` again",
        ),
    }
}

/// Hook managers call `git-guard` by name; our own hooks fall back to it.
fn check_binary(manager: Option<&Manager>, checks: &mut Vec<Check>) {
    match (on_path("git-guard"), manager) {
        (Some(path), _) => checks.push(Check::ok(format!("git-guard on PATH: {}", path.display()))),
        (None, Some(_)) => checks.push(Check::fix(
            "git-guard is not on PATH, and the hook manager calls it by name: commits are blocked",
            "cargo install --locked git-guard   (or put the binary in a directory on PATH)",
        )),
        (None, None) => checks.push(Check::ok(
            "git-guard is not on PATH (the hooks call it by its full path; `git guard` needs it on PATH)",
        )),
    }
}

/// The oldest git that can judge merges: `git merge-tree --write-tree` came in 2.38.
const MIN_GIT: (u32, u32) = (2, 38);

/// Merges are judged against git's own automatic merge, which needs git 2.38 or later.
fn check_git_version(repo: &Repo, checks: &mut Vec<Check>) {
    let out = repo.run_git(&["--version"]).unwrap_or_default();
    let text = String::from_utf8_lossy(&out);
    let version = text
        .trim()
        .strip_prefix("git version ")
        .unwrap_or("unknown");
    match parse_git_version(version) {
        Some(v) if v >= MIN_GIT => checks.push(Check::ok(
            "git is 2.38 or later: merges are judged against git's automatic merge (`git merge-tree --write-tree`)",
        )),
        _ => checks.push(Check::fix(
            format!(
                "git {version} is older than 2.38 (or unreadable): every merge fails closed, since `git merge-tree --write-tree` is what merges are judged against"
            ),
            "upgrade git to 2.38 or later",
        )),
    }
}

/// `2.47.3` (or `2.39.5 (Apple Git-154)`, `2.45.0.windows.1`) → (2, 47).
fn parse_git_version(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split(['.', ' ']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Amend/rebase carry notes; fetch brings origin's; push sends ours.
fn check_notes(repo: &Repo, notes_ref: &str, pre_push_runs_guard: bool, checks: &mut Vec<Check>) {
    if repo
        .config_values("notes.rewriteRef")
        .iter()
        .any(|v| v == notes_ref)
    {
        checks.push(Check::ok(format!(
            "notes.rewriteRef includes {notes_ref}: amend and rebase carry approvals"
        )));
    } else {
        checks.push(Check::fix(
            format!(
                "notes.rewriteRef does not include {notes_ref}: amend and rebase drop approvals"
            ),
            format!("git config --add notes.rewriteRef {notes_ref}"),
        ));
    }
    let config = repo.git.config().ok();
    for key in ["notes.rewrite.amend", "notes.rewrite.rebase"] {
        if config.as_ref().and_then(|c| c.get_bool(key).ok()) == Some(false) {
            checks.push(Check::fix(
                format!("{key} is false: approvals are dropped on rewrite"),
                format!("git config --unset {key}"),
            ));
        }
    }
    if repo.git.find_remote("origin").is_err() {
        checks.push(Check::ok("no remote `origin`: notes are not shared yet"));
        return;
    }
    let fetches = repo.config_values("remote.origin.fetch");
    let fetched = fetches.iter().any(|spec| {
        let src = spec.trim_start_matches('+').split(':').next().unwrap_or("");
        src == notes_ref || src == "refs/notes/*" || src == format!("{notes_ref}*")
    });
    if fetched {
        checks.push(Check::ok(format!("git fetch brings origin's {notes_ref}")));
    } else {
        checks.push(Check::fix(
            format!(
                "remote.origin.fetch does not fetch {notes_ref}: teammates' approvals never arrive"
            ),
            format!(
                "git config --add remote.origin.fetch '{}'",
                note_store::fetch_refspec(notes_ref)
            ),
        ));
    }
    let pushed = pre_push_runs_guard
        || repo
            .config_values("remote.origin.push")
            .iter()
            .any(|s| s.contains(notes_ref));
    if pushed {
        checks.push(Check::ok(format!(
            "git push sends {notes_ref} (the pre-push hook pushes it)"
        )));
    } else {
        checks.push(Check::fix(
            format!("nothing pushes {notes_ref}: CI will not see the approvals"),
            "git guard install   (the pre-push hook pushes the notes)",
        ));
    }
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The first `name` on PATH that is an executable file.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_versions_parse_and_compare() {
        assert_eq!(parse_git_version("2.47.3"), Some((2, 47)));
        assert_eq!(parse_git_version("2.39.5 (Apple Git-154)"), Some((2, 39)));
        assert_eq!(parse_git_version("2.45.0.windows.1"), Some((2, 45)));
        assert!(parse_git_version("2.37.1").unwrap() < MIN_GIT);
        assert!(parse_git_version("3.0").unwrap() >= MIN_GIT);
        assert_eq!(parse_git_version("unknown"), None);
    }
}
