//! The fixture suite: `tests/fixtures/weakening/<lang>/<case>/` holds `before.<ext>`,
//! `after.<ext>` (absent: the file was deleted) and `expected`, one `kind line` per
//! finding (empty for a benign change). Every case directory is run.

use std::path::Path;

use super::*;

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
    let language = Language::of_path(path.as_bytes()).unwrap();
    let rules = Rules::new(language, None);
    let found: Vec<String> = compare(path.as_bytes(), language, &rules, &old, after.as_deref())
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
    let rules = Rules::new(Language::Python, Some(&markers));
    let old = b"def test_a():\n    assert f() == 1\n";
    let new = b"@flaky_skip\ndef test_a():\n    assert f() == 1\n";
    let found = compare(b"tests/t.py", Language::Python, &rules, old, Some(new));
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].kind, found[0].line),
        (FindingKind::SkipAdded, Some(1))
    );
}

#[test]
fn a_moved_skip_is_not_an_added_skip() {
    let rules = Rules::new(Language::Python, None);
    let old = b"@pytest.mark.skip\ndef test_a():\n    assert 1 == 1\n\n\ndef test_b():\n    assert 2 == 2\n";
    let new = b"def test_a():\n    assert 1 == 1\n\n\n@pytest.mark.skip\ndef test_b():\n    assert 2 == 2\n";
    // Skipping a different test is still one skip: counts say nothing changed.
    assert!(compare(b"tests/t.py", Language::Python, &rules, old, Some(new)).is_empty());
}
