//! Which paths are protected: gitignore / CODEOWNERS patterns compiled onto `globset`.
//!
//! Semantics (the subset of gitignore that a path list needs):
//! - a pattern without `/` (a trailing one aside) matches at any depth: `conftest.py`
//!   protects `src/conftest.py`;
//! - a pattern with a `/` is anchored at the root; a leading `/` only anchors;
//! - `*` and `?` stay within one path component, `**` crosses directories;
//! - a pattern also matches everything inside a directory it names (`tests` protects
//!   `tests/a.py`); a trailing `/` matches *only* inside such a directory;
//! - `!pattern` re-includes; the last pattern that matches a path decides;
//! - `guard.toml` at the root is always protected.
//!
//! Paths are bytes (git's own representation), never required to be UTF-8.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use anyhow::{Context, bail};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::config::{self, Config, FILE_NAME, KeyFile, KeyPath};
use crate::exit::hinted;
use crate::repo::{Repo, short_id};

/// The pattern reported for `guard.toml`, which no configuration can unprotect.
pub const ALWAYS: &str = "guard.toml (always protected)";

/// The pattern reported for the `[override] signers` file, likewise always protected.
pub const SIGNERS: &str = "[override] signers (always protected)";

/// Where the policy in force was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicySource {
    /// `guard.toml` in this commit (short id).
    Commit(String),
    /// `guard.toml` in the work tree, not yet committed.
    WorkTree,
    /// No `guard.toml` anywhere: the built-in defaults.
    Defaults,
}

/// The policy in force for one command: the parsed `guard.toml`, its path patterns
/// compiled once, and where it was read from.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The policy as `guard.toml` states it.
    pub config: Config,
    /// `[protect].paths`, compiled.
    pub paths: Policy,
    /// `[protect.keys]`, its file patterns compiled.
    pub keys: KeyRules,
    /// Where it came from.
    pub source: PolicySource,
    /// The `[override] signers` file (OpenSSH `allowed_signers`), read from the same
    /// place as the policy (the base commit in CI): `None` when no signers file is set,
    /// empty when it is set but missing there.
    pub signers: Option<String>,
}

impl Rules {
    /// Parses `guard.toml` bytes and compiles its patterns; `origin` names the file in
    /// errors (`guard.toml`, `guard.toml at 1a2b3c4`).
    pub fn parse(bytes: &[u8], origin: &str, source: PolicySource) -> anyhow::Result<Rules> {
        Rules::compile(Config::parse(bytes, origin)?, origin, source)
    }

    /// Compiles a parsed policy; an invalid pattern is an error naming it.
    pub fn compile(config: Config, origin: &str, source: PolicySource) -> anyhow::Result<Rules> {
        let paths = Policy::new(&config.protect.paths)
            .map(|p| p.with_signers(&config.approval.signers))
            .map_err(|e| {
                let message = format!("{origin}: [protect].paths: {e:#}");
                hinted(
                    message,
                    "patterns use gitignore syntax: `tests/**`, `*.snap`, `!tests/data/big.bin`",
                )
            })?;
        let keys = KeyRules::new(&config.protect.keys).map_err(|e| {
            hinted(
                format!("{origin}: [protect.keys]: {e:#}"),
                "file patterns use gitignore syntax: \"pyproject.toml\", \"services/*/package.json\"",
            )
        })?;
        Ok(Rules {
            config,
            paths,
            keys,
            source,
            signers: None,
        })
    }

    /// The built-in defaults.
    pub fn defaults() -> Rules {
        let config = Config::default();
        let paths = Policy::new(&config.protect.paths).expect("the default patterns compile");
        let keys = KeyRules::new(&config.protect.keys).expect("the default key patterns compile");
        Rules {
            config,
            paths,
            keys,
            source: PolicySource::Defaults,
            signers: None,
        }
    }

    /// The policy for a change built on `base`: `guard.toml` as committed there.
    ///
    /// With no commit yet, or none carrying `guard.toml`, the work-tree file applies (so
    /// a fresh `git guard init` takes effect at once), else the defaults.
    pub fn load_for(repo: &Repo, base: Option<&git2::Commit<'_>>) -> anyhow::Result<Rules> {
        if let Some(commit) = base {
            let short = short_id(commit.id());
            if let Some(bytes) = repo.blob_at(commit, config::FILE_NAME)? {
                let origin = format!("{} at {short}", config::FILE_NAME);
                let mut rules = Rules::parse(&bytes, &origin, PolicySource::Commit(short))?;
                let signers = rules.config.approval.signers.clone();
                if !signers.is_empty() {
                    let bytes = repo.blob_at(commit, &signers)?.unwrap_or_default();
                    rules.signers = Some(String::from_utf8_lossy(&bytes).into_owned());
                }
                return Ok(rules);
            }
        }
        if let Some(dir) = repo.git.workdir() {
            let path = dir.join(config::FILE_NAME);
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let mut rules =
                        Rules::parse(&bytes, config::FILE_NAME, PolicySource::WorkTree)?;
                    let signers = rules.config.approval.signers.clone();
                    if !signers.is_empty() {
                        let text = std::fs::read(dir.join(&signers)).unwrap_or_default();
                        rules.signers = Some(String::from_utf8_lossy(&text).into_owned());
                    }
                    return Ok(rules);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            }
        }
        Ok(Rules::defaults())
    }

    /// The policy in force for the next commit: the one at HEAD.
    pub fn load(repo: &Repo) -> anyhow::Result<Rules> {
        let head = repo.head_commit()?;
        Rules::load_for(repo, head.as_ref())
    }
}

/// A compiled `[protect].paths` list.
#[derive(Debug, Clone)]
pub struct Policy {
    set: GlobSet,
    /// For each glob in `set`, the index of the pattern it came from.
    glob_rule: Vec<usize>,
    rules: Vec<Rule>,
    /// The `[override] signers` file, always protected like `guard.toml`.
    signers: Option<Vec<u8>>,
}

#[derive(Debug, Clone)]
struct Rule {
    pattern: String,
    negated: bool,
}

impl Policy {
    /// Compiles the patterns; an invalid one is an error that names it.
    pub fn new(patterns: &[String]) -> anyhow::Result<Policy> {
        let mut builder = GlobSetBuilder::new();
        let mut glob_rule = Vec::new();
        let mut rules = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            let (negated, globs) = translate(pattern)?;
            for glob in globs {
                let compiled = GlobBuilder::new(&glob)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .with_context(|| format!("invalid pattern `{pattern}`"))?;
                builder.add(compiled);
                glob_rule.push(index);
            }
            rules.push(Rule {
                pattern: pattern.clone(),
                negated,
            });
        }
        let set = builder.build().context("compiling [protect].paths")?;
        Ok(Policy {
            set,
            glob_rule,
            rules,
            signers: None,
        })
    }

    /// Also protects the signers file at `path` (root-relative), whatever the patterns say.
    pub fn with_signers(mut self, path: &str) -> Policy {
        let path = path.trim_start_matches("./").trim_start_matches('/');
        if !path.is_empty() {
            self.signers = Some(path.as_bytes().to_vec());
        }
        self
    }

    /// The pattern that protects `path`, or `None` when it is not protected.
    pub fn protecting_pattern(&self, path: &[u8]) -> Option<&str> {
        if path == FILE_NAME.as_bytes() {
            return Some(ALWAYS);
        }
        if self.signers.as_deref() == Some(path) {
            return Some(SIGNERS);
        }
        if self.rules.is_empty() {
            return None;
        }
        let path = Path::new(OsStr::from_bytes(path));
        let last = self
            .set
            .matches(path)
            .into_iter()
            .map(|glob| self.glob_rule[glob])
            .max()?;
        let rule = &self.rules[last];
        (!rule.negated).then_some(rule.pattern.as_str())
    }

    /// The pattern that protects `path` taken as a directory (a submodule's gitlink):
    /// the path itself, or anything inside it whatever its name. A gitlink at `tests`
    /// is protected by `tests/**`; one at `vendor/lib` is not protected by `*.snap`.
    pub fn protecting_pattern_of_dir(&self, path: &[u8]) -> Option<&str> {
        if let Some(pattern) = self.protecting_pattern(path) {
            return Some(pattern);
        }
        // A file name no pattern can name (git paths never hold NUL): only patterns
        // covering the whole directory match it.
        let mut inside = path.to_vec();
        inside.extend_from_slice(b"/\0");
        self.protecting_pattern(&inside)
    }

    /// Whether `path` is protected.
    pub fn is_protected(&self, path: &[u8]) -> bool {
        self.protecting_pattern(path).is_some()
    }
}

/// A compiled `[protect.keys]` table: for each file pattern, its matcher and keys.
#[derive(Debug, Clone, Default)]
pub struct KeyRules {
    files: Vec<(KeyFile, Policy, Vec<KeyPath>)>,
}

impl KeyRules {
    /// Compiles the file patterns; an invalid one is an error that names it.
    pub fn new(table: &BTreeMap<KeyFile, Vec<KeyPath>>) -> anyhow::Result<KeyRules> {
        let files = table
            .iter()
            .map(|(file, keys)| {
                let policy = Policy::new(std::slice::from_ref(&file.as_str().to_string()))?;
                Ok((file.clone(), policy, keys.clone()))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(KeyRules { files })
    }

    /// The patterns that name `path`, each with its keys (several patterns may name
    /// one file; their keys all apply). `guard.toml` is never read for keys: it is
    /// protected whole.
    pub fn for_path(&self, path: &[u8]) -> Vec<(&KeyFile, &[KeyPath])> {
        if path == FILE_NAME.as_bytes() {
            return Vec::new();
        }
        self.files
            .iter()
            .filter(|(_, policy, _)| policy.is_protected(path))
            .map(|(file, _, keys)| (file, keys.as_slice()))
            .collect()
    }

    /// Whether the table names no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Turns one gitignore-style pattern into globs over whole repository paths.
fn translate(pattern: &str) -> anyhow::Result<(bool, Vec<String>)> {
    let (negated, body) = match pattern.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (
            false,
            pattern
                .strip_prefix("\\!")
                .map_or(pattern, |_| &pattern[1..]),
        ),
    };
    let (dir_only, body) = match body.strip_suffix('/') {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    let anchored = body.contains('/');
    let body = body.strip_prefix('/').unwrap_or(body);
    if body.is_empty() {
        bail!("invalid pattern `{pattern}`: it matches nothing");
    }
    let base = if anchored || body.starts_with("**") {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    let inside = if base.ends_with("/**") {
        None
    } else {
        Some(format!("{base}/**"))
    };
    let globs = match (dir_only, inside) {
        (true, Some(inside)) => vec![inside],
        (true, None) | (false, None) => vec![base],
        (false, Some(inside)) => vec![base, inside],
    };
    Ok((negated, globs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Protect;

    fn policy(patterns: &[&str]) -> Policy {
        Policy::new(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>()).unwrap()
    }

    /// `protected!(policy, path => pattern)` and `unprotected!(policy, path)`, as a table.
    macro_rules! protected {
        ($policy:expr, $($path:expr => $pattern:expr),+ $(,)?) => {
            $(assert_eq!($policy.protecting_pattern($path.as_ref()), Some($pattern), "path {:?}", $path);)+
        };
    }
    macro_rules! unprotected {
        ($policy:expr, $($path:expr),+ $(,)?) => {
            $(assert_eq!($policy.protecting_pattern($path.as_ref()), None, "path {:?}", $path);)+
        };
    }

    #[test]
    fn invalid_glob_names_the_pattern() {
        let e = Rules::parse(
            b"[protect]\npaths = [\"tests/[abc\"]\n",
            "guard.toml",
            PolicySource::WorkTree,
        )
        .unwrap_err();
        let e = format!("{e:#}");
        assert!(e.contains("`tests/[abc`"), "{e}");
    }

    #[test]
    fn a_gitlink_is_matched_as_a_directory() {
        let p = policy(&[
            "tests/**",
            "**/testdata/**",
            "*.snap",
            "conftest.py",
            "spec",
            "!tests/vendored",
        ]);
        let dir = |path: &str| p.protecting_pattern_of_dir(path.as_bytes());
        assert_eq!(dir("tests"), Some("tests/**"));
        assert_eq!(dir("tests/sub"), Some("tests/**"));
        assert_eq!(dir("pkg/testdata"), Some("**/testdata/**"));
        assert_eq!(dir("a/spec"), Some("spec"));
        assert_eq!(dir("vendor/lib"), None);
        assert_eq!(dir("x.snap.d"), None);
        assert_eq!(dir("tests/vendored"), None);
        // The same path as a file: `tests` is no file under `tests/**`.
        assert_eq!(p.protecting_pattern(b"tests"), None);
    }

    #[test]
    fn default_seed_patterns() {
        let p = Policy::new(&Protect::default().paths).unwrap();
        protected!(p,
            "tests/test_invoice_rounding.py" => "tests/**",
            "tests/a/b/c/deep.py" => "tests/**",
            "test/x_test.go" => "test/**",
            "src/components/__snapshots__/button.test.js.snap" => "*.snap",
            "__snapshots__/root.txt" => "**/__snapshots__/**",
            "web/__snapshots__/deep/x.txt" => "**/__snapshots__/**",
            "a.snap" => "*.snap",
            "deep/dir/b.snap" => "*.snap",
            "conftest.py" => "conftest.py",
            "src/conftest.py" => "conftest.py",
            "pkg/sub/conftest.py" => "conftest.py",
            "pytest.ini" => "pytest.ini",
            "services/api/pytest.ini" => "pytest.ini",
            "tox.ini" => "tox.ini",
            "jest.config.js" => "jest.config.*",
            "web/jest.config.ts" => "jest.config.*",
            "vitest.config.mts" => "vitest.config.*",
            ".github/workflows/ci.yml" => ".github/workflows/**",
            ".gitlab-ci.yml" => ".gitlab-ci.yml",
            ".ci/run" => ".ci/**",
            "guard.toml" => ALWAYS,
        );
        unprotected!(
            p,
            "src/invoice.py",
            "checks/test_invoice_rounding.py",
            "src/tests.py",
            "docs/tests/readme.md",
            "mytests/a.py",
            "tests",
            "testsuite/a.py",
            "snap",
            "a.snapshot",
            "conftest.pyc",
            "sub/guard.toml",
            ".github/dependabot.yml",
            "README.md",
        );
    }

    #[test]
    fn unanchored_pattern_matches_at_any_depth_and_inside_directories() {
        let p = policy(&["fixtures"]);
        protected!(p, "fixtures" => "fixtures", "a/fixtures" => "fixtures",
            "a/fixtures/b.json" => "fixtures", "fixtures/x/y" => "fixtures");
        unprotected!(p, "myfixtures", "fixtures.json", "a/fixturesx/b");
    }

    #[test]
    fn slash_anchors_at_the_root() {
        let p = policy(&["src/fixtures", "/top.txt"]);
        protected!(p, "src/fixtures/a.json" => "src/fixtures", "top.txt" => "/top.txt");
        unprotected!(p, "lib/src/fixtures/a.json", "sub/top.txt");
    }

    #[test]
    fn trailing_slash_matches_only_inside_a_directory() {
        let p = policy(&["snapshots/"]);
        protected!(p, "snapshots/a" => "snapshots/", "x/snapshots/a" => "snapshots/");
        unprotected!(p, "snapshots", "x/snapshots");
    }

    #[test]
    fn single_star_does_not_cross_directories() {
        let p = policy(&["tests/*.py"]);
        protected!(p, "tests/a.py" => "tests/*.py");
        unprotected!(p, "tests/sub/a.py", "other/tests/a.py");
    }

    #[test]
    fn double_star_in_the_middle() {
        let p = policy(&["a/**/b.txt"]);
        protected!(p, "a/b.txt" => "a/**/b.txt", "a/x/y/b.txt" => "a/**/b.txt");
        unprotected!(p, "b.txt", "z/a/b.txt");
    }

    #[test]
    fn negation_reincludes_and_last_match_wins() {
        let p = policy(&["tests/**", "!tests/data/**", "tests/data/golden/**"]);
        protected!(p, "tests/a.py" => "tests/**",
            "tests/data/golden/x.json" => "tests/data/golden/**");
        unprotected!(p, "tests/data/big.bin", "tests/data/sub/c.csv");
    }

    #[test]
    fn negation_cannot_unprotect_guard_toml() {
        let p = policy(&["!guard.toml", "!**"]);
        protected!(p, "guard.toml" => ALWAYS);
    }

    #[test]
    fn escaped_bang_is_a_literal() {
        let p = policy(&["\\!important"]);
        protected!(p, "!important" => "\\!important");
    }

    #[test]
    fn question_mark_and_classes() {
        let p = policy(&["test_?.py", "data[0-9].csv"]);
        protected!(p, "x/test_a.py" => "test_?.py", "data7.csv" => "data[0-9].csv");
        unprotected!(p, "test_ab.py", "test_/.py", "datax.csv");
    }

    #[test]
    fn byte_paths_spaces_unicode_newlines_and_non_utf8() {
        let p = policy(&["tests/**", "*.snap"]);
        protected!(p,
            "tests/with space.py" => "tests/**",
            "tests/ünïcode/tëst.py" => "tests/**",
            "tests/new\nline.py" => "tests/**",
            b"tests/\xff\xfe.py".as_slice() => "tests/**",
            b"x/\xffname.snap".as_slice() => "*.snap",
        );
        unprotected!(p, b"src/\xff.py".as_slice());
    }

    #[test]
    fn empty_list_protects_only_guard_toml() {
        let p = policy(&[]);
        protected!(p, "guard.toml" => ALWAYS);
        unprotected!(p, "tests/a.py");
    }

    #[test]
    fn invalid_patterns_are_named() {
        for bad in ["tests/[abc", "{a,b", "!", "/", ""] {
            let e = Policy::new(&[bad.to_string()]).unwrap_err();
            assert!(
                format!("{e:#}").contains(&format!("`{bad}`")),
                "{bad}: {e:#}"
            );
        }
    }
}
