//! git's pre-push stdin: any text gives ref lines or an error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(lines) = git_guard::hook::parse_push_lines(text) {
            assert!(lines.len() <= text.lines().count());
        }
    }
});
