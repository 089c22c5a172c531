//! `git guard init [--force]`: writes the commented default `guard.toml`, and turns
//! signed approvals on when the user already signs with an SSH key.

use std::io::Write;

use anyhow::Context;

use crate::config;
use crate::exit::{Outcome, hinted};
use crate::render;
use crate::repo::Repo;
use crate::scan as init_scan;
use crate::signature::{SigningKey, email_of};

/// Where `init` puts the team's signers file (OpenSSH `allowed_signers` format).
pub const SIGNERS_FILE: &str = "guard-signers";

/// Writes `guard.toml` at the work tree's root; refuses to overwrite without `force`.
pub fn run(repo: &Repo, force: bool, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let root = repo.work_tree()?.to_path_buf();
    let path = root.join(config::FILE_NAME);
    if path.exists() && !force {
        return Err(hinted(
            format!("{} already exists", path.display()),
            "keep it, or pass --force to overwrite it with the defaults",
        ));
    }
    // git's own SSH signing key, when set up: approvals get signed and only listed keys
    // count. The signers file starts with this user's key.
    let signer = SigningKey::from_git_config(repo).and_then(|key| {
        let public = key.public_key()?;
        Some((key, public))
    });
    let files: Vec<String> = repo
        .run_git(&["ls-files", "-z"])
        .map(|out| {
            out.split(|&b| b == 0)
                .filter(|f| !f.is_empty())
                .map(|f| String::from_utf8_lossy(f).into_owned())
                .collect()
        })
        .unwrap_or_default();
    let found = init_scan::scan(&root, &files);
    let mut text = init_scan::fit(config::EXAMPLE, &found);
    if let Some((_, public)) = &signer {
        let signers = root.join(SIGNERS_FILE);
        if !signers.exists() {
            let identity = repo.identity();
            let line = format!(
                "{} namespaces=\"git-guard\" {public}\n",
                email_of(&identity)
            );
            crate::atomic::write(&signers, line.as_bytes(), 0o644)
                .with_context(|| format!("writing {}", signers.display()))?;
        }
        text = text
            .replace("signers = \"\"", &format!("signers = \"{SIGNERS_FILE}\""))
            .replace("require_signature = false", "require_signature = true");
    }
    // Atomic, and without --force never over a file that appeared meanwhile.
    let prepared = crate::atomic::prepare(&path, text.as_bytes(), 0o644)
        .with_context(|| format!("writing {}", path.display()))?;
    if force {
        prepared.replace(&path)
    } else {
        prepared.create(&path)
    }
    .with_context(|| format!("writing {}", path.display()))?;
    render::init_done(out, config::FILE_NAME)?;
    render::init_found(
        out,
        &found.extra_paths,
        &found.runners,
        &found.ci,
        &found.quiet_workflows,
    )?;
    match &signer {
        Some((key, _)) => render::init_signing_on(out, SIGNERS_FILE, &key.describe())?,
        None => render::init_signing_off(out)?,
    }
    Ok(Outcome::Allowed)
}
