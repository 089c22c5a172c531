//! Unit tests of the key comparison, the INI reader and the build-file detector.

use super::build::{Build, weakening_lines};
use super::*;

fn weakened(build: Build, old: &str, new: &str) -> Vec<(u32, String)> {
    weakening_lines(build, old, new)
        .into_iter()
        .map(|(line, _, text)| (line, text))
        .collect()
}

const POM: &str = "<project>\n<build><plugins>\n<plugin>\n<artifactId>maven-surefire-plugin</artifactId>\n<configuration>\n</configuration>\n</plugin>\n</plugins></build>\n<dependencies><dependency><exclusions><exclusion><exclude>x</exclude></exclusion></exclusions></dependency></dependencies>\n</project>\n";

#[test]
fn maven_skip_and_surefire_excludes_are_found_with_lines() {
    let new = POM.replace(
        "<configuration>\n",
        "<configuration>\n<skipTests>true</skipTests>\n<excludes>\n<exclude>**/RateTest.java</exclude>\n</excludes>\n<testFailureIgnore>true</testFailureIgnore>\n",
    );
    assert_eq!(
        weakened(Build::Maven, POM, &new),
        vec![
            (6, "<skipTests>true</skipTests>".to_string()),
            (8, "<exclude>**/RateTest.java</exclude>".to_string()),
            (
                10,
                "<testFailureIgnore>true</testFailureIgnore>".to_string()
            ),
        ]
    );
}

#[test]
fn maven_version_bumps_false_values_comments_and_other_excludes_are_not_findings() {
    let new = POM
        .replace("<project>", "<project><version>1.2.4</version>")
        .replace(
            "<configuration>\n",
            "<configuration>\n<skipTests>false</skipTests>\n<!-- <skipTests>true</skipTests> -->\n",
        );
    assert!(weakened(Build::Maven, POM, &new).is_empty());
    let new = POM.replace(
        "</project>",
        "<properties><maven.test.skip>true</maven.test.skip></properties>\n</project>",
    );
    assert_eq!(weakened(Build::Maven, POM, &new).len(), 1);
}

const GRADLE: &str = "plugins { id 'java' }\ndependencies {\n  implementation('a:b:1.0') { exclude group: 'x' }\n}\ntest {\n  useJUnitPlatform()\n}\n";

#[test]
fn gradle_test_excludes_filters_and_disabling_are_found() {
    let new = GRADLE.replace(
        "  useJUnitPlatform()\n",
        "  useJUnitPlatform()\n  exclude '**/RateTest.class'\n  filter { excludeTestsMatching '*Rate*' }\n  ignoreFailures = true\n",
    );
    let found = weakened(Build::Gradle, GRADLE, &new);
    assert_eq!(
        found.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        vec![7, 8, 9],
        "{found:?}"
    );
    let kts = "tasks.named<Test>(\"test\") {\n    useJUnitPlatform()\n}\n";
    let new = kts.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n    enabled = false\n",
    );
    assert_eq!(weakened(Build::Gradle, kts, &new).len(), 1);
    assert_eq!(
        weakened(Build::Gradle, "", "tasks.test.enabled = false\n").len(),
        1
    );
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  onlyIf { false }\n",
    );
    assert_eq!(weakened(Build::Gradle, GRADLE, &new).len(), 1);
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  ignoreFailures = false\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
}

#[test]
fn gradle_dependency_bumps_and_dependency_excludes_are_not_findings() {
    let new = GRADLE.replace("a:b:1.0", "a:b:1.1").replace(
        "}\ntest",
        "  implementation('c:d:2') { exclude module: 'y' }\n}\ntest",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    // A collection's `.filter { }` inside a test block is not the test filter.
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  jvmArgs = allJvmArgs.filter { !it.startsWith(\"--add-opens\") }\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    // A comment is not code.
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  // exclude '**/X'\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
}

#[test]
fn ini_reads_the_configparser_dialect() {
    let text = "# comment\n[tool:pytest]\nAddOpts = -q\n    --strict-markers\n\n    -p no:cacheprovider\n; more\ntestpaths: tests\n[metadata]\nname = x\n";
    let Node::Table(sections) = ini::parse(text).unwrap() else {
        panic!()
    };
    let Node::Table(pytest) = &sections["tool:pytest"] else {
        panic!()
    };
    assert_eq!(
        pytest["addopts"],
        Node::Leaf("-q\n--strict-markers\n\n-p no:cacheprovider".into())
    );
    assert_eq!(pytest["testpaths"], Node::Leaf("tests".into()));
    assert!(ini::parse("[a]\nx = 1\n[a]\n").is_err());
    assert!(ini::parse("[a]\nx = 1\nX = 2\n").is_err());
    assert!(ini::parse("x = 1\n").is_err());
    assert!(ini::parse("[a]\njust words\n").is_err());
}

#[test]
fn differences_are_named_by_their_most_specific_key() {
    let old = parse(
        b"[tool.pytest.ini_options]\naddopts = \"-q\"\n[[bin]]\nname = \"a\"\n",
        KeyFormat::Toml,
    )
    .unwrap();
    let new = parse(b"[tool.pytest.ini_options]\naddopts = \"-q --deselect x\"\n[[bin]]\nname = \"a\"\ntest = false\n", KeyFormat::Toml).unwrap();
    let mut out = Vec::new();
    for key in ["tool.pytest", "bin.test"] {
        let key = KeyPath::try_from(key.to_string()).unwrap();
        let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
        old.select(key.segments(), String::new(), &mut a);
        new.select(key.segments(), String::new(), &mut b);
        let labels: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
        for l in labels {
            diff(a.get(&l).copied(), b.get(&l).copied(), &l, &mut out);
        }
    }
    assert_eq!(out, vec!["tool.pytest.ini_options.addopts", "bin[a].test"]);
}
