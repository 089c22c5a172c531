//! `git guard init [--force]`: writes the commented default `guard.toml`.

use std::io::Write;

use anyhow::Context;

use crate::config;
use crate::exit::{Outcome, hinted};
use crate::render;
use crate::repo::Repo;

/// Writes `guard.toml` at the work tree's root; refuses to overwrite without `force`.
pub fn run(repo: &Repo, force: bool, out: &mut dyn Write) -> anyhow::Result<Outcome> {
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
