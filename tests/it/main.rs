//! One integration-test binary: a hermetic harness and one file per command or scenario.

mod common;
mod tools;

mod adoption;
mod agent;
mod binding;
mod check;
mod ci;
mod cli;
mod commit;
mod demo;
mod dist;
mod doctor;
mod ecosystem;
mod edges;
mod fail_closed;
mod fuzz_replay;
mod history;
mod init;
mod install;
mod layers;
mod ledger;
mod merges;
mod policy_props;
mod prompt;
mod push;
mod push_refs;
mod reports;
mod runner_keys;
mod signature;
mod signed;
mod staged_diff;
mod strengthening;
mod weakening;

/// Every file in tests/it must be a module above, or its tests silently never run.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs")
            && module != "main"
        {
            assert!(
                main.contains(&format!("mod {module};")),
                "tests/it/{name} is not in main.rs"
            );
        }
    }
}
