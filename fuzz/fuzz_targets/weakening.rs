//! The analyser on arbitrary old/new contents in every language: no panic, positions kept.
#![no_main]
use git_guard::config::Config;
use git_guard::weakening::analyse;
use git_guard::weakening::lexer::{GO, JAVA, JAVASCRIPT, PYTHON, RUST, strip};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
    let findings = analyse(path.as_bytes(), old, Some(new), &Config::default());
    for f in findings {
        assert!(f.line.is_none_or(|l| l >= 1));
    }
    let _ = analyse(path.as_bytes(), old, None, &Config::default());
});
