//! git's pre-push stdin parser; the assertions live in ../checks.rs.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::pre_push(data));
