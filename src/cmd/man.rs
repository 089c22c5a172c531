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
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "git-guard", &mut script);
    if shell == clap_complete::Shell::Bash {
        // clap_complete names a hyphenated binary's states two ways (`git__guard__subcmd__x`
        // where it walks the words, `git__subcmd__guard__subcmd__x` where it offers them),
        // so no subcommand's options ever complete; one name for both.
        let text = String::from_utf8_lossy(&script).replace("git__subcmd__guard", "git__guard");
        script = text.into_bytes();
    }
    out.write_all(&script)?;
    if shell == clap_complete::Shell::Bash {
        // git's own completion completes `git guard …` by calling `_git_guard`: hand it
        // to the function above, as if `git-guard …` had been typed.
        writeln!(out, "{GIT_BASH_BRIDGE}")?;
    }
    Ok(Outcome::Allowed)
}

/// `git guard <TAB>` in bash: git's completion calls `_git_guard` with its `words`,
/// `cword` and `cur`; the generated `_git__guard` expects `COMP_WORDS` starting at
/// `git-guard`.
const GIT_BASH_BRIDGE: &str = r#"
_git_guard() {
    local COMP_WORDS=("git-guard" "${words[@]:2}")
    local COMP_CWORD=$((cword - 1))
    COMPREPLY=()
    _git__guard git-guard "$cur" "${COMP_WORDS[COMP_CWORD-1]}"
}"#;
