//! `git guard check [--staged | --commit REV | --range A..B] [--format text|json]`.

use std::io::Write;

use crate::exit::{Outcome, hinted};
use crate::judge::{self, Approvers, Revs};
use crate::note_store::{self, NoteStore};
use crate::policy::Rules;
use crate::render::{self, Format, TestsPart};
use crate::repo::{Repo, short_id};
use crate::reports;
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::{Checked, TestsChecked, Verdict};

/// What `check` looks at: the staged change (neither set), one commit, or a range.
#[derive(Debug, Clone, Default)]
pub struct Target {
    /// `--commit REV`.
    pub commit: Option<String>,
    /// `--range A..B`.
    pub range: Option<String>,
}

/// Reports the staged change (default), one commit, or a range; blocked when any of
/// them needs an approval it does not have. With `--range`, `reports` (`--results` and
/// `--baseline`) also compares the head's test reports with the base's.
pub fn run(
    repo: &Repo,
    ui: &Ui,
    target: Target,
    reports: (Option<&str>, Option<&str>),
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    if (reports.0.is_some() || reports.1.is_some()) && target.range.is_none() {
        return Err(hinted(
            "--results and --baseline compare the test reports of a range",
            "add --range BASE..HEAD (the commits whose test runs the reports are of)",
        ));
    }
    let sides = reports::load_pair(&std::env::current_dir()?, reports.0, reports.1)?;
    let mut tests: Option<(TestsChecked, String)> = None;
    let (checked, rules) = match (target.commit, target.range) {
        (Some(rev), _) => one_commit(repo, &rev)?,
        (None, Some(range)) => {
            let (checked, rules, judged_tests) = a_range(repo, &range, sides.as_ref())?;
            tests = judged_tests;
            (checked, rules)
        }
        (None, None) => {
            let rules = Rules::load(repo)?;
            let checked = judge::staged(repo)?.map(judge::Staged::checked);
            (checked.into_iter().collect(), rules)
        }
    };
    let part = tests.as_ref().map(|(t, head)| TestsPart {
        checked: t,
        head,
        label: &rules.config.approval.label,
    });
    match format {
        Format::Text => render::check_text(ui, out, &checked, part, &rules.source)?,
        Format::Json => render::check_json(out, &checked, part.map(|p| p.checked), &rules.source)?,
    }
    let tests_blocked = tests
        .as_ref()
        .is_some_and(|(t, _)| t.verdict == Verdict::NeedsApproval);
    Ok(
        if tests_blocked || checked.iter().any(|c| c.verdict == Verdict::NeedsApproval) {
            Outcome::Blocked
        } else {
            Outcome::Allowed
        },
    )
}

/// `--commit REV`: the commit against its first parent, under its parent's policy.
fn one_commit(repo: &Repo, rev: &str) -> anyhow::Result<(Vec<Checked>, Rules)> {
    let commit = repo.commit(rev)?;
    let parent = commit.parent(0).ok();
    let rules = Rules::load_for(repo, parent.as_ref())?;
    let store = NoteStore::new(
        repo,
        note_store::local_refs(&rules.config.approval.notes_ref),
    );
    let verifier = Verifier::new(&rules);
    let approvers = Approvers {
        notes: &store,
        label: None,
        base: None,
        verifier: &verifier,
    };
    let checked = judge::commit(repo, &commit, &rules, &approvers)?;
    Ok((vec![checked], rules))
}

/// `--range A..B` (or one revision: all its history), under the policy at `A`; with
/// report sides, their comparison judged with the range's notes (and the head's short id).
#[allow(clippy::type_complexity)]
fn a_range(
    repo: &Repo,
    range: &str,
    sides: Option<&(reports::ReportSet, reports::ReportSet)>,
) -> anyhow::Result<(Vec<Checked>, Rules, Option<(TestsChecked, String)>)> {
    let or_head = |rev: &str| if rev.is_empty() { "HEAD" } else { rev }.to_string();
    let (base, head) = match range.split_once("..") {
        Some((base, head)) => (Some(repo.commit(&or_head(base))?), or_head(head)),
        None => (None, range.to_string()),
    };
    let rules = Rules::load_for(repo, base.as_ref())?;
    let head = repo.commit(&head)?.id();
    let revs = Revs::between(base.map(|b| b.id()), head);
    let store = NoteStore::new(
        repo,
        note_store::local_refs(&rules.config.approval.notes_ref),
    );
    let verifier = Verifier::new(&rules);
    let approvers = Approvers {
        notes: &store,
        label: None,
        base: revs.exclude.first().copied(),
        verifier: &verifier,
    };
    let judged = judge::range(repo, &revs, &rules, &approvers, &|_, _| {})?;
    let tests = match sides {
        Some((base_set, head_set)) => {
            let ids: Vec<git2::Oid> = judged.commits.iter().map(|(id, _)| *id).collect();
            let t = judge::tests(
                repo,
                (base_set, head_set),
                &std::env::current_dir()?,
                &ids,
                (approvers.base, head),
                &rules,
                &approvers,
            )?;
            Some((t, short_id(head)))
        }
        None => None,
    };
    let checked = judged.commits.into_iter().map(|(_, c)| c).collect();
    Ok((checked, rules, tests))
}
