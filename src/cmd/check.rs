//! `git guard check [--staged | --commit REV | --range A..B] [--format text|json]`.

use std::io::Write;

use crate::exit::Outcome;
use crate::judge::{self, Approvers, Revs};
use crate::note_store::{self, NoteStore};
use crate::policy::Rules;
use crate::render::{self, Format};
use crate::repo::Repo;
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::{Checked, Verdict};

/// Reports the staged change (default), one commit, or a range; blocked when any of
/// them needs an approval it does not have.
pub fn run(
    repo: &Repo,
    ui: &Ui,
    commit: Option<String>,
    range: Option<String>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let (checked, rules) = match (commit, range) {
        (Some(rev), _) => one_commit(repo, &rev)?,
        (None, Some(range)) => a_range(repo, &range)?,
        (None, None) => {
            let rules = Rules::load(repo)?;
            let checked = judge::staged(repo)?.map(judge::Staged::checked);
            (checked.into_iter().collect(), rules)
        }
    };
    match format {
        Format::Text => render::check_text(ui, out, &checked, &rules.source)?,
        Format::Json => render::check_json(out, &checked, &rules.source)?,
    }
    Ok(
        if checked.iter().any(|c| c.verdict == Verdict::NeedsApproval) {
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

/// `--range A..B` (or one revision: all its history), under the policy at `A`.
fn a_range(repo: &Repo, range: &str) -> anyhow::Result<(Vec<Checked>, Rules)> {
    let or_head = |rev: &str| if rev.is_empty() { "HEAD" } else { rev }.to_string();
    let (base, head) = match range.split_once("..") {
        Some((base, head)) => (Some(repo.commit(&or_head(base))?), or_head(head)),
        None => (None, range.to_string()),
    };
    let rules = Rules::load_for(repo, base.as_ref())?;
    let revs = Revs::between(base.map(|b| b.id()), repo.commit(&head)?.id());
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
    let checked = judge::range(repo, &revs, &rules, &approvers, &|_, _| {})?
        .commits
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    Ok((checked, rules))
}
