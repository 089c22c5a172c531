//! `git guard ci`: re-check a whole range where `--no-verify` cannot reach.
//!
//! The base, labels and notes come from the CI environment (GitHub Actions, GitLab, or
//! plain variables; flags win). The policy is read from `guard.toml` **at the base
//! commit**, so a branch cannot switch off its own check by editing it.

use std::io::Write;

use anyhow::Context;

use crate::exit::{Outcome, hinted};
use crate::judge::{self, Approvers, Revs};
use crate::note_store::{self, NoteStore};
use crate::policy::Rules;
use crate::render::{self, CiFormat};
use crate::repo::Repo;
use crate::reports;
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::{Checked, CiContext, CiSummary};

/// The flags of `git guard ci`.
#[derive(Debug, Clone, Default)]
pub struct CiArgs {
    /// Base revision (wins over the environment).
    pub base: Option<String>,
    /// Head revision (default HEAD).
    pub head: Option<String>,
    /// Comma-separated labels (wins over the environment).
    pub labels: Option<String>,
    /// Do not fetch notes, base or history from origin.
    pub no_fetch: bool,
    /// Glob of the head's JUnit XML reports (`--results`).
    pub results: Option<String>,
    /// Glob of the base's JUnit XML reports (`--baseline`).
    pub baseline: Option<String>,
    /// Output format.
    pub format: CiFormat,
}

/// What the CI environment says about the change under review.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// Which CI this is, for the report.
    pub provider: &'static str,
    /// The base revision to compare with.
    pub base: Option<String>,
    /// A base branch name that may need fetching from origin (GitHub).
    pub base_branch: Option<String>,
    /// The head to check when CI checked out something else (GitHub's synthetic merge
    /// commit, GitLab's merged-results pipelines): the branch's own tip.
    pub head: Option<String>,
    /// The PR/MR labels.
    pub labels: Vec<String>,
}

/// Reads the environment through `var` (so tests can pass their own).
pub fn detect(var: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Environment> {
    let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    let split = |list: String| split_labels(&list);
    if let Some(branch) = set("GITHUB_BASE_REF") {
        let (labels, head) = match set("GITHUB_EVENT_PATH") {
            Some(path) => github_event(&path)?,
            None => (Vec::new(), None),
        };
        return Ok(Environment {
            provider: "GitHub Actions",
            base: Some(format!("origin/{branch}")),
            base_branch: Some(branch),
            head,
            labels,
        });
    }
    if let Some(sha) = set("CI_MERGE_REQUEST_DIFF_BASE_SHA") {
        return Ok(Environment {
            provider: "GitLab CI",
            base: Some(sha),
            base_branch: None,
            head: set("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"),
            labels: set("CI_MERGE_REQUEST_LABELS")
                .map(split)
                .unwrap_or_default(),
        });
    }
    Ok(Environment {
        provider: "environment",
        base: set("GUARD_BASE"),
        base_branch: None,
        head: None,
        labels: set("GUARD_LABELS")
            .or_else(|| set("PR_LABELS"))
            .map(split)
            .unwrap_or_default(),
    })
}

/// Label names and head sha of the pull request in a GitHub event file.
fn github_event(path: &str) -> anyhow::Result<(Vec<String>, Option<String>)> {
    let text = std::fs::read(path).with_context(|| format!("reading GITHUB_EVENT_PATH {path}"))?;
    let event: serde_json::Value = serde_json::from_slice(&text).map_err(|e| {
        hinted(
            format!("GITHUB_EVENT_PATH {path} is not JSON: {e}"),
            "run inside GitHub Actions, or pass --labels",
        )
    })?;
    let labels = event["pull_request"]["labels"]
        .as_array()
        .map(|labels| {
            labels
                .iter()
                .filter_map(|l| l["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let head = event["pull_request"]["head"]["sha"]
        .as_str()
        .map(String::from);
    Ok((labels, head))
}

/// Runs the re-check.
pub fn run(
    args: CiArgs,
    ui: &Ui,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let env = detect(&|name| std::env::var(name).ok())?;
    // The reports first: input that cannot be trusted stops the run before any work.
    // They are kept even when the range edits its own workflow (below): dropping them
    // would only check less.
    let cwd = std::env::current_dir()?;
    let sides = reports::load_pair(&cwd, args.results.as_deref(), args.baseline.as_deref())?;
    let mut repo = Repo::open()?;
    let fetch = !args.no_fetch && repo.git.find_remote("origin").is_ok();
    if repo.git.is_shallow() {
        repo = unshallow(repo, fetch)?;
    }
    let (mut base, mut head) = base_and_head(&repo, &args, &env, fetch)?;
    // A run whose own workflow the range edits is the pull request's to steer: its
    // flags and labels are not trusted, only what the environment says.
    let untrusted = self_edited_workflow(&base, &head)?;
    let mut args = args;
    let mut env = env;
    if untrusted.is_some() {
        args.base = None;
        args.head = None;
        args.labels = None;
        env.labels.clear();
        if env.base.is_some() {
            (base, head) = base_and_head(&repo, &args, &env, fetch)?;
        }
    }
    let rules = Rules::load_for(&repo, Some(&base))?;
    let notes_ref = rules.config.approval.notes_ref.clone();
    let mut refs = vec![notes_ref.clone()];
    if fetch {
        match note_store::fetch_copy(&repo, "origin", &notes_ref) {
            Ok(Some(copy)) => refs.push(copy),
            Ok(None) => {}
            Err(e) => render::ci_notes_fetch_failed(err, &notes_ref, &format!("{e:#}"))?,
        }
    }
    let labels: Vec<String> = match &args.labels {
        Some(list) => split_labels(list),
        None => env.labels.clone(),
    };
    let label = labels
        .iter()
        .find(|l| **l == rules.config.approval.label)
        .cloned();

    let progress = std::cell::OnceCell::new();
    let store = NoteStore::new(&repo, refs);
    let verifier = Verifier::new(&rules);
    let approvers = Approvers {
        notes: &store,
        label: label.as_deref(),
        base: Some(base.id()),
        verifier: &verifier,
    };
    let tick = |done: usize, total: usize| {
        progress
            .get_or_init(|| render::ci_progress(total))
            .set_position(done as u64)
    };
    let revs = Revs::between(Some(base.id()), head.id());
    let judged = judge::range(&repo, &revs, &rules, &approvers, &tick)?;
    let before_adoption = judged.before_adoption;
    let judged = judged.commits;
    if let Some(bar) = progress.get() {
        bar.finish_and_clear();
    }
    let tests = match &sides {
        Some((base_set, head_set)) => {
            let ids: Vec<git2::Oid> = judged.iter().map(|(id, _)| *id).collect();
            Some(judge::tests(
                &repo,
                (base_set, head_set),
                &cwd,
                &ids,
                (Some(base.id()), head.id()),
                &rules,
                &approvers,
            )?)
        }
        None => None,
    };
    let checked: Vec<Checked> = judged.into_iter().map(|(_, c)| c).collect();

    let context = CiContext {
        provider: env.provider.to_string(),
        base: base.id().to_string(),
        head: head.id().to_string(),
        policy: render::policy_source(&rules.source),
        labels,
        label_applied: label,
        override_label: rules.config.approval.label.clone(),
        untrusted_workflow: untrusted,
        before_adoption,
    };
    let summary = CiSummary::new(context, checked, tests);
    write_summary(ui, args.format, &summary, out)?;
    Ok(if summary.blocked {
        Outcome::Blocked
    } else {
        Outcome::Allowed
    })
}

/// The workflow file running this check on GitHub (`GITHUB_WORKFLOW_REF`), when the
/// range changes it; `None` elsewhere or when it is the base's own.
fn self_edited_workflow(
    base: &git2::Commit<'_>,
    head: &git2::Commit<'_>,
) -> anyhow::Result<Option<String>> {
    let Some(path) = std::env::var("GITHUB_WORKFLOW_REF")
        .ok()
        .and_then(|r| workflow_path(&r))
    else {
        return Ok(None);
    };
    let at = |commit: &git2::Commit<'_>| -> anyhow::Result<Option<git2::Oid>> {
        let tree = commit.tree()?;
        Ok(tree
            .get_path(std::path::Path::new(&path))
            .ok()
            .map(|e| e.id()))
    };
    Ok((at(base)? != at(head)?).then_some(path))
}

/// `owner/repo/.github/workflows/guard.yml@refs/…` → `.github/workflows/guard.yml`.
fn workflow_path(workflow_ref: &str) -> Option<String> {
    let (path, _) = workflow_ref.split_once('@')?;
    let mut parts = path.splitn(3, '/');
    let (_, _, file) = (parts.next()?, parts.next()?, parts.next()?);
    (!file.is_empty()).then(|| file.to_string())
}

/// A shallow clone cannot be judged: deepen it from origin, or say how.
fn unshallow(repo: Repo, fetch: bool) -> anyhow::Result<Repo> {
    if !fetch {
        return Err(shallow_error(
            "this is a shallow clone and fetching is off (--no-fetch or no origin)",
        ));
    }
    repo.run_git(&["fetch", "--quiet", "--no-tags", "--unshallow", "origin"])
        .map_err(|e| {
            shallow_error(&format!(
                "this is a shallow clone and deepening it failed: {e:#}"
            ))
        })?;
    Repo::open_at(repo.git.path())
}

/// The base (flag, else environment; fetched from origin when only its branch name is
/// known) and the head (flag, else the environment's, else HEAD).
fn base_and_head<'r>(
    repo: &'r Repo,
    args: &CiArgs,
    env: &Environment,
    fetch: bool,
) -> anyhow::Result<(git2::Commit<'r>, git2::Commit<'r>)> {
    let base_rev = args.base.clone().or(env.base.clone()).ok_or_else(|| {
        hinted(
            "no base to compare with",
            "pass --base <branch or commit>, or set GUARD_BASE (GitHub Actions and GitLab merge requests set theirs)",
        )
    })?;
    if fetch
        && args.base.is_none()
        && repo.git.revparse_single(&base_rev).is_err()
        && let Some(branch) = &env.base_branch
    {
        let spec = format!("+refs/heads/{branch}:refs/remotes/origin/{branch}");
        repo.run_git(&["fetch", "--quiet", "--no-tags", "origin", &spec])?;
    }
    let base = repo.commit(&base_rev)?;
    let head_rev = args
        .head
        .clone()
        .or(env.head.clone())
        .unwrap_or_else(|| "HEAD".into());
    let head = repo.commit(&head_rev)?;
    Ok((base, head))
}

/// A comma-separated label list, blanks dropped.
fn split_labels(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The summary in the asked format; `github` also appends Markdown to
/// `$GITHUB_STEP_SUMMARY`.
fn write_summary(
    ui: &Ui,
    format: CiFormat,
    summary: &CiSummary,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    match format {
        CiFormat::Text => render::ci_text(ui, out, summary)?,
        CiFormat::Json => render::ci_json(out, summary)?,
        CiFormat::Github => {
            render::ci_github_annotations(out, summary)?;
            render::ci_text(ui, out, summary)?;
            if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") {
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .with_context(|| {
                        format!("opening GITHUB_STEP_SUMMARY {}", path.to_string_lossy())
                    })?;
                render::ci_markdown(&mut file, summary)?;
            }
        }
    }
    Ok(())
}

fn shallow_error(what: &str) -> anyhow::Error {
    hinted(
        what.to_string(),
        "fetch the whole history: `fetch-depth: 0` in actions/checkout, `GIT_DEPTH: 0` in GitLab, \
         or `git fetch --unshallow origin`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(vars: &[(&str, &str)]) -> Environment {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        detect(&|name| map.get(name).cloned()).unwrap()
    }

    #[test]
    fn github_base_and_labels_from_the_event_file() {
        let dir = tempfile::tempdir().unwrap();
        let event = dir.path().join("event.json");
        std::fs::write(
            &event,
            r#"{"pull_request":{"head":{"sha":"0123abc"},"labels":[{"name":"bug"},{"name":"allow-test-edits"}]}}"#,
        )
        .unwrap();
        let e = env(&[
            ("GITHUB_BASE_REF", "main"),
            ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
        ]);
        assert_eq!(e.provider, "GitHub Actions");
        assert_eq!(e.base.as_deref(), Some("origin/main"));
        assert_eq!(e.labels, vec!["bug", "allow-test-edits"]);
        assert_eq!(e.head.as_deref(), Some("0123abc"));
    }

    #[test]
    fn the_workflow_path_is_read_off_github_workflow_ref() {
        assert_eq!(
            workflow_path("acme/shop/.github/workflows/guard.yml@refs/pull/7/merge").as_deref(),
            Some(".github/workflows/guard.yml")
        );
        assert_eq!(workflow_path("no-at-sign"), None);
        assert_eq!(workflow_path("acme/shop@refs/heads/main"), None);
    }

    #[test]
    fn github_push_event_has_no_base() {
        let e = env(&[("GITHUB_BASE_REF", ""), ("GUARD_BASE", "v1.0")]);
        assert_eq!(e.base.as_deref(), Some("v1.0"));
    }

    #[test]
    fn gitlab_base_sha_and_labels() {
        let e = env(&[
            ("CI_MERGE_REQUEST_DIFF_BASE_SHA", "abc123"),
            ("CI_MERGE_REQUEST_LABELS", "allow-test-edits, backend"),
        ]);
        assert_eq!(e.provider, "GitLab CI");
        assert_eq!(e.base.as_deref(), Some("abc123"));
        assert_eq!(e.labels, vec!["allow-test-edits", "backend"]);
    }

    #[test]
    fn plain_variables_and_pr_labels_fallback() {
        let e = env(&[("GUARD_BASE", "main"), ("PR_LABELS", "x,,y")]);
        assert_eq!(e.base.as_deref(), Some("main"));
        assert_eq!(e.labels, vec!["x", "y"]);
        let e = env(&[("GUARD_LABELS", "a"), ("PR_LABELS", "b")]);
        assert_eq!(e.labels, vec!["a"]);
        assert_eq!(env(&[]).base, None);
    }
}
