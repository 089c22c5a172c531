//! Data flows one way: each module of `src/` imports only modules below it in the layer
//! order that README's "Architecture" section draws. This test reads every `crate::`
//! path in `src/` and fails on an import upward, sideways between two commands, or of a
//! module it does not know (a new module must be given its place here and in README).

use std::collections::BTreeMap;
use std::path::Path;

/// Bottom to top. Each module may import only modules earlier in this list; the
/// commands (`cmd::*`) share one rank and may not import each other.
const ORDER: &[(&str, &[&str])] = &[
    (
        "leaves",
        &[
            "exit",
            "paths",
            "atomic",
            "hook_script",
            "managers",
            "settings",
            "finding",
        ],
    ),
    ("inputs", &["config", "repo", "policy", "changes", "scan"]),
    (
        "judgement",
        &[
            "weakening",
            "reports",
            "runner",
            "notes",
            "signature",
            "note_store",
            "pending",
            "ledger",
            "report",
            "verdict",
            "judge",
            "agent",
        ],
    ),
    ("words", &["ui", "render", "prompt"]),
    ("commands", &["cmd"]),
    ("face", &["cli", "lib", "main"]),
];

/// `src/a/b.rs` → `a`, `src/cmd/x.rs` → `cmd::x`, `src/lib.rs` → `lib`.
fn module_of(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [first, second, ..] if first == "cmd" && second != "mod" => format!("cmd::{second}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

/// Every module a file names through `crate::`, as its top-level name (`cmd::x` for
/// commands); `use crate::{a, b}` lists are read too.
fn imports(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let inner = &list[..list.find('}').unwrap_or(list.len())];
            for item in inner.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push(name);
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let mut segments = name.split("::").filter(|s| !s.is_empty());
        match (segments.next(), segments.next()) {
            (Some("cmd"), Some(command)) if command != "r#override" => {
                found.push(format!("cmd::{command}"))
            }
            (Some(first), _) => found.push(first.to_string()),
            _ => {}
        }
    }
    found
}

fn rank(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or(module);
    ORDER
        .iter()
        .flat_map(|(_, modules)| modules.iter())
        .position(|m| *m == top)
}

#[test]
fn no_module_imports_a_module_above_it_or_a_sibling_command() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "only {} files under src/", files.len());
    let mut wrong: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file.strip_prefix(&src).unwrap());
        let Some(own) = rank(&module) else {
            wrong
                .entry(module.clone())
                .or_default()
                .push("is not placed in ORDER (tests/it/layers.rs) and README".into());
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for imported in imports(&text) {
            let top = imported.split("::").next().unwrap_or(&imported);
            if top == module.split("::").next().unwrap_or(&module) && !imported.contains("::") {
                continue; // a module's own submodules
            }
            let sideways_command =
                module.starts_with("cmd::") && imported.starts_with("cmd::") && imported != module;
            match rank(&imported) {
                Some(theirs) if theirs < own && !sideways_command => {}
                Some(_) if imported == module => {}
                Some(_) if sideways_command => wrong
                    .entry(module.clone())
                    .or_default()
                    .push(format!("imports the command `{imported}`")),
                Some(_) => wrong
                    .entry(module.clone())
                    .or_default()
                    .push(format!("imports `{imported}`, which is not below it")),
                None => wrong
                    .entry(module.clone())
                    .or_default()
                    .push(format!("imports unknown module `{imported}`")),
            }
        }
    }
    let report: Vec<String> = wrong
        .iter()
        .map(|(module, problems)| format!("{module}: {}", problems.join("; ")))
        .collect();
    assert!(
        report.is_empty(),
        "layer violations:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_import_reader_sees_every_form() {
    let text = "use crate::paths::quote_path;\nuse crate::{notes, repo::Repo};\n\
                let x = crate::cmd::allow::run();\n#[serde(with = \"crate::paths::x\")]";
    assert_eq!(
        imports(text),
        vec!["paths", "notes", "repo", "cmd::allow", "paths"]
    );
    assert_eq!(module_of(Path::new("cmd/hook.rs")), "cmd::hook");
    assert_eq!(module_of(Path::new("cmd/mod.rs")), "cmd");
    assert_eq!(module_of(Path::new("render/ci.rs")), "render");
    assert_eq!(module_of(Path::new("lib.rs")), "lib");
}
