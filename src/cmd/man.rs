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
