//! The note parser and git-style path quoting: no panic, and what we write reads back.
#![no_main]
use git_guard::notes::{parse, quote_path, unquote_path};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    assert_eq!(unquote_path(&quote_path(data)), data);
    let text = String::from_utf8_lossy(data);
    for approval in parse(&text) {
        let again = parse(&approval.to_note());
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].paths, approval.paths);
    }
});
