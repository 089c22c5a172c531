//! `git guard ledger [--format text|json] [--reset] [--ledger PATH]`: the attempt
//! budget and what the attempts did.

use std::io::Write;
use std::path::PathBuf;

use crate::exit::Outcome;
use crate::ledger::{self, Entry, EntryKind};
use crate::notes;
use crate::policy::Rules;
use crate::render;
use crate::repo::Repo;
use crate::verdict::LedgerStats;

/// Prints the ledger summary, or starts a new budget with `reset`.
pub fn run(
    repo: &Repo,
    ledger: Option<PathBuf>,
    json: bool,
    reset: bool,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    let config = Rules::load(repo)?.config;
    let path = ledger.unwrap_or_else(|| ledger::default_path(repo));
    if reset {
        ledger::append(
            &path,
            &Entry {
                kind: EntryKind::Reset,
                ts: notes::now(),
                ..Entry::default()
            },
        )?;
        render::ledger_reset(out, &path.display().to_string(), config.ledger.max_attempts)?;
        return Ok(Outcome::Allowed);
    }
    let entries = ledger::read(&path)?;
    let period = ledger::current(&entries);
    let stats = LedgerStats::new(period, config.ledger.max_attempts, entries.len());
    if json {
        render::ledger_json(out, &stats)?;
    } else {
        render::ledger_text(out, &stats, &path.display().to_string())?;
    }
    Ok(Outcome::Allowed)
}
