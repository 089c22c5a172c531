//! What `git guard init` finds in the repository: where tests live beyond the default
//! patterns, which runner settings and CI systems exist — so the policy it writes fits.

use std::path::Path;

/// What the scan found, for the policy and for the lines `init` prints.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Patterns to add to `[protect] paths`, with why.
    pub extra_paths: Vec<(String, String)>,
    /// Runner settings found (already covered by the default keys or paths).
    pub runners: Vec<String>,
    /// CI systems found (already covered by the default paths).
    pub ci: Vec<String>,
    /// Workflow files that look like they run no tests (publishing, bots).
    pub quiet_workflows: Vec<String>,
}

/// Scans the tracked files (`files`, root-relative) and the work tree at `root`.
pub fn scan(root: &Path, files: &[String]) -> Found {
    let mut found = Found::default();
    let has = |pred: &dyn Fn(&str) -> bool| files.iter().any(|f| pred(f));
    let mut add = |pattern: &str, why: &str| {
        found
            .extra_paths
            .push((pattern.to_string(), why.to_string()))
    };
    if has(&|f| f.starts_with("src/test/")) {
        add("src/test/**", "Maven/Gradle tests under src/test/");
    }
    if has(&|f| f.ends_with("_test.go")) {
        add("*_test.go", "Go tests beside the code (*_test.go)");
    }
    for ext in ["ts", "tsx", "js", "jsx", "mjs"] {
        for kind in ["test", "spec"] {
            let suffix = format!(".{kind}.{ext}");
            if has(&|f| f.ends_with(&suffix)) {
                add(
                    &format!("*{suffix}"),
                    "JavaScript/TypeScript tests beside the code",
                );
            }
        }
    }
    if has(&|f| f.starts_with("spec/") && f.ends_with("_spec.rb")) {
        add("spec/**", "RSpec specs under spec/");
    }
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap_or_default();
    if read("pyproject.toml").contains("[tool.pytest") {
        found
            .runners
            .push("pytest settings in pyproject.toml (keys tool.pytest…, protected by key)".into());
    }
    if read("setup.cfg").contains("[tool:pytest]") {
        found
            .runners
            .push("pytest settings in setup.cfg ([tool:pytest], protected by key)".into());
    }
    if !read("tox.ini").is_empty() {
        found.runners.push("tox.ini (protected whole)".into());
    }
    let package = read("package.json");
    for runner in ["jest", "vitest", "mocha"] {
        if package.contains(&format!("\"{runner}\"")) {
            found.runners.push(format!(
                "{runner} in package.json (its settings and scripts.test, protected by key)"
            ));
        }
    }
    for (path, name) in [
        (".github/workflows/", "GitHub Actions"),
        (".gitlab-ci.yml", "GitLab CI"),
        (".circleci/", "CircleCI"),
        ("Jenkinsfile", "Jenkins"),
        ("azure-pipelines.yml", "Azure Pipelines"),
        (".buildkite/", "Buildkite"),
        ("bitbucket-pipelines.yml", "Bitbucket Pipelines"),
        (".travis.yml", "Travis CI"),
    ] {
        if has(&|f| f.starts_with(path)) {
            found.ci.push(name.to_string());
        }
    }
    for f in files.iter().filter(|f| f.starts_with(".github/workflows/")) {
        let name = f.to_ascii_lowercase();
        if [
            "release",
            "publish",
            "deploy",
            "docs",
            "dependabot",
            "lock",
            "stale",
            "label",
        ]
        .iter()
        .any(|w| name.contains(w))
        {
            found.quiet_workflows.push(f.clone());
        }
    }
    found
}

/// `guard.toml`'s text with the found patterns added to `paths`, and the `[ledger]`
/// section (for `git guard run`, which a new user does not need yet) commented out.
pub fn fit(example: &str, found: &Found) -> String {
    let mut text = example.to_string();
    if !found.extra_paths.is_empty() {
        let extra: Vec<String> = found
            .extra_paths
            .iter()
            .map(|(p, why)| format!("  \"{p}\",   # found: {why}\n"))
            .collect();
        text = text.replacen(
            "  \".travis.yml\", \".ci/**\", \"CODEOWNERS\", \".github/CODEOWNERS\",\n]",
            &format!(
                "  \".travis.yml\", \".ci/**\", \"CODEOWNERS\", \".github/CODEOWNERS\",\n{}]",
                extra.concat()
            ),
            1,
        );
    }
    text.replacen(
        "[ledger]\n# `git guard run` refuses to start once the ledger holds this many attempts.\nmax_attempts = 4",
        "# [ledger] (optional: the attempt budget of `git guard run`, for agents)\n# max_attempts = 4",
        1,
    )
}
