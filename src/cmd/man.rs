//! `git guard man [--dir DIR]` and `git guard completions SHELL`: the manual and shell
//! completions, both generated from the clap definition that `lib::run` hands in.

use std::io::Write;

use anyhow::Context;

use crate::exit::Outcome;

/// The manual as roff on `out`, or one page per command written into `dir`.
pub fn run(
    command: clap::Command,
    dir: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let command = command.name("git-guard");
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

/// Where `man` looks for this binary's pages: man-db derives its search path from
/// PATH, `<dir>/bin` giving `<dir>/share/man` (so `~/.cargo/bin/git-guard` →
/// `~/.cargo/share/man/man1`).
pub fn beside_binary() -> anyhow::Result<std::path::PathBuf> {
    let exe = std::env::current_exe().context("finding the git-guard binary")?;
    let bin = exe
        .parent()
        .context("the git-guard binary has no directory")?;
    let prefix = bin.parent().unwrap_or(bin);
    Ok(prefix.join("share").join("man").join("man1"))
}

/// Completions for `shell`.
pub fn completions(
    command: clap::Command,
    shell: clap_complete::Shell,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let mut command = command.bin_name("git-guard");
    clap_complete::generate(shell, &mut command, "git-guard", out);
    Ok(Outcome::Allowed)
}
