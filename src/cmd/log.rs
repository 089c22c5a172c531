//! `git guard log [RANGE]`: the overrides recorded on the commits of a range.

use std::io::Write;

use crate::exit::Outcome;
use crate::judge;
use crate::note_store;
use crate::policy::Rules;
use crate::render;
use crate::repo::{Repo, short_id};
use crate::signature::Verifier;

/// Lists each commit's approvals, newest first.
pub fn run(repo: &Repo, range: Option<&str>, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let rules = Rules::load(repo)?;
    let notes_ref = &rules.config.approval.notes_ref;
    let verifier = Verifier::new(&rules);
    let range = range.unwrap_or("HEAD");
    if range == "HEAD" && repo.head_commit()?.is_none() {
        render::log_empty(out, notes_ref)?;
        return Ok(Outcome::Allowed);
    }
    let mut any = false;
    let mut commits = judge::commits_in(repo, range)?;
    commits.reverse();
    for commit in commits {
        let approvals: Vec<_> = note_store::approvals(repo, notes_ref, commit.id())?
            .into_iter()
            .map(|a| {
                let trust = verifier.trust(&a);
                (a, trust)
            })
            .collect();
        if approvals.is_empty() {
            continue;
        }
        any = true;
        render::log_entry(
            out,
            &short_id(commit.id()),
            &crate::repo::subject(&commit),
            &approvals,
        )?;
    }
    if !any {
        render::log_empty(out, notes_ref)?;
    }
    Ok(Outcome::Allowed)
}
