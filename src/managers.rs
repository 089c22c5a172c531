//! Other hook managers (husky, lefthook, pre-commit/prek), so that `install` works with
//! the one a team already runs instead of over it.
//!
//! - husky owns its hooks directory and regenerates it, and its wrappers find the team's
//!   script by their own file name, so chaining by rename would silently skip them. We
//!   add a marked block to the team's scripts in `.husky/` instead.
//! - lefthook rewrites `.git/hooks` on `lefthook install`: git-guard belongs in
//!   `lefthook.yml`, and `install` says so.
//! - pre-commit and prek run git-guard from `.pre-commit-config.yaml`
//!   (`.pre-commit-hooks.yaml` in this repository); when that config names git-guard
//!   there is nothing to install. Otherwise their hooks are chained like any other.

use std::path::{Path, PathBuf};

/// A hook manager found in a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Manager {
    /// husky: git runs its wrappers, which run the team's scripts in `scripts`.
    Husky {
        /// The `.husky` directory holding the team's scripts.
        scripts: PathBuf,
    },
    /// lefthook, configured by `config`.
    Lefthook {
        /// lefthook.yml (or one of its other names).
        config: PathBuf,
        /// Whether the config already calls `git guard hook` / `git-guard hook`.
        runs_guard: bool,
    },
    /// The pre-commit framework (or prek) with a config that names git-guard.
    PreCommit {
        /// .pre-commit-config.yaml.
        config: PathBuf,
    },
}

/// The names lefthook reads its config from.
const LEFTHOOK_CONFIGS: [&str; 4] = [
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
];

/// Finds the manager that owns this repository's hooks, if any.
pub fn detect(work_tree: &Path, hooks_dir: &Path) -> Option<Manager> {
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    // husky 9 sets core.hooksPath=.husky/_; husky 4-8 set it to .husky itself.
    let husky = match name(hooks_dir).as_deref() {
        Some("_") => hooks_dir
            .parent()
            .filter(|p| name(p).as_deref() == Some(".husky")),
        Some(".husky") => Some(hooks_dir),
        _ => None,
    };
    if let Some(scripts) = husky {
        return Some(Manager::Husky {
            scripts: scripts.to_path_buf(),
        });
    }
    for file in LEFTHOOK_CONFIGS {
        let config = work_tree.join(file);
        if let Ok(text) = std::fs::read_to_string(&config) {
            let runs_guard = text.contains("git guard hook") || text.contains("git-guard hook");
            return Some(Manager::Lefthook { config, runs_guard });
        }
    }
    let config = work_tree.join(".pre-commit-config.yaml");
    match std::fs::read_to_string(&config) {
        Ok(text) if text.contains("git-guard") => Some(Manager::PreCommit { config }),
        _ => None,
    }
}

/// The first line of the block git-guard adds to a husky script.
pub const BLOCK_BEGIN: &str =
    "# >>> git-guard: added by `git guard install`; `git guard uninstall` removes it";
/// The last line of that block.
pub const BLOCK_END: &str = "# <<< git-guard";
/// What a husky script created by git-guard starts with.
const SHEBANG: &str = "#!/usr/bin/env sh\n";

/// The block for one hook: fail closed when git-guard is missing, else run it.
pub fn husky_block(hook: &str) -> String {
    format!(
        "{BLOCK_BEGIN}\n\
         command -v git-guard >/dev/null 2>&1 || {{ echo \"error: git-guard is not on PATH, so the {hook} hook cannot check this change\" >&2; echo \"hint: install it (cargo install --locked git-guard), or remove this block from $0\" >&2; exit 1; }}\n\
         git-guard hook {hook} \"$@\" || exit $?\n\
         {BLOCK_END}\n"
    )
}

/// Whether a husky script already carries our block.
pub fn has_block(script: &str) -> bool {
    script.lines().any(|l| l == BLOCK_BEGIN)
}

/// `script` (absent: `None`) with our block appended; unchanged when it is there.
pub fn with_block(script: Option<&str>, hook: &str) -> String {
    match script {
        Some(text) if has_block(text) => text.to_string(),
        Some(text) if text.is_empty() || text.ends_with('\n') => {
            format!("{text}{}", husky_block(hook))
        }
        Some(text) => format!("{text}\n{}", husky_block(hook)),
        None => format!("{SHEBANG}{}", husky_block(hook)),
    }
}

/// `script` without our block; `None` when nothing else is left of a file we created.
pub fn without_block(script: &str) -> Option<String> {
    let mut kept = String::with_capacity(script.len());
    let mut inside = false;
    for line in script.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if bare == BLOCK_BEGIN {
            inside = true;
        } else if inside && bare == BLOCK_END {
            inside = false;
        } else if !inside {
            kept.push_str(line);
        }
    }
    (kept != SHEBANG && !kept.is_empty()).then_some(kept)
}

/// The lines to add to `lefthook.yml`.
pub const LEFTHOOK_SNIPPET: &str = "pre-commit:
  commands:
    git-guard:
      run: git guard hook pre-commit
      interactive: true
post-commit:
  commands:
    git-guard:
      run: git guard hook post-commit
pre-push:
  commands:
    git-guard:
      run: git guard hook pre-push {1}
      use_stdin: true
      interactive: true
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_added_once_and_removed_byte_for_byte() {
        let team = "npm test\n";
        let added = with_block(Some(team), "pre-commit");
        assert!(added.starts_with(team) && has_block(&added));
        assert_eq!(with_block(Some(&added), "pre-commit"), added);
        assert_eq!(without_block(&added).as_deref(), Some(team));

        let created = with_block(None, "post-commit");
        assert!(created.starts_with("#!/usr/bin/env sh\n"));
        assert_eq!(without_block(&created), None);

        let unterminated = with_block(Some("npm test"), "pre-push");
        assert!(unterminated.starts_with("npm test\n# >>> git-guard"));
    }

    #[test]
    fn husky_is_found_by_its_hooks_path() {
        let tree = Path::new("/r");
        assert_eq!(
            detect(tree, Path::new("/r/.husky/_")),
            Some(Manager::Husky {
                scripts: "/r/.husky".into()
            })
        );
        assert_eq!(
            detect(tree, Path::new("/r/.husky")),
            Some(Manager::Husky {
                scripts: "/r/.husky".into()
            })
        );
        assert_eq!(detect(tree, Path::new("/r/.git/hooks")), None);
    }
}
