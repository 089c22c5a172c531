//! The note parser and path quoting; the assertions live in ../checks.rs.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::note(data));
