//! The entry points the installed hooks call: `git guard hook <name>`.
//!
//! pre-commit judges the index against HEAD and either lets the commit through, asks a
//! human on the terminal, or blocks with the next steps. post-commit turns the approval
//! for the committed tree into a note on the new commit.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

use anyhow::Context;
use git2::Oid;

use crate::changes::{self, BlobChange};
use crate::exit::Outcome;
use crate::judge::{self, Approvers, Revs};
use crate::ledger;
use crate::note_store::{self, NoteStore};
use crate::notes::Via;
use crate::paths::quote_path;
use crate::pending;
use crate::policy::Rules;
use crate::prompt::{self, Answer};
use crate::render;
use crate::repo::{Repo, short_id};
use crate::signature::Verifier;
use crate::ui::Ui;
use crate::verdict::{Checked, Verdict};

/// pre-commit: judge the staged change against HEAD.
pub fn pre_commit(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    match judge::staged(repo)? {
        Some(staged) => judge_staged(repo, ui, staged, err),
        None => Ok(Outcome::Allowed),
    }
}

/// pre-push: reads git's ref lines from stdin; `args` are the remote's name and URL.
pub fn pre_push(
    repo: &Repo,
    ui: &Ui,
    args: &[String],
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading the ref lines git gives pre-push")?;
    let remote = args.first().map(String::as_str).unwrap_or("origin");
    let target = Target {
        name: remote,
        url: args.get(1).map_or(remote, String::as_str),
    };
    judge_push(repo, ui, target, &input, err)
}

/// Where a push goes: the remote's name (for its remote-tracking refs and the notes
/// push) and the URL git pushes to (the one to ask what the remote really has).
#[derive(Debug, Clone, Copy)]
struct Target<'a> {
    name: &'a str,
    url: &'a str,
}

/// The pre-commit framework's entry: its stage read off its environment.
pub fn framework(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    match framework_push(repo)? {
        Some((remote, url, line)) => {
            let target = Target {
                name: &remote,
                url: &url,
            };
            judge_push(repo, ui, target, &line, err)
        }
        None => match judge::staged(repo)? {
            Some(staged) => judge_staged(repo, ui, staged, err),
            None => post_commit(repo, ui, err),
        },
    }
}

/// pre-commit once something is staged: allow, ask on the terminal, or block.
fn judge_staged(
    repo: &Repo,
    ui: &Ui,
    staged: judge::Staged,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    render::verbose_staged(ui, err, &staged.report, &staged.rules.source)?;
    if !staged.report.needs_approval() {
        if !staged.report.findings.is_empty() {
            render::warnings(ui, err, &staged.report)?;
        }
        return Ok(Outcome::Allowed);
    }
    if let Some(pending) = &staged.pending {
        render::commit_approved(ui, err, pending)?;
        return Ok(Outcome::Allowed);
    }
    let approval = &staged.rules.config.approval;
    let Some(tty) = prompt::open_terminal() else {
        render::commit_blocked(ui, err, &staged.report, &staged.rules.source)?;
        record_commit_block(repo, &staged, false, err);
        return Ok(Outcome::Blocked);
    };
    let intro = render::prompt_intro(
        ui,
        &staged.report,
        &staged.rules.source,
        approval.min_reason_chars,
    );
    match prompt::ask_reason(
        ui,
        tty,
        &intro,
        render::REASON_PROMPT,
        approval.min_reason_chars,
    ) {
        Answer::Reason(reason) => {
            staged.approve(repo, &reason, Via::Prompt)?;
            Ok(Outcome::Allowed)
        }
        Answer::Aborted => {
            render::commit_aborted(err)?;
            record_commit_block(repo, &staged, true, err);
            Ok(Outcome::Blocked)
        }
    }
}

/// Appends a blocked commit to the ledger; a failure to record is a warning only.
fn record_commit_block(repo: &Repo, staged: &judge::Staged, terminal: bool, err: &mut dyn Write) {
    let entry = ledger::Entry {
        hook: Some("pre-commit".into()),
        terminal: Some(terminal),
        head: repo
            .head_commit()
            .ok()
            .flatten()
            .map(|c| c.id().to_string()),
        staged_diff: Some(staged.fingerprint.clone()),
        protected_changed: Some(
            staged
                .report
                .approval_paths()
                .iter()
                .map(|p| quote_path(p))
                .collect(),
        ),
        findings: Some(staged.report.finding_labels()),
        ..ledger::Entry::default()
    };
    if let Err(e) = ledger::record_block(repo, entry) {
        let _ = render::ledger_write_failed(err, &format!("{e:#}"));
    }
}

/// post-commit: the approval pending for the committed tree becomes a note on it.
pub fn post_commit(repo: &Repo, ui: &Ui, err: &mut dyn Write) -> anyhow::Result<Outcome> {
    if !pending::any(repo) {
        return Ok(Outcome::Allowed);
    }
    let Some(head) = repo.head_commit()? else {
        return Ok(Outcome::Allowed);
    };
    let committed: Vec<BlobChange> = changes::of_commit(repo, &head)?
        .iter()
        .flat_map(changes::Change::blob_changes)
        .collect();
    let parent = head.parent(0).ok();
    let rules = Rules::load_for(repo, parent.as_ref())?;
    let notes_ref = &rules.config.approval.notes_ref;
    for (path, text, approval) in pending::all(repo)? {
        // The commit carries out exactly the approved change (coverage is judged again
        // wherever the note is read; this only decides where the note goes).
        if approval.changes.is_empty() || !approval.changes.iter().all(|c| committed.contains(c)) {
            continue;
        }
        note_store::append(repo, notes_ref, head.id(), &text)?;
        pending::remove(repo, &path)?;
        render::note_written(ui, err, &short_id(head.id()), notes_ref)?;
    }
    Ok(Outcome::Allowed)
}

/// One line of pre-push input: `<local ref> <local sha> <remote ref> <remote sha>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushLine {
    /// The local ref being pushed (`refs/heads/x`, or `(delete)`).
    pub local_ref: String,
    /// The commit being pushed; zero for a deletion.
    pub local: Oid,
    /// The ref on the remote.
    pub remote_ref: String,
    /// What the remote has now; zero for a new ref.
    pub remote: Oid,
}

/// Parses git's pre-push stdin; blank lines are skipped, anything else malformed is an error.
pub fn parse_push_lines(input: &str) -> anyhow::Result<Vec<PushLine>> {
    input
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            let [local_ref, local, remote_ref, remote] = fields[..] else {
                anyhow::bail!("malformed pre-push line `{line}`: expected 4 fields");
            };
            let oid = |s: &str| {
                Oid::from_str(s)
                    .ok()
                    .filter(|_| s.len() >= 40)
                    .with_context(|| format!("malformed object id `{s}` in pre-push line `{line}`"))
            };
            Ok(PushLine {
                local_ref: local_ref.to_string(),
                local: oid(local)?,
                remote_ref: remote_ref.to_string(),
                remote: oid(remote)?,
            })
        })
        .collect()
}

/// pre-push: every outgoing commit needs a valid note when it changes protected paths.
fn judge_push(
    repo: &Repo,
    ui: &Ui,
    target: Target<'_>,
    input: &str,
    err: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let remote = target.name;
    let mut before_adoption = 0;
    let outgoing = judge_outgoing(repo, target, input, &mut before_adoption, err)?;
    render::not_judged_before_adoption(ui, err, before_adoption)?;
    let Some((rules, unapproved)) = outgoing else {
        return Ok(Outcome::Allowed);
    };
    let policy = &rules.config.approval;
    if !unapproved.is_empty() {
        let Some(tty) = prompt::open_terminal() else {
            let checked: Vec<&Checked> = unapproved.iter().map(|(_, c)| c).collect();
            render::push_blocked(ui, err, &checked)?;
            record_push_block(repo, &checked, &unapproved, err)?;
            return Ok(Outcome::Blocked);
        };
        for (id, checked) in &unapproved {
            let terminal = tty.try_clone().context("reusing the terminal")?;
            let intro = render::push_prompt_intro(ui, checked, policy.min_reason_chars);
            let min = policy.min_reason_chars;
            match prompt::ask_reason(ui, terminal, &intro, render::REASON_PROMPT, min) {
                Answer::Reason(reason) => {
                    let commit = repo.git.find_commit(*id)?;
                    let approval = judge::approval_for_commit(
                        repo,
                        &commit,
                        &checked.report,
                        &reason,
                        Via::Prompt,
                    )?;
                    let block = crate::signature::seal(repo, &rules, &approval)?;
                    note_store::append(repo, &policy.notes_ref, *id, &block)?;
                    render::note_written(ui, err, &checked.target, &policy.notes_ref)?;
                }
                Answer::Aborted => {
                    render::push_aborted(err)?;
                    return Ok(Outcome::Blocked);
                }
            }
        }
    }
    if repo.git.find_reference(&policy.notes_ref).is_ok()
        && let Err(message) = note_store::push(repo, remote, &policy.notes_ref)
    {
        render::notes_push_failed(err, remote, &policy.notes_ref, &message)?;
    }
    Ok(Outcome::Allowed)
}

/// Outgoing commits that need an approval, with their verdicts.
type Unapproved = Vec<(Oid, Checked)>;

/// Every outgoing commit of the push, judged under the policy its range builds on;
/// returns that policy and the commits that need an approval (`None`: nothing to push).
///
/// A deletion is skipped, and so is a notes ref pushed to a notes ref (the notes push
/// itself); anything else is judged, whatever the local ref is called: a commit pushed
/// from `refs/notes/wip` to a branch is a commit like any other.
fn judge_outgoing(
    repo: &Repo,
    target: Target<'_>,
    input: &str,
    before_adoption: &mut usize,
    err: &mut dyn Write,
) -> anyhow::Result<Option<(Rules, Unapproved)>> {
    let mut seen = HashSet::new();
    let mut unapproved: Vec<(Oid, Checked)> = Vec::new();
    let mut policy_in_force = None;
    let lines = parse_push_lines(input)?;
    // What git says the remote has now, for every ref of this push: the only record of
    // the remote's state that no local ref can fake.
    let on_remote: Vec<Oid> = lines
        .iter()
        .map(|line| line.remote)
        .filter(|id| !id.is_zero() && repo.git.find_commit(*id).is_ok())
        .collect();
    for line in lines {
        let notes_to_notes =
            line.local_ref.starts_with("refs/notes/") && line.remote_ref.starts_with("refs/notes/");
        if line.local.is_zero() || notes_to_notes {
            continue;
        }
        let revs = outgoing(repo, target, &line, &on_remote, err)?;
        let commits = revs.walk(repo)?;
        let Some(oldest) = commits.first() else {
            continue;
        };
        // The policy is the one the pushed range builds on: what the remote has, else
        // the parent of the oldest outgoing commit.
        let base = match repo.git.find_commit(line.remote) {
            Ok(known) => Some(known),
            Err(_) => repo.git.find_commit(*oldest)?.parent(0).ok(),
        };
        let rules = Rules::load_for(repo, base.as_ref())?;
        let store = NoteStore::new(
            repo,
            note_store::local_refs(&rules.config.approval.notes_ref),
        );
        let verifier = Verifier::new(&rules);
        let approvers = Approvers {
            notes: &store,
            label: None,
            base: base.as_ref().map(|b| b.id()),
            verifier: &verifier,
        };
        let judged = judge::range(repo, &revs, &rules, &approvers, &|_, _| {})?;
        *before_adoption += judged.before_adoption;
        let mut judged: HashMap<Oid, Checked> = judged.commits.into_iter().collect();
        // In the walk's order; commits from before adoption were not judged.
        for id in commits {
            if !seen.insert(id) {
                continue;
            }
            if let Some(checked) = judged.remove(&id)
                && checked.verdict == Verdict::NeedsApproval
            {
                unapproved.push((id, checked));
            }
        }
        policy_in_force.get_or_insert(rules);
    }
    Ok(policy_in_force.map(|rules| (rules, unapproved)))
}

/// Appends a blocked push to the ledger; a failure to record is a warning only.
fn record_push_block(
    repo: &Repo,
    checked: &[&Checked],
    unapproved: &[(Oid, Checked)],
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let entry = ledger::Entry {
        hook: Some("pre-push".into()),
        terminal: Some(false),
        commits: Some(unapproved.iter().map(|(id, _)| id.to_string()).collect()),
        findings: Some(
            checked
                .iter()
                .flat_map(|c| c.report.finding_labels())
                .collect(),
        ),
        ..ledger::Entry::default()
    };
    if let Err(e) = ledger::record_block(repo, entry) {
        render::ledger_write_failed(err, &format!("{e:#}"))?;
    }
    Ok(())
}

/// The push the pre-commit framework is checking, as a pre-push line, from its
/// environment; `None` outside its pre-push stage.
///
/// The framework passes one ref (the first with outgoing commits) and, for a ref new to
/// the remote, sets `FROM_REF` to the parent of the oldest outgoing commit, or nothing
/// when the push includes a root commit.
fn framework_push(repo: &Repo) -> anyhow::Result<Option<(String, String, String)>> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Some(remote) = var("PRE_COMMIT_REMOTE_NAME") else {
        return Ok(None);
    };
    let local_ref = var("PRE_COMMIT_LOCAL_BRANCH").unwrap_or_else(|| "HEAD".into());
    let remote_ref = var("PRE_COMMIT_REMOTE_BRANCH").unwrap_or_else(|| local_ref.clone());
    let local = match var("PRE_COMMIT_TO_REF") {
        Some(sha) => sha,
        None => repo
            .git
            .revparse_single(&local_ref)
            .with_context(|| format!("resolving {local_ref}, the ref pre-commit is pushing"))?
            .id()
            .to_string(),
    };
    let from = var("PRE_COMMIT_FROM_REF").unwrap_or_else(|| Oid::ZERO_SHA1.to_string());
    let url = var("PRE_COMMIT_REMOTE_URL").unwrap_or_else(|| remote.clone());
    Ok(Some((
        remote,
        url,
        format!("{local_ref} {local} {remote_ref} {from}\n"),
    )))
}

/// Commits reachable from the pushed sha and not from what the remote has.
///
/// "What the remote has" is first what git's own ref lines say: every remote sha of this
/// push (`on_remote`). For a ref new to the remote it is also what that remote's other
/// refs hold, and there the remote-tracking refs (`refs/remotes/<remote>/*`) are only an
/// optimisation: any local ref can be written by anyone who can run git (an agent's
/// `git update-ref refs/remotes/origin/x HEAD` would hide its own commits), so the
/// commits where they cut the walk short are confirmed with the remote itself, which
/// says which of them it has (`git fetch --negotiate-only` to the URL git pushes to: a
/// negotiation that fetches nothing; failing that, `git ls-remote`'s branch and tag tips
/// that are known here). What the remote does not confirm is judged. A
/// remote sha unknown here (someone else pushed) hides nothing: git refuses a
/// non-fast-forward.
fn outgoing(
    repo: &Repo,
    target: Target<'_>,
    line: &PushLine,
    on_remote: &[Oid],
    err: &mut dyn Write,
) -> anyhow::Result<Revs> {
    let mut revs = Revs::between(None, line.local);
    revs.exclude = on_remote.to_vec();
    if !line.remote.is_zero() {
        return Ok(revs);
    }
    let mut with_tracking = revs.clone();
    with_tracking.exclude_remote = Some(target.name.to_string());
    let cut = tracking_cut(repo, &with_tracking, on_remote)?;
    if cut.is_empty() {
        return Ok(with_tracking);
    }
    let confirmed = |common: &[Oid], id: &Oid| {
        common
            .iter()
            .any(|c| c == id || repo.git.graph_descendant_of(*c, *id).unwrap_or(false))
    };
    // First the negotiation; where it confirms too little (a server without protocol
    // v2's wait-for-done), the remote's branch and tag tips that are known here.
    let negotiated = common_with_remote(repo, target.url, &cut);
    let mut common = negotiated.as_ref().cloned().unwrap_or_default();
    if !cut.iter().all(|id| confirmed(&common, id)) {
        match (remote_tips(repo, target.url), negotiated) {
            (Ok(tips), _) => common.extend(tips),
            (Err(e), Err(first)) => {
                let message = format!("{first:#}\n{e:#}");
                render::remote_unverified(err, target.name, &message)?;
            }
            (Err(_), Ok(_)) => {}
        }
    }
    if cut.iter().all(|id| confirmed(&common, id)) {
        return Ok(with_tracking);
    }
    revs.exclude.extend(common);
    Ok(revs)
}

/// The commits where the remote-tracking refs alone cut the walk of `revs` short: the
/// parents just outside it (or the pushed commit itself, when the walk is empty) that
/// no remote sha of the push reaches. Everything the tracking refs hide is reachable
/// from one of these, so confirming them confirms the cut.
fn tracking_cut(repo: &Repo, revs: &Revs, on_remote: &[Oid]) -> anyhow::Result<Vec<Oid>> {
    let walked = revs.walk(repo)?;
    let inside: HashSet<Oid> = walked.iter().copied().collect();
    let mut edge = Vec::new();
    if walked.is_empty() {
        edge.push(revs.include);
    }
    for id in &walked {
        for parent in repo.git.find_commit(*id)?.parent_ids() {
            if !inside.contains(&parent) && !edge.contains(&parent) {
                edge.push(parent);
            }
        }
    }
    edge.retain(|id| {
        !on_remote
            .iter()
            .any(|r| r == id || repo.git.graph_descendant_of(*r, *id).unwrap_or(false))
    });
    Ok(edge)
}

/// The commits at the tips of the remote's branches and tags that this repository has,
/// as the remote itself lists them (`git ls-remote`, never prompting for credentials).
fn remote_tips(repo: &Repo, url: &str) -> anyhow::Result<Vec<Oid>> {
    let output = repo
        .git_command()
        .env("GIT_TERMINAL_PROMPT", "0")
        .args(["ls-remote", "--heads", "--tags", "--", url])
        .stdin(std::process::Stdio::null())
        .output()
        .context("running git ls-remote")?;
    if !output.status.success() {
        anyhow::bail!(
            "`git ls-remote {url}` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| Oid::from_str(line.split('\t').next()?).ok())
        .filter_map(|id| {
            let object = repo.git.find_object(id, None).ok()?;
            object.peel_to_commit().ok().map(|c| c.id())
        })
        .collect())
}

/// Which of `tips` (and their ancestors) the remote at `url` has, as the remote itself
/// answers in a fetch negotiation that transfers nothing (`git fetch --negotiate-only`,
/// protocol v2; never prompting for credentials).
fn common_with_remote(repo: &Repo, url: &str, tips: &[Oid]) -> anyhow::Result<Vec<Oid>> {
    let mut cmd = repo.git_command();
    cmd.env("GIT_TERMINAL_PROMPT", "0").args([
        "-c",
        "protocol.version=2",
        "fetch",
        "--negotiate-only",
    ]);
    for tip in tips {
        cmd.arg(format!("--negotiation-tip={tip}"));
    }
    let output = cmd
        .args(["--", url])
        .stdin(std::process::Stdio::null())
        .output()
        .context("running git fetch --negotiate-only")?;
    if !output.status.success() {
        anyhow::bail!(
            "`git fetch --negotiate-only {url}` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| Oid::from_str(line.trim()).ok())
        .collect())
}
