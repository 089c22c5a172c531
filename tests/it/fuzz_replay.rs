//! Every fuzz seed and every saved fuzz finding, replayed through the fuzz targets'
//! own checks (fuzz/checks.rs) on each test run, so a fixed crash stays fixed.

use std::path::Path;

#[path = "../../fuzz/checks.rs"]
mod checks;

/// Replays `fuzz/{seeds,regressions}/<target>/*`; returns how many inputs ran.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut ran = 0;
    for kind in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(kind).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} fails its fuzz check", path.display());
            ran += 1;
        }
    }
    ran
}

#[test]
fn the_seeds_and_saved_findings_of_every_fuzz_target_pass_their_checks() {
    for (target, check) in [
        ("guard_toml", checks::guard_toml as fn(&[u8])),
        ("note", checks::note),
        ("pre_push", checks::pre_push),
        ("weakening", checks::weakening),
    ] {
        assert!(replay(target, check) > 0, "{target} has no seed");
    }
}
