//! The fixture suite: `tests/fixtures/weakening/<lang>/<case>/` holds `before.<ext>`,
//! `after.<ext>` (absent: the file was deleted) and `expected`, one `kind line` per
//! finding (empty for a benign change). Every case directory is run.

use std::path::Path;

use super::*;
use crate::config::Config;

fn run_case(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut before = None;
    let mut after = None;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(ext) = name.strip_prefix("before.") {
            before = Some((ext.to_string(), std::fs::read(&path).unwrap()));
        } else if name.starts_with("after.") {
            after = Some(std::fs::read(&path).unwrap());
        }
    }
    let (ext, old) = before.unwrap_or_else(|| panic!("{} has no before.*", dir.display()));
    let path = format!("tests/case.{ext}");
    let found: Vec<String> = analyse(path.as_bytes(), &old, after.as_deref(), &Config::default())
        .iter()
        .map(|f| match f.line {
            Some(line) => format!("{} {line}", f.kind),
            None => f.kind.to_string(),
        })
        .collect();
    let expected: Vec<String> = std::fs::read_to_string(dir.join("expected"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (found, expected)
}

#[test]
fn every_fixture_gives_exactly_its_expected_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/weakening");
    let mut failures = Vec::new();
    let mut cases = 0;
    for lang in std::fs::read_dir(&root).unwrap() {
        for case in std::fs::read_dir(lang.unwrap().path()).unwrap() {
            let dir = case.unwrap().path();
            let (mut found, mut expected) = run_case(&dir);
            found.sort();
            expected.sort();
            cases += 1;
            if found != expected {
                failures.push(format!(
                    "{}: found {found:?}, expected {expected:?}",
                    dir.display()
                ));
            }
        }
    }
    assert!(cases >= 50, "only {cases} fixture cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_incident_gives_exactly_loosened_and_skip() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/weakening/python/incident");
    let (found, _) = run_case(&dir);
    let kinds: Vec<&str> = found.iter().map(|f| f.split(' ').next().unwrap()).collect();
    assert_eq!(
        kinds,
        vec![
            FindingKind::AssertionLoosened.name(),
            FindingKind::SkipAdded.name()
        ]
    );
}

#[test]
fn custom_markers_from_guard_toml_are_counted() {
    let markers = crate::config::Markers {
        skip: vec!["@flaky_skip".into()],
        ..Default::default()
    };
    let mut config = Config::default();
    config.weakening.markers.insert("python".into(), markers);
    let old = b"def test_a():\n    assert f() == 1\n";
    let new = b"@flaky_skip\ndef test_a():\n    assert f() == 1\n";
    let found = analyse(b"tests/t.py", old, Some(new), &config);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].kind, found[0].line),
        (FindingKind::SkipAdded, Some(1))
    );
}

#[test]
fn a_skip_moved_to_another_test_skips_that_test() {
    let old = b"@pytest.mark.skip\ndef test_a():\n    assert 1 == 1\n\n\ndef test_b():\n    assert 2 == 2\n";
    let new = b"def test_a():\n    assert 1 == 1\n\n\n@pytest.mark.skip\ndef test_b():\n    assert 2 == 2\n";
    // Skipping a different test is a skip added to test_b (and one removed from test_a).
    let found = analyse(b"tests/t.py", old, Some(new), &Config::default());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].kind, found[0].line),
        (FindingKind::SkipAdded, Some(5))
    );
}

#[test]
fn debug_case() {
    let Ok(dir) = std::env::var("CASE") else {
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/weakening")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(ext) = name.split_once('.').map(|(_, e)| e.to_string()) else {
            continue;
        };
        let language = Language::of_path(format!("x.{ext}").as_bytes()).unwrap();
        let rules = Rules::new(language, None);
        let bytes = std::fs::read(&path).unwrap();
        let m = model::Model::new(&bytes, &rules);
        eprintln!("== {name}");
        for u in &m.units {
            eprintln!(
                "  {:?} {} line {} cases {} skips {:?}",
                u.role,
                u.name,
                u.line + 1,
                u.cases,
                u.skips
                    .iter()
                    .map(|&s| (&m.skips[s].text, m.skips[s].kind))
                    .collect::<Vec<_>>()
            );
            for &c in &u.checks {
                eprintln!("     {:?}", m.check_key(c, &rules));
            }
        }
    }
    let (found, expected) = run_case(&dir);
    eprintln!("found {found:?} expected {expected:?}");
}
