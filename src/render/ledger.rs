//! Words of `git guard run` and `git guard ledger`.

use std::io::{self, Write};

use crate::ledger::Entry;
use crate::verdict::LedgerStats;

/// `git guard run` recorded an attempt.
pub fn attempt_recorded(
    w: &mut dyn Write,
    used: u32,
    budget: u32,
    entry: &Entry,
) -> io::Result<()> {
    let outcome = match (entry.exit, entry.signal) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        (None, None) => "unknown exit".into(),
    };
    writeln!(
        w,
        "git-guard: attempt {used} of {budget} recorded ({outcome}, {})",
        seconds(entry.seconds.unwrap_or_default())
    )?;
    if let Some(paths) = entry.protected_changed.as_ref().filter(|p| !p.is_empty()) {
        writeln!(w, "  touched protected paths: {}", paths.join(", "))?;
    }
    if let Some(findings) = entry.findings.as_ref().filter(|f| !f.is_empty()) {
        writeln!(w, "  weakening: {}", findings.join("; "))?;
    }
    Ok(())
}

/// `git guard ledger --reset`.
pub fn ledger_reset(w: &mut dyn Write, path: &str, budget: u32) -> io::Result<()> {
    writeln!(
        w,
        "New attempt budget started ({budget} attempts); earlier history stays in {path}."
    )
}

/// `git guard ledger` as text.
pub fn ledger_text(w: &mut dyn Write, s: &LedgerStats, path: &str) -> io::Result<()> {
    writeln!(w, "ledger {path}")?;
    if s.attempts == 0 {
        // Blocks by hooks are recorded whether or not anyone used `git guard run`.
        writeln!(
            w,
            "  no `git guard run` attempts; {} {} blocked by hooks",
            s.blocked,
            if s.blocked == 1 {
                "commit or push"
            } else {
                "commits or pushes"
            }
        )?;
        return Ok(());
    }
    writeln!(w, "  attempts:  {} of {} used", s.attempts, s.budget)?;
    writeln!(w, "  failures:  {}", s.failures)?;
    writeln!(w, "  blocked:   {} by hooks", s.blocked)?;
    writeln!(w, "  time:      {} in attempts", seconds(s.seconds))?;
    if s.touched_protected.is_empty() {
        writeln!(w, "  no attempt touched protected paths")?;
    }
    for a in &s.touched_protected {
        let exit = a.exit.map_or("signal".to_string(), |c| format!("exit {c}"));
        writeln!(
            w,
            "  attempt {} ({}, {exit}) touched {}",
            a.attempt,
            a.ts,
            a.protected_changed.join(", ")
        )?;
        for f in &a.findings {
            writeln!(w, "    ! {f}")?;
        }
    }
    Ok(())
}

/// Seconds to one decimal, never `-0.0s` (a clock step can make a duration negative).
fn seconds(value: f64) -> String {
    format!("{:.1}s", value.max(0.0) + 0.0)
}

/// `git guard ledger --format json`.
pub fn ledger_json(w: &mut dyn Write, s: &LedgerStats) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, s)?;
    writeln!(w)
}
