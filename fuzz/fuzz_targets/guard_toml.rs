//! The guard.toml loader: any bytes give a config or an error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(config) = git_guard::config::Config::parse(data, "guard.toml") {
        // A config that loads compiles to a policy.
        assert!(git_guard::policy::Policy::new(&config.protect.paths).is_ok());
    }
});
