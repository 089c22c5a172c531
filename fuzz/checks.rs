//! What each fuzz target asserts, in one place: the targets in `fuzz_targets/` call
//! these, and `tests/it/fuzz_replay.rs` replays the seeds and every saved finding
//! (`fuzz/regressions/<target>/`) through them in every CI run.

// Each fuzz target uses one of these.
#![allow(dead_code)]

use git_guard::config::Config;
use git_guard::notes::parse;
use git_guard::paths::{quote_path, unquote_path};
use git_guard::weakening::analyse;
use git_guard::weakening::lexer::{GO, JAVA, JAVASCRIPT, PYTHON, RUST, strip};

/// The guard.toml loader: any bytes give a config or an error, never a panic; a config
/// that loads compiles to a policy.
pub fn guard_toml(data: &[u8]) {
    if let Ok(config) = Config::parse(data, "guard.toml") {
        assert!(git_guard::policy::Policy::new(&config.protect.paths).is_ok());
    }
}

/// The note parser and git-style path quoting: no panic, and what we write reads back.
pub fn note(data: &[u8]) {
    assert_eq!(unquote_path(&quote_path(data)), data);
    let text = String::from_utf8_lossy(data);
    for approval in parse(&text) {
        let again = parse(&approval.to_note());
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].paths, approval.paths);
    }
}

/// git's pre-push stdin: any text gives ref lines or an error, never a panic.
pub fn pre_push(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(lines) = git_guard::cmd::hook::parse_push_lines(text)
    {
        assert!(lines.len() <= text.lines().count());
    }
}

/// The analyser on arbitrary old/new contents in every language: no panic, the lexer
/// keeps every offset, lines are 1-based. The first byte picks the language; the first
/// 0xff byte (else the middle) splits old from new.
pub fn weakening(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let syntax = [PYTHON, RUST, JAVASCRIPT, GO, JAVA][usize::from(selector) % 5];
    assert_eq!(strip(rest, &syntax).len(), rest.len());
    let path = [
        "tests/t.py",
        "src/lib.rs",
        "web/a.test.js",
        "x_test.go",
        "ATest.java",
    ][usize::from(selector) % 5];
    let split = rest
        .iter()
        .position(|&b| b == 0xff)
        .unwrap_or(rest.len() / 2);
    let (old, new) = rest.split_at(split);
    let new = new.get(1..).unwrap_or_default();
    for f in analyse(path.as_bytes(), old, Some(new), &Config::default()) {
        assert!(f.line.is_none_or(|l| l >= 1));
    }
    let _ = analyse(path.as_bytes(), old, None, &Config::default());
}
