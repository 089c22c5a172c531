//! The small commands built from the modules: `init`, `check`, `allow`, `log`.
//!
//! Each reads git through `repo`/`gate`, decides, and hands every word to `render`.

use std::io::Write;

use anyhow::Context;

use crate::cli::Format;
use crate::config::{self, Config};
use crate::exit::{Outcome, hinted};
use crate::notes::{self, NoteStore};
use crate::policy::Policy;
use crate::render::{self, Checked, Verdict, Via};
use crate::repo::{Repo, short_id};
use crate::{gate, prompt};

/// `git guard init [--force]`: writes the commented default `guard.toml`.
pub fn init(repo: &Repo, force: bool, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let path = repo.work_tree()?.join(config::FILE_NAME);
    if path.exists() && !force {
        return Err(hinted(
            format!("{} already exists", path.display()),
            "keep it, or pass --force to overwrite it with the defaults",
        ));
    }
    // Atomic, and without --force never over a file that appeared meanwhile.
    let prepared = crate::atomic::prepare(&path, config::EXAMPLE.as_bytes(), 0o644)
        .with_context(|| format!("writing {}", path.display()))?;
    if force {
        prepared.replace(&path)
    } else {
        prepared.create(&path)
    }
    .with_context(|| format!("writing {}", path.display()))?;
    render::init_done(out, config::FILE_NAME)?;
    Ok(Outcome::Allowed)
}

/// `git guard check`: the staged change (default), one commit, or a range.
pub fn check(
    repo: &Repo,
    commit: Option<String>,
    range: Option<String>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let (checked, source) = match (commit, range) {
        (Some(rev), _) => {
            let commit = repo.commit(&rev)?;
            let parent = commit.parent(0).ok();
            let (config, source) = repo.policy_for(parent.as_ref())?;
            let policy = Policy::new(&config.protect.paths)?;
            let store = NoteStore::new(repo, notes::local_refs(&config.approval.notes_ref));
            let approvers = gate::Approvers {
                notes: &store,
                label: None,
            };
            (
                vec![gate::commit(repo, &commit, &config, &policy, &approvers)?],
                source,
            )
        }
        (None, Some(range)) => {
            let base = match range.split_once("..") {
                Some((base, _)) => {
                    Some(repo.commit(if base.is_empty() { "HEAD" } else { base })?)
                }
                None => None,
            };
            let (config, source) = repo.policy_for(base.as_ref())?;
            let policy = Policy::new(&config.protect.paths)?;
            let revs = match (&base, range.split_once("..")) {
                (Some(base), Some((_, head))) => {
                    let head = repo.commit(if head.is_empty() { "HEAD" } else { head })?;
                    vec![head.id().to_string(), format!("^{}", base.id())]
                }
                _ => vec![repo.commit(&range)?.id().to_string()],
            };
            let store = NoteStore::new(repo, notes::local_refs(&config.approval.notes_ref));
            let approvers = gate::Approvers {
                notes: &store,
                label: None,
            };
            let checked = gate::range(repo, &revs, &config, &policy, &approvers, &|_, _| {})?
                .into_iter()
                .map(|(_, c)| c)
                .collect();
            (checked, source)
        }
        (None, None) => {
            let (_, source) = repo.policy()?;
            let checked = match gate::staged(repo)? {
                None => Vec::new(),
                Some(staged) => vec![staged_checked(staged)],
            };
            (checked, source)
        }
    };
    match format {
        Format::Text => render::check_text(out, &checked, &source)?,
        Format::Json => render::check_json(out, &checked, &source)?,
    }
    Ok(
        if checked.iter().any(|c| c.verdict == Verdict::NeedsApproval) {
            Outcome::Blocked
        } else {
            Outcome::Allowed
        },
    )
}

fn staged_checked(staged: gate::Staged) -> Checked {
    let verdict = if !staged.report.needs_approval() {
        Verdict::Clean
    } else if staged.pending.is_some() {
        Verdict::Approved
    } else {
        Verdict::NeedsApproval
    };
    Checked {
        target: "staged".into(),
        subject: None,
        verdict,
        approved_via: staged.pending.as_ref().map(|_| Via::Note),
        patch_id_of: None,
        approval_paths: staged.report.approval_paths(),
        approvals: staged.pending.iter().map(Into::into).collect(),
        report: staged.report,
    }
}

/// `git guard allow --reason`: binds an approval to the exact staged tree.
pub fn allow(repo: &Repo, reason: &str, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let Some(staged) = gate::staged(repo)? else {
        render::nothing_to_allow(out)?;
        return Ok(Outcome::Allowed);
    };
    let config: &Config = &staged.config;
    if !staged.report.needs_approval() {
        render::nothing_to_allow(out)?;
        return Ok(Outcome::Allowed);
    }
    if !config.approval.allow_without_tty {
        render::allow_refused(out)?;
        return Ok(Outcome::Blocked);
    }
    check_reason(reason, config.approval.min_reason_chars)?;
    let tree = staged.approve(repo, reason, "allow")?;
    render::allowed(out, &staged.report, &short_id(tree))?;
    Ok(Outcome::Allowed)
}

/// `git guard log [RANGE]`: the overrides recorded on the commits of a range.
pub fn log(repo: &Repo, range: Option<&str>, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let (config, _) = repo.policy()?;
    let notes_ref = &config.approval.notes_ref;
    let range = range.unwrap_or("HEAD");
    if range == "HEAD" && repo.head_commit()?.is_none() {
        render::log_empty(out, notes_ref)?;
        return Ok(Outcome::Allowed);
    }
    let mut any = false;
    let mut commits = gate::commits_in(repo, range)?;
    commits.reverse();
    for commit in commits {
        let approvals = notes::approvals(repo, notes_ref, commit.id())?;
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

/// `git guard override REV [--reason]`: approves an existing commit with a note.
pub fn override_commit(
    repo: &Repo,
    rev: &str,
    reason: Option<&str>,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let commit = repo.commit(rev)?;
    let parent = commit.parent(0).ok();
    let (config, _) = repo.policy_for(parent.as_ref())?;
    let policy = Policy::new(&config.protect.paths)?;
    let store = NoteStore::new(repo, vec![]);
    let approvers = gate::Approvers {
        notes: &store,
        label: None,
    };
    let checked = gate::commit(repo, &commit, &config, &policy, &approvers)?;
    if checked.verdict == Verdict::Clean {
        render::nothing_to_override(out, &checked.target)?;
        return Ok(Outcome::Allowed);
    }
    let min = config.approval.min_reason_chars;
    let reason = match reason {
        Some(reason) => {
            if !config.approval.allow_without_tty {
                render::allow_refused(out)?;
                return Ok(Outcome::Blocked);
            }
            check_reason(reason, min)?;
            reason.to_string()
        }
        None => {
            let Some(tty) = prompt::open_terminal() else {
                return Err(hinted(
                    "no terminal to ask for the reason",
                    format!("pass it: {}", render::override_command(&checked.target)),
                ));
            };
            let intro = render::push_prompt_intro(&checked);
            match prompt::ask_reason(tty, &intro, render::REASON_PROMPT, min) {
                prompt::Answer::Reason(reason) => reason,
                prompt::Answer::Aborted => return Ok(Outcome::Blocked),
            }
        }
    };
    let approval = crate::hook::approval_for(repo, &commit, &checked.report, reason, "override")?;
    notes::append(repo, &config.approval.notes_ref, commit.id(), &approval)?;
    render::override_done(out, &checked.target, &config.approval.notes_ref)?;
    Ok(Outcome::Allowed)
}

/// Refuses a reason shorter than the policy's minimum (exit 2, with an example).
fn check_reason(reason: &str, min: usize) -> anyhow::Result<()> {
    let length = notes::reason_length(reason);
    if length < min || length == 0 {
        return Err(hinted(
            format!(
                "the reason is too short: {}",
                render::reason_too_short(length, min)
            ),
            "say in one sentence why the test itself must change, e.g. \
             --reason \"Rounding rule changed by finance ticket FIN-12\"",
        ));
    }
    Ok(())
}

/// `git guard man`: the manual from the clap definition, as roff.
pub fn man(dir: Option<&std::path::Path>, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let command = <crate::cli::Cli as clap::CommandFactory>::command().name("git-guard");
    match dir {
        None => clap_mangen::Man::new(command).render(out)?,
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("writing the man pages into {}", dir.display()))?;
            writeln!(out, "Wrote the man pages into {}", dir.display())?;
        }
    }
    Ok(Outcome::Allowed)
}
