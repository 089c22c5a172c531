//! The fixture suite: `tests/fixtures/weakening/<lang>/<case>/` holds `before.<ext>`,
//! `after.<ext>` (absent: the file was deleted) and `expected`, one `kind line` per
//! finding (empty for a benign change). Every case directory is run.

use std::path::Path;

use super::*;
use crate::changes::{Blobs, Change, Status};
use crate::config::Config;
use crate::policy::Policy;

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

/// Blobs keyed by their content's id, for change-set tests.
struct Store(std::collections::HashMap<git2::Oid, Vec<u8>>);

impl Store {
    fn id(&mut self, bytes: &str) -> git2::Oid {
        let id = git2::Oid::hash_object(git2::ObjectType::Blob, bytes.as_bytes()).unwrap();
        self.0.insert(id, bytes.as_bytes().to_vec());
        id
    }
}

impl Blobs for Store {
    fn blob(&self, id: git2::Oid) -> Option<Vec<u8>> {
        self.0.get(&id).cloned()
    }
}

fn change(store: &mut Store, path: &str, old: Option<&str>, new: Option<&str>) -> Change {
    let status = match (old, new) {
        (None, _) => Status::Added,
        (_, None) => Status::Deleted,
        _ => Status::Modified,
    };
    Change {
        status,
        old_path: old.map(|_| path.as_bytes().to_vec()),
        new_path: new.map(|_| path.as_bytes().to_vec()),
        old_id: old.map(|o| store.id(o)),
        new_id: new.map(|n| store.id(n)),
        old_mode: if old.is_some() { 0o100644 } else { 0 },
        new_mode: if new.is_some() { 0o100644 } else { 0 },
        first_parents_own: None,
    }
}

fn set_findings(store: &Store, changes: &[Change]) -> Vec<String> {
    let config = Config::default();
    let policy = Policy::new(&config.protect.paths).unwrap();
    findings(changes, &policy, &config, store)
        .iter()
        .map(|f| f.label())
        .collect()
}

const UTILS: &str = "from app import a, b\n\n\ndef test_a():\n    assert a() == 1\n\n\ndef test_b():\n    assert b() == 2\n";
const UTILS_AFTER: &str = "from app import a\n\n\ndef test_a():\n    assert a() == 1\n";
const HEADERS: &str = "def test_h():\n    assert h() == 3\n";
const HEADERS_AFTER: &str =
    "def test_h():\n    assert h() == 3\n\n\ndef test_b():\n    assert b() == 2\n";

#[test]
fn a_test_moved_to_another_file_of_the_change_is_not_removed() {
    let mut store = Store(Default::default());
    let changes = vec![
        change(
            &mut store,
            "tests/test_utils.py",
            Some(UTILS),
            Some(UTILS_AFTER),
        ),
        change(
            &mut store,
            "tests/test_headers.py",
            Some(HEADERS),
            Some(HEADERS_AFTER),
        ),
    ];
    assert_eq!(set_findings(&store, &changes), Vec::<String>::new());
    // The same removal alone is a removed test.
    let alone = set_findings(&store, &changes[..1]);
    assert_eq!(
        alone,
        vec![
            "test-removed tests/test_utils.py:5",
            "assertions-removed tests/test_utils.py:5"
        ]
    );
}

#[test]
fn a_test_moved_to_another_package_under_its_name_spelled_another_way_is_not_removed() {
    // zap 7699673: `TestSystemClockNewTicker` → zapcore's `TestSystemClock_NewTicker`.
    let mut store = Store(Default::default());
    let body = "(t *testing.T) {\n\tn := 0\n\tfor range ticker(time.Millisecond) {\n\t\tn++\n\t\tif n == 3 {\n\t\t\treturn\n\t\t}\n\t}\n}\n";
    let old = format!(
        "package zap\n\nfunc TestWithClock(t *testing.T) {{\n\tassert.Equal(t, 1, f())\n}}\n\nfunc TestSystemClockNewTicker{body}"
    );
    let kept = "package zap\n\nfunc TestWithClock(t *testing.T) {\n\tassert.Equal(t, 1, f())\n}\n";
    let other =
        "package zapcore\n\nfunc TestMockClock(t *testing.T) {\n\tassert.Equal(t, 2, g())\n}\n";
    let other_after = format!("{other}\nfunc TestSystemClock_NewTicker{body}");
    let changes = vec![
        change(&mut store, "clock_test.go", Some(&old), Some(kept)),
        change(
            &mut store,
            "zapcore/clock_test.go",
            Some(other),
            Some(&other_after),
        ),
    ];
    assert_eq!(set_findings(&store, &changes), Vec::<String>::new());
    // Under another name it is a removed test.
    let renamed = other_after.replace("TestSystemClock_NewTicker", "TestTickerFires");
    let changes = vec![
        change(&mut store, "clock_test.go", Some(&old), Some(kept)),
        change(
            &mut store,
            "zapcore/clock_test.go",
            Some(other),
            Some(&renamed),
        ),
    ];
    assert_eq!(
        set_findings(&store, &changes),
        vec!["test-removed clock_test.go:5"]
    );
}

#[test]
fn a_test_moved_to_a_new_file_below_rename_similarity_is_not_removed() {
    let mut store = Store(Default::default());
    let old = "def test_parse():\n    assert parse(\"a\") == [\"a\"]\n\n\ndef test_join():\n    assert join([\"a\"]) == \"a\"\n";
    let new = "import pytest\n\n\n@pytest.mark.parametrize(\"x\", [\"a\", \"b\"])\ndef test_round_trip(x):\n    assert join(parse(x)) == x\n\n\ndef test_parse():\n    assert parse(\"a\") == [\"a\"]\n\n\ndef test_join():\n    assert join([\"a\"]) == \"a\"\n";
    let changes = vec![
        change(&mut store, "tests/test_urlparse.py", Some(old), None),
        change(&mut store, "tests/models/test_url.py", None, Some(new)),
    ];
    assert_eq!(set_findings(&store, &changes), Vec::<String>::new());
}

#[test]
fn a_renamed_test_moved_with_the_same_checks_is_found_by_its_checks() {
    let mut store = Store(Default::default());
    let old = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn is_sorted() {\n        assert!(ALIASES.windows(2).all(|w| w[0] <= w[1]));\n    }\n}\n";
    let new_mod = "pub fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn aliases_are_sorted() {\n        assert!(ALIASES.windows(2).all(|w| w[0] <= w[1]));\n    }\n}\n";
    let changes = vec![
        change(&mut store, "src/hyperlink_aliases.rs", Some(old), None),
        change(
            &mut store,
            "src/hyperlink/mod.rs",
            Some("pub fn f() {}\n"),
            Some(new_mod),
        ),
    ];
    assert_eq!(set_findings(&store, &changes), Vec::<String>::new());
}

#[test]
fn renamed_tests_moved_together_each_find_their_closest_match() {
    // `test_scheme` checks a subset of `test_url`: matched first, it would take
    // `test_basic_url` and leave `test_url` unmatched (a removed test).
    let old = "def test_scheme():\n    url = URL(\"https://a/\")\n    assert url.scheme == \"https\"\n\n\ndef test_url():\n    url = URL(\"https://a/\")\n    assert url.scheme == \"https\"\n    assert url.host == \"a\"\n";
    let new = "def test_basic_url():\n    url = URL(\"https://a/\")\n    assert url.scheme == \"https\"\n    assert url.host == \"a\"\n\n\ndef test_url_scheme():\n    url = URL(\"https://a/\")\n    assert url.scheme == \"https\"\n";
    // `test_urlparse.py` deleted, its tests arriving in `test_url.py` as `arrived`.
    let moved = |arrived: &str| {
        let mut store = Store(Default::default());
        let changes = vec![
            change(&mut store, "tests/test_urlparse.py", Some(old), None),
            change(
                &mut store,
                "tests/models/test_url.py",
                Some("\n"),
                Some(arrived),
            ),
        ];
        set_findings(&store, &changes)
    };
    assert_eq!(moved(new), Vec::<String>::new());
    // A test moved with its values edited is found by the shape of its checks.
    let edited = new.replace(
        "\"https\"\n    assert url.host == \"a\"",
        "\"http\"\n    assert url.host == \"b\"",
    );
    assert_eq!(moved(&edited), Vec::<String>::new());
    // One that lost a check on the way is not found: its file's deletion is reported.
    let lost = new.replace("\n    assert url.host == \"a\"", "");
    assert_eq!(moved(&lost), vec!["test-removed tests/test_urlparse.py"]);
}

#[test]
fn a_moved_test_that_gains_a_skip_is_still_caught() {
    let mut store = Store(Default::default());
    let changes = vec![
        change(
            &mut store,
            "tests/test_utils.py",
            Some(UTILS),
            Some(UTILS_AFTER),
        ),
        change(
            &mut store,
            "tests/test_headers.py",
            Some(HEADERS),
            Some(&HEADERS_AFTER.replace("def test_b", "@pytest.mark.skip\ndef test_b")),
        ),
    ];
    assert_eq!(
        set_findings(&store, &changes),
        vec!["skip-added tests/test_headers.py:5"]
    );
}

/// `test_slug_spaces` leaves `test_text.py` with the import of `slugify`, which
/// arrives in `test_slug.py` with a test of it under another name, its check rewritten.
const TEXT: &str = "from app import slugify, title\n\n\ndef test_title():\n    assert title(\"a b\") == \"A B\"\n\n\ndef test_slug_spaces():\n    assert slugify(\"a b\") == \"a-b\"\n    assert slugify(\"\") == \"\"\n";
const TEXT_AFTER: &str =
    "from app import title\n\n\ndef test_title():\n    assert title(\"a b\") == \"A B\"\n";
const SLUG: &str =
    "from app import render\n\n\ndef test_render():\n    assert render(\"x\") == \"<p>x</p>\"\n";

/// The change: `test_text.py` loses `test_slug_spaces`, `test_slug.py` gains `arrived`.
fn slug_moved(arrived: &str) -> Vec<String> {
    let mut store = Store(Default::default());
    let after = SLUG.replace(
        "import render\n",
        &format!("import render, slugify\n\n\n{arrived}"),
    );
    let changes = vec![
        change(
            &mut store,
            "tests/test_text.py",
            Some(TEXT),
            Some(TEXT_AFTER),
        ),
        change(&mut store, "tests/test_slug.py", Some(SLUG), Some(&after)),
    ];
    set_findings(&store, &changes)
}

#[test]
fn a_test_moved_renamed_and_rewritten_is_found_by_the_import_it_took_along() {
    // Every separator, checked at once: stricter, and no check of the same shape.
    let rewritten = "def test_every_separator_becomes_a_dash():\n    got = [slugify(s) for s in [\"a b\", \"a_b\", \"\"]]\n    assert got == [\"a-b\", \"a-b\", \"\"]\n    assert all(g.islower() for g in got)\n";
    assert_eq!(slug_moved(rewritten), Vec::<String>::new());
    // Moved and weakened on the way: a check dropped, or loosened, is still found.
    let dropped = "def test_slugify():\n    assert slugify(\"a  b\") == \"a-b\"\n";
    assert_eq!(
        slug_moved(dropped),
        vec!["assertions-removed tests/test_slug.py:4"]
    );
    let loosened = "def test_slugify():\n    assert \"-\" in slugify(\"a b\")\n    assert slugify(\"\") == \"\"\n";
    assert_eq!(
        slug_moved(loosened),
        vec!["assertion-loosened tests/test_slug.py:5"]
    );
}

#[test]
fn a_removed_test_and_an_unrelated_new_test_elsewhere_are_not_a_move() {
    let removed = vec![
        "test-removed tests/test_text.py:5",
        "assertions-removed tests/test_text.py:5",
    ];
    // A new test that does not use what the removed test took out of its file.
    let unrelated = "def test_render_empty():\n    assert render(\"\") == \"\"\n    assert render(\" \") == \"<p> </p>\"\n";
    assert_eq!(slug_moved(unrelated), removed);
    // Two new tests that both use it: neither is taken for the removed test.
    let two = "def test_slug_a():\n    assert slugify(\"a\") == \"a\"\n    assert slugify(\"b\") == \"b\"\n\n\ndef test_slug_b():\n    assert slugify(\"c\") == \"c\"\n    assert slugify(\"d\") == \"d\"\n\n\n";
    assert_eq!(slug_moved(two), removed);
}

/// A deleted test file whose two tests share a helper; a new file with the same helper
/// and one test of both things.
const MANIFEST: &str = "public class ManifestTest {\n  @Test\n  public void hasImports() throws Exception {\n    Manifest mf = findManifest(\"core\");\n    assertThat(mf.get(\"Import\")).isNotNull();\n  }\n\n  @Test\n  public void importsAreOptional() throws Exception {\n    Manifest mf = findManifest(\"core\");\n    assertThat(mf.get(\"Import\")).contains(\"optional\");\n  }\n\n  private Manifest findManifest(String name) {\n    return Manifests.load(name);\n  }\n}\n";

fn manifest_moved(test: &str) -> Vec<String> {
    let mut store = Store(Default::default());
    let new = format!(
        "public class ManifestIT {{\n  @Test\n  public void version() {{\n    assertThat(Build.VERSION).isEqualTo(\"2\");\n  }}\n\n{test}\n  private Manifest findManifest(String name) {{\n    return Manifests.load(name);\n  }}\n}}\n"
    );
    let changes = vec![
        change(
            &mut store,
            "src/test/java/ManifestTest.java",
            Some(MANIFEST),
            None,
        ),
        change(
            &mut store,
            "src/test/java/it/ManifestIT.java",
            None,
            Some(&new),
        ),
    ];
    set_findings(&store, &changes)
}

#[test]
fn tests_moved_into_one_test_of_another_file_are_compared_together() {
    let merged = "  @Test\n  public void imports() throws Exception {\n    String imports = findManifest(\"core\").get(\"Import\");\n    assertThat(imports).isEqualTo(\"sun.misc;optional\");\n    assertThat(imports).contains(\"optional\");\n    assertThat(imports).doesNotContain(\"gson\");\n  }\n";
    assert_eq!(manifest_moved(merged), Vec::<String>::new());
    // One check for the two tests' two: less than they checked together.
    let thin = "  @Test\n  public void imports() throws Exception {\n    assertThat(findManifest(\"core\").get(\"Import\")).contains(\"optional\");\n  }\n";
    assert_eq!(
        manifest_moved(thin),
        vec!["assertions-removed src/test/java/it/ManifestIT.java:8"]
    );
}

#[test]
fn findings_name_their_test() {
    let found = analyse(
        b"tests/test_a.py",
        b"class TestA:\n    def test_x(self):\n        assert f() == 1\n",
        Some(b"class TestA:\n    def test_x(self):\n        assert f() >= 1\n"),
        &Config::default(),
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].test.as_deref(), Some("TestA.test_x"));
}

mod strengthening {
    use super::*;

    const BASE: &str = "import pytest\n\nfrom app import rate\n\n\ndef test_rate():\n    assert rate(\"CA\") == 0.075\n";

    fn yes(old: Option<&str>, new: &str) -> bool {
        strengthens(
            b"tests/test_rate.py",
            old.map(str::as_bytes),
            new.as_bytes(),
            &Config::default(),
        )
    }

    #[test]
    fn a_new_test_or_a_new_check_is_a_strengthening() {
        let new_test = format!("{BASE}\n\ndef test_us():\n    assert rate(\"US\") == 0.0\n");
        assert!(yes(Some(BASE), &new_test));
        let new_check = BASE.replace(
            "    assert rate(\"CA\") == 0.075\n",
            "    assert rate(\"CA\") == 0.075\n    assert rate(\"ca\") == 0.075\n",
        );
        assert!(yes(Some(BASE), &new_check));
        let new_import = format!("import math\n{new_test}");
        assert!(yes(Some(BASE), &new_import));
        assert!(yes(None, BASE), "a new test file");
    }

    #[test]
    fn anything_else_is_not() {
        // A changed check, even a stricter one.
        assert!(!yes(Some(BASE), &BASE.replace("== 0.075", "== 0.0750")));
        // Module-level code besides imports.
        assert!(!yes(Some(BASE), &format!("{BASE}\nrate.cache_clear()\n")));
        // A new helper, or a new test that skips.
        assert!(!yes(
            Some(BASE),
            &format!("{BASE}\n\ndef helper():\n    return 1\n")
        ));
        assert!(!yes(
            Some(BASE),
            &format!(
                "{BASE}\n\n@pytest.mark.skip\ndef test_us():\n    assert rate(\"US\") == 0.0\n"
            )
        ));
        // A removed line, a setup hook, nothing added at all.
        assert!(!yes(Some(BASE), &BASE.replace("import pytest\n", "")));
        assert!(!yes(Some(BASE), BASE));
        // Runner files never count.
        assert!(!strengthens(
            b"tests/conftest.py",
            Some(BASE.as_bytes()),
            format!("{BASE}\n\ndef test_us():\n    assert 1 == 1\n").as_bytes(),
            &Config::default()
        ));
        // A new file with a helper in it.
        assert!(!yes(
            None,
            &format!("{BASE}\n\ndef helper():\n    return 1\n")
        ));
    }

    #[test]
    fn is_strengthening_reads_the_change() {
        let mut store = Store(Default::default());
        let new_test = format!("{BASE}\n\ndef test_us():\n    assert rate(\"US\") == 0.0\n");
        let c = change(
            &mut store,
            "tests/test_rate.py",
            Some(BASE),
            Some(&new_test),
        );
        assert!(is_strengthening(&c, &Config::default(), &store));
        let deleted = change(&mut store, "tests/test_rate.py", Some(BASE), None);
        assert!(!is_strengthening(&deleted, &Config::default(), &store));
        let go = "package rate\n\nimport \"testing\"\n\nfunc TestRate(t *testing.T) {\n\tif Rate(\"CA\") != 0.075 {\n\t\tt.Fatal(\"rate\")\n\t}\n}\n";
        let go_more = format!(
            "{go}\nfunc TestUS(t *testing.T) {{\n\tif Rate(\"US\") != 0 {{\n\t\tt.Fatal(\"us\")\n\t}}\n}}\n"
        );
        let c = change(&mut store, "rate_test.go", Some(go), Some(&go_more));
        assert!(is_strengthening(&c, &Config::default(), &store));
        let with_main = format!("{go_more}\nfunc TestMain(m *testing.M) {{\n\tm.Run()\n}}\n");
        let c = change(&mut store, "rate_test.go", Some(go), Some(&with_main));
        assert!(!is_strengthening(&c, &Config::default(), &store));
    }
}

/// Sample test classes nested in a test, moved into a class of samples in another file:
/// `Throwing > fails` became `Samples > Throwing > fails` (and `Retired > fails`, first
/// in the file, was removed: it must not take the place of a moved one).
fn samples_extracted(moved_body: &str) -> Vec<String> {
    let mut store = Store(Default::default());
    let old = "public class TracesTest {\n    @Test\n    public void trimsFrames() {\n        assertEquals(2, run(Throwing.class).frames());\n    }\n\n    public static class Retired {\n        @Test\n        public void fails() {\n            throw new IllegalStateException();\n        }\n    }\n\n    public static class Throwing {\n        @Test\n        public void fails() {\n            throw new RuntimeException(\"boom\");\n        }\n    }\n\n    public static class ThrowingWithCause {\n        @Test\n        public void fails() {\n            throw new RuntimeException(\"outer\", new Exception(\"inner\"));\n        }\n    }\n}\n";
    let new = "public class TracesTest {\n    @Test\n    public void trimsFrames() {\n        assertEquals(2, run(Samples.Throwing.class).frames());\n    }\n}\n";
    let samples = format!(
        "public class Samples {{\n    public static class Throwing {{\n        @Test\n        public void fails() {{\n            throw new RuntimeException(\"boom\");\n        }}\n    }}\n\n    public static class ThrowingWithCause {{\n{moved_body}    }}\n}}\n"
    );
    let changes = vec![
        change(
            &mut store,
            "src/test/java/a/TracesTest.java",
            Some(old),
            Some(new),
        ),
        change(
            &mut store,
            "src/test/java/b/Samples.java",
            None,
            Some(&samples),
        ),
    ];
    let config = Config::default();
    let policy = Policy::new(&config.protect.paths).unwrap();
    findings(&changes, &policy, &config, &store)
        .iter()
        .map(|f| format!("{} {}", f.label(), f.detail))
        .collect()
}

#[test]
fn test_classes_nested_into_another_file_are_moved_not_removed() {
    let fails = "        @Test\n        public void fails() {\n            throw new RuntimeException(\"outer\", new Exception(\"inner\"));\n        }\n";
    assert_eq!(
        samples_extracted(fails),
        vec!["test-removed src/test/java/a/TracesTest.java:4 `Retired > fails` removed"]
    );
    let ignored = "        @Ignore\n        @Test\n        public void fails() {\n            throw new RuntimeException(\"outer\", new Exception(\"inner\"));\n        }\n";
    assert_eq!(
        samples_extracted(ignored),
        vec![
            "test-removed src/test/java/a/TracesTest.java:4 `Retired > fails` removed",
            "skip-added src/test/java/b/Samples.java:10 `@Ignore` added"
        ]
    );
}

/// `lib.rs` loses `test_new_v5`; `v5.rs` is new with `test_new` (the module's name
/// dropped from the test's).
fn moved_into_its_module(test: &str) -> Vec<String> {
    let mut store = Store(Default::default());
    let lib = "pub mod v5;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_nil() {\n        assert!(Id::nil().is_nil());\n    }\n\n    #[test]\n    fn test_new_v5() {\n        for &(ns, name) in FIXTURE {\n            let id = Id::new_v5(ns, name);\n            assert_eq!(id.version().unwrap(), Version::Sha1);\n            assert_eq!(id.variant().unwrap(), Variant::Rfc4122);\n        }\n    }\n}\n";
    let lib_after = "pub mod v5;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_nil() {\n        assert!(Id::nil().is_nil());\n    }\n}\n";
    let v5 = format!(
        "impl Id {{\n    pub fn new_v5(ns: Id, name: &[u8]) -> Id {{\n        sha1(ns, name)\n    }}\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n{test}}}\n"
    );
    let changes = vec![
        change(&mut store, "src/lib.rs", Some(lib), Some(lib_after)),
        change(&mut store, "src/v5.rs", None, Some(&v5)),
    ];
    set_findings(&store, &changes)
}

#[test]
fn a_test_moved_into_the_module_its_name_named_is_paired_with_it() {
    let moved = "    #[test]\n    fn test_new() {\n        for &(ns, name) in FIXTURE {\n            let id = Id::new_v5(ns, name);\n            assert_eq!(id.variant(), Some(Variant::Rfc4122));\n            assert_eq!(id.version(), Some(Version::Sha1));\n        }\n    }\n";
    assert_eq!(moved_into_its_module(moved), Vec::<String>::new());
    // Paired, it is compared: a check dropped on the way is found.
    let dropped = "    #[test]\n    fn test_new() {\n        for &(ns, name) in FIXTURE {\n            let id = Id::new_v5(ns, name);\n            assert_eq!(id.variant(), Some(Variant::Rfc4122));\n        }\n    }\n";
    assert_eq!(
        moved_into_its_module(dropped),
        vec!["assertions-removed src/v5.rs:12"]
    );
    // Another name is no such move.
    let other = "    #[test]\n    fn test_hash() {\n        let id = Id::new_v5(NS, b\"a\");\n        assert_eq!(id.variant(), Some(Variant::Rfc4122));\n    }\n";
    assert_eq!(
        moved_into_its_module(other),
        vec![
            "test-removed src/lib.rs:11",
            "assertions-removed src/lib.rs:11"
        ]
    );
}
