//! Runner configuration (issue 15): `[protect.keys]` inside pyproject.toml, setup.cfg,
//! package.json and Cargo.toml; the default paths for runner files, testdata and every
//! common CI system; `runner-config-weakened` for Maven and Gradle builds and MSBuild
//! test projects.

use crate::common::{Run, TestRepo};

/// Commits `path` with `before` (hooks skipped), stages `after`, and runs
/// `git guard check --format json`.
fn check_edit(repo: &TestRepo, path: &str, before: &str, after: &str) -> (Run, serde_json::Value) {
    repo.write(path, before);
    repo.git(&["add", "-A"]);
    repo.git(&[
        "commit",
        "-q",
        "--no-verify",
        "--allow-empty",
        "-m",
        "before",
    ]);
    repo.write(path, after);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["check", "--format", "json"]);
    let json = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run, json)
}

/// Asserts the edit is blocked by `[protect.keys]`, naming `path` and the reason.
#[track_caller]
fn assert_key_blocked(path: &str, before: &str, after: &str, reason: &str) {
    let repo = TestRepo::with_history();
    let (run, v) = check_edit(&repo, path, before, after);
    run.expect(1);
    let staged = &v["checked"][0];
    assert_eq!(staged["verdict"], "needs-approval", "{v:#}");
    let matched = &staged["protected"][0]["matched"][0];
    assert_eq!(matched["path"], path, "{v:#}");
    assert_eq!(matched["reason"], reason, "{v:#}");
    assert!(
        matched["pattern"]
            .as_str()
            .unwrap()
            .starts_with("[protect.keys]"),
        "{v:#}"
    );
    assert_eq!(staged["approval_paths"], serde_json::json!([path]), "{v:#}");
    // The text report names the key too.
    let text = repo.guard(&["check"]);
    text.expect(1);
    assert!(text.stdout.contains(reason), "{}", text.stdout);
}

/// Asserts the edit passes: nothing protected, no finding.
#[track_caller]
fn assert_passes(path: &str, before: &str, after: &str) {
    let repo = TestRepo::with_history();
    let (run, v) = check_edit(&repo, path, before, after);
    run.expect(0);
    assert_eq!(v["checked"][0]["verdict"], "clean", "{v:#}");
}

/// Asserts the edit is blocked because one side cannot be parsed (fail closed).
#[track_caller]
fn assert_unparsable_blocks(path: &str, before: &str, after: &str) {
    let repo = TestRepo::with_history();
    let (run, v) = check_edit(&repo, path, before, after);
    run.expect(1);
    let reason = v["checked"][0]["protected"][0]["matched"][0]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reason.starts_with(&format!("{path}: the new content cannot be parsed")),
        "{v:#}"
    );
    assert!(reason.ends_with("protected whole"), "{v:#}");
}

const PYPROJECT: &str = r#"[project]
name = "invoice"
version = "1.0.0"
dependencies = ["requests>=2.31", "pydantic>=2.5"]

[tool.pytest.ini_options]
addopts = "-q --strict-markers"
testpaths = ["tests"]

[tool.ruff]
line-length = 100
"#;

#[test]
fn pyproject_pytest_addopts_deselect_k_and_plugin_are_blocked_by_key() {
    for (edit, key) in [
        (
            r#"addopts = "-q --strict-markers --deselect tests/test_invoice.py::test_rate""#,
            "tool.pytest.ini_options.addopts",
        ),
        (
            r#"addopts = "-q --strict-markers -k 'not currency'""#,
            "tool.pytest.ini_options.addopts",
        ),
        (
            r#"addopts = "-q --strict-markers -p pytest_green""#,
            "tool.pytest.ini_options.addopts",
        ),
    ] {
        let after = PYPROJECT.replace(r#"addopts = "-q --strict-markers""#, edit);
        assert_key_blocked(
            "pyproject.toml",
            PYPROJECT,
            &after,
            &format!("pyproject.toml: {key} changed"),
        );
    }
    let after = PYPROJECT.replace(r#"testpaths = ["tests"]"#, r#"testpaths = ["tests/unit"]"#);
    assert_key_blocked(
        "pyproject.toml",
        PYPROJECT,
        &after,
        "pyproject.toml: tool.pytest.ini_options.testpaths changed",
    );
}

#[test]
fn pyproject_dependency_bump_and_other_tools_pass() {
    let after = PYPROJECT
        .replace("requests>=2.31", "requests>=2.32")
        .replace("1.0.0", "1.0.1")
        .replace("line-length = 100", "line-length = 120");
    assert_passes("pyproject.toml", PYPROJECT, &after);
    // Reformatting the pytest table without changing a value passes too.
    let after = PYPROJECT.replace(
        "testpaths = [\"tests\"]",
        "testpaths = [\n  \"tests\",\n]  # where tests live",
    );
    assert_passes("pyproject.toml", PYPROJECT, &after);
}

#[test]
fn pyproject_unparsable_is_protected_whole() {
    assert_unparsable_blocks(
        "pyproject.toml",
        PYPROJECT,
        &PYPROJECT.replace("[tool.ruff]", "[tool.ruff"),
    );
}

#[test]
fn pyproject_in_a_subdirectory_and_a_new_pytest_table_are_keys_too() {
    let before = "[project]\nname = \"svc\"\n";
    let after = "[project]\nname = \"svc\"\n[tool.pytest.ini_options]\naddopts = \"-x\"\n";
    assert_key_blocked(
        "services/api/pyproject.toml",
        before,
        after,
        "services/api/pyproject.toml: tool.pytest changed",
    );
}

#[test]
fn pytest_ini_files_are_protected_whole() {
    for path in [".pytest.ini", "pytest.ini", "tox.ini"] {
        let repo = TestRepo::with_history();
        let (run, v) = check_edit(
            &repo,
            path,
            "[pytest]\naddopts = -q\n",
            "[pytest]\naddopts = -q -k 'not rate'\n",
        );
        run.expect(1);
        assert_eq!(
            v["checked"][0]["protected"][0]["matched"][0]["pattern"], path,
            "{v:#}"
        );
    }
}

const SETUP_CFG: &str = "[metadata]\nname = invoice\nversion = 1.0.0\n\n[options]\ninstall_requires =\n    requests>=2.31\n    pydantic>=2.5\n\n[tool:pytest]\naddopts =\n    -q\n    --strict-markers\ntestpaths = tests\n";

#[test]
fn setup_cfg_tool_pytest_is_blocked_by_key_and_a_dependency_bump_passes() {
    let after = SETUP_CFG.replace(
        "    --strict-markers\n",
        "    --strict-markers\n    --deselect tests/test_invoice.py::test_rate\n",
    );
    assert_key_blocked(
        "setup.cfg",
        SETUP_CFG,
        &after,
        "setup.cfg: tool:pytest.addopts changed",
    );
    // `key: value` and option case are configparser's: `TestPaths: x` is `testpaths`.
    let after = SETUP_CFG.replace("testpaths = tests", "TestPaths: tests/unit");
    assert_key_blocked(
        "setup.cfg",
        SETUP_CFG,
        &after,
        "setup.cfg: tool:pytest.testpaths changed",
    );
    let after = SETUP_CFG
        .replace("requests>=2.31", "requests>=2.32")
        .replace("1.0.0", "1.0.1");
    assert_passes("setup.cfg", SETUP_CFG, &after);
    // Comments and blank-line layout inside the pytest section change nothing.
    let after = SETUP_CFG.replace(
        "[tool:pytest]\n",
        "[tool:pytest]\n# run quietly\n; strictly\n",
    );
    assert_passes("setup.cfg", SETUP_CFG, &after);
    // A repeated section is an error for configparser: fail closed.
    assert_unparsable_blocks(
        "setup.cfg",
        SETUP_CFG,
        &format!("{SETUP_CFG}[metadata]\nx = 1\n"),
    );
}

const PACKAGE_JSON: &str = r#"{
  "name": "invoice-web",
  "version": "1.0.0",
  "scripts": { "build": "tsc", "test": "jest" },
  "dependencies": { "react": "^18.2.0" },
  "devDependencies": { "jest": "^29.7.0" },
  "jest": { "testEnvironment": "node" }
}
"#;

#[test]
fn package_json_jest_and_scripts_test_are_blocked_by_key() {
    let after = PACKAGE_JSON.replace(
        r#""testEnvironment": "node""#,
        r#""testEnvironment": "node", "testPathIgnorePatterns": ["rate.test.js"]"#,
    );
    assert_key_blocked(
        "package.json",
        PACKAGE_JSON,
        &after,
        "package.json: jest.testPathIgnorePatterns changed",
    );
    let after = PACKAGE_JSON.replace(r#""test": "jest""#, r#""test": "jest --passWithNoTests""#);
    assert_key_blocked(
        "package.json",
        PACKAGE_JSON,
        &after,
        "package.json: scripts.test changed",
    );
}

#[test]
fn package_json_dependency_bump_and_other_scripts_pass() {
    let after = PACKAGE_JSON
        .replace("^18.2.0", "^18.3.1")
        .replace("^29.7.0", "^29.7.1")
        .replace(r#""build": "tsc""#, r#""build": "tsc -b""#)
        .replace("1.0.0", "1.0.1");
    assert_passes("package.json", PACKAGE_JSON, &after);
}

#[test]
fn package_json_unparsable_is_protected_whole() {
    assert_unparsable_blocks(
        "package.json",
        PACKAGE_JSON,
        &PACKAGE_JSON.replace("\"jest\": {", "\"jest\": {,"),
    );
}

#[test]
fn vitest_and_other_runner_config_files_are_protected_whole() {
    for path in [
        "vitest.config.ts",
        "web/vitest.config.mts",
        "jest.config.js",
        ".mocharc.yml",
        "karma.conf.js",
        "playwright.config.ts",
        "cypress.config.ts",
        ".nextest/config.toml",
        "noxfile.py",
    ] {
        let repo = TestRepo::with_history();
        let (run, v) = check_edit(&repo, path, "a = 1\n", "a = 2\n");
        run.expect(1);
        assert_eq!(
            v["checked"][0]["protected"][0]["matched"][0]["path"], path,
            "{v:#}"
        );
    }
}

const CARGO_TOML: &str = r#"[package]
name = "invoice"
version = "0.1.0"
edition = "2021"

[lib]
path = "src/lib.rs"

[[bin]]
name = "invoice"
path = "src/main.rs"

[dependencies]
serde = "1.0.190"
"#;

#[test]
fn cargo_toml_test_false_in_bin_and_lib_is_blocked_by_key() {
    let after = CARGO_TOML.replace(
        "name = \"invoice\"\npath = \"src/main.rs\"\n",
        "name = \"invoice\"\npath = \"src/main.rs\"\ntest = false\n",
    );
    assert_key_blocked(
        "Cargo.toml",
        CARGO_TOML,
        &after,
        "Cargo.toml: bin[invoice].test changed",
    );
    let after = CARGO_TOML.replace(
        "path = \"src/lib.rs\"\n",
        "path = \"src/lib.rs\"\ntest = false\n",
    );
    assert_key_blocked(
        "Cargo.toml",
        CARGO_TOML,
        &after,
        "Cargo.toml: lib.test changed",
    );
    let after = format!("{CARGO_TOML}\n[[test]]\nname = \"rate\"\nharness = false\n");
    assert_key_blocked("Cargo.toml", CARGO_TOML, &after, "Cargo.toml: test changed");
}

#[test]
fn cargo_toml_dependency_bump_passes_and_unparsable_blocks() {
    let after = CARGO_TOML
        .replace("1.0.190", "1.0.193")
        .replace("0.1.0", "0.1.1");
    assert_passes("Cargo.toml", CARGO_TOML, &after);
    // A new binary that keeps its tests is not a protected change.
    let after = format!("{CARGO_TOML}\n[[bin]]\nname = \"tool\"\npath = \"src/tool.rs\"\n");
    assert_passes("Cargo.toml", CARGO_TOML, &after);
    assert_unparsable_blocks(
        "Cargo.toml",
        CARGO_TOML,
        &CARGO_TOML.replace("serde = ", "serde == "),
    );
}

const POM: &str = "<project>\n  <version>1.0.0</version>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.2</version>\n        <configuration>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n";

#[test]
fn pom_skip_tests_and_surefire_exclude_are_runner_config_weakened_with_lines() {
    let repo = TestRepo::with_history();
    let after = POM.replace(
        "<configuration>\n",
        "<configuration>\n          <skipTests>true</skipTests>\n          <excludes><exclude>**/RateTest.java</exclude></excludes>\n",
    );
    let (run, v) = check_edit(&repo, "pom.xml", POM, &after);
    run.expect(1);
    let findings = v["checked"][0]["findings"].as_array().unwrap();
    let labels: Vec<(String, u64, bool)> = findings
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["blocking"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        labels,
        vec![
            ("runner-config-weakened".to_string(), 9, true),
            ("runner-config-weakened".to_string(), 10, true),
        ],
        "{v:#}"
    );
    let text = repo.guard(&["check"]);
    assert!(
        text.stdout.contains("runner-config-weakened pom.xml:9"),
        "{}",
        text.stdout
    );
}

#[test]
fn pom_version_bump_passes() {
    let after = POM.replace("1.0.0", "1.0.1").replace("3.2.2", "3.2.5");
    assert_passes("pom.xml", POM, &after);
}

const GRADLE: &str = "plugins { id 'java' }\ndependencies {\n    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.0'\n}\ntest {\n    useJUnitPlatform()\n}\n";

#[test]
fn gradle_test_exclude_is_runner_config_weakened_and_a_bump_passes() {
    let repo = TestRepo::with_history();
    let after = GRADLE.replace(
        "    useJUnitPlatform()\n",
        "    useJUnitPlatform()\n    exclude '**/RateTest.class'\n",
    );
    let (run, v) = check_edit(&repo, "build.gradle", GRADLE, &after);
    run.expect(1);
    assert_eq!(
        v["checked"][0]["findings"][0]["kind"], "runner-config-weakened",
        "{v:#}"
    );
    assert_eq!(v["checked"][0]["findings"][0]["line"], 7, "{v:#}");
    let after = GRADLE.replace("5.10.0", "5.10.1");
    assert_passes("build.gradle", GRADLE, &after);
    let kts = "tasks.test {\n    useJUnitPlatform()\n}\n";
    let repo = TestRepo::with_history();
    let (run, v) = check_edit(
        &repo,
        "app/build.gradle.kts",
        kts,
        &kts.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n    filter { excludeTestsMatching(\"*Rate*\") }\n",
        ),
    );
    run.expect(1);
    assert_eq!(v["checked"][0]["findings"][0]["line"], 3, "{v:#}");
}

/// An xUnit test project beside its library (`src/Invoice.Tests/`, outside the default
/// protected paths), on three target frameworks.
const TESTS_CSPROJ: &str = "\u{feff}<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.11.1\" />\n    <PackageReference Include=\"xunit\" Version=\"2.9.2\" />\n    <PackageReference Include=\"xunit.runner.visualstudio\" Version=\"2.8.2\" />\n  </ItemGroup>\n  <ItemGroup>\n    <ProjectReference Include=\"..\\Invoice\\Invoice.csproj\" />\n  </ItemGroup>\n</Project>\n";

const TESTS_CSPROJ_PATH: &str = "src/Invoice.Tests/Invoice.Tests.csproj";

/// The `(kind, line, blocking, detail)` of each finding of the one checked target.
fn findings_of(v: &serde_json::Value) -> Vec<(String, u64, bool, String)> {
    v["checked"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["blocking"].as_bool().unwrap(),
                f["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn csproj_test_project_on_fewer_frameworks_is_runner_config_weakened_with_the_line() {
    // FluentValidation 0f215b685a71's shape: the list becomes one framework.
    let repo = TestRepo::with_history();
    let after = TESTS_CSPROJ.replace(
        "<TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>",
        "<TargetFramework>net8.0</TargetFramework>",
    );
    let (run, v) = check_edit(&repo, TESTS_CSPROJ_PATH, TESTS_CSPROJ, &after);
    run.expect(1);
    assert_eq!(v["checked"][0]["verdict"], "needs-approval", "{v:#}");
    assert_eq!(
        findings_of(&v),
        vec![(
            "runner-config-weakened".to_string(),
            3,
            true,
            "the test project targets fewer frameworks (net6.0;net7.0;net8.0 → net8.0): \
             `<TargetFramework>net8.0</TargetFramework>`"
                .to_string()
        )],
        "{v:#}"
    );
    let text = repo.guard(&["check"]);
    text.expect(1);
    assert!(
        text.stdout
            .contains("runner-config-weakened src/Invoice.Tests/Invoice.Tests.csproj:3"),
        "{}",
        text.stdout
    );
    // Polly 475b7ba6's shape: net472 kept only under a Windows condition.
    let repo = TestRepo::with_history();
    let before = TESTS_CSPROJ.replace("net6.0;net7.0;net8.0", "net8.0;net472");
    let after = TESTS_CSPROJ.replace(
        "<TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>",
        "<TargetFrameworks>net8.0</TargetFrameworks>\n    <TargetFrameworks Condition=\"$([MSBuild]::IsOSPlatform('Windows'))\">$(TargetFrameworks);net472</TargetFrameworks>",
    );
    let (run, v) = check_edit(&repo, TESTS_CSPROJ_PATH, &before, &after);
    run.expect(1);
    let found = findings_of(&v);
    assert_eq!(found.len(), 1, "{v:#}");
    assert_eq!(found[0].1, 3, "{v:#}");
    assert!(found[0].3.contains("where no condition holds"), "{v:#}");
}

#[test]
fn csproj_is_test_project_false_and_a_test_filter_are_runner_config_weakened() {
    let repo = TestRepo::with_history();
    let after = TESTS_CSPROJ.replace(
        "    <IsPackable>false</IsPackable>\n",
        "    <IsPackable>false</IsPackable>\n    <IsTestProject>false</IsTestProject>\n    <VSTestTestCaseFilter>Category!=Rates</VSTestTestCaseFilter>\n",
    );
    let (run, v) = check_edit(&repo, TESTS_CSPROJ_PATH, TESTS_CSPROJ, &after);
    run.expect(1);
    let found = findings_of(&v);
    assert_eq!(
        found.iter().map(|f| (f.1, f.2)).collect::<Vec<_>>(),
        vec![(5, true), (6, true)],
        "{v:#}"
    );
    assert!(
        found.iter().all(|f| f.0 == "runner-config-weakened"),
        "{v:#}"
    );
}

#[test]
fn csproj_framework_bump_package_bump_and_a_library_dropping_frameworks_pass() {
    // The same number of frameworks, newer: every test still runs as often.
    let after = TESTS_CSPROJ.replace("net6.0;net7.0;net8.0", "net8.0;net9.0;net10.0");
    assert_passes(TESTS_CSPROJ_PATH, TESTS_CSPROJ, &after);
    let after = TESTS_CSPROJ
        .replace("17.11.1", "17.12.0")
        .replace("net6.0;net7.0;net8.0", "net6.0;net7.0;net8.0;net9.0");
    assert_passes(TESTS_CSPROJ_PATH, TESTS_CSPROJ, &after);
    // A library (not a test project) may drop frameworks.
    let library = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n  </PropertyGroup>\n</Project>\n";
    assert_passes(
        "src/Invoice/Invoice.csproj",
        library,
        &library.replace("net6.0;net7.0;", ""),
    );
}

#[test]
fn the_default_policy_protects_testdata_actions_codeowners_and_every_ci_system() {
    for path in [
        "pkg/parse/testdata/golden.json",
        "testdata/input.txt",
        ".github/actions/setup/action.yml",
        "CODEOWNERS",
        ".github/CODEOWNERS",
        ".circleci/config.yml",
        "Jenkinsfile",
        "azure-pipelines.yml",
        ".buildkite/pipeline.yml",
        "bitbucket-pipelines.yml",
        ".travis.yml",
        ".gitlab-ci.yml",
        ".github/workflows/ci.yml",
    ] {
        let repo = TestRepo::with_history();
        let (run, v) = check_edit(&repo, path, "a: 1\n", "a: 2\n");
        run.expect(1);
        assert_eq!(
            v["checked"][0]["protected"][0]["matched"][0]["path"], path,
            "{v:#}"
        );
    }
}

#[test]
fn init_writes_the_keys_table_and_every_default_path() {
    let repo = TestRepo::with_history();
    repo.guard(&["init"]).expect(0);
    let text = std::fs::read_to_string(repo.root.join("guard.toml")).unwrap();
    for needle in [
        "[protect.keys]",
        "\"pyproject.toml\" = [\"tool.pytest\"",
        "\"**/testdata/**\"",
        "\".circleci/**\"",
        "\"runner-config-weakened\"",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    // The written policy is in force: an addopts edit is blocked through it.
    repo.commit_all("policy");
    let (run, _) = check_edit(
        &repo,
        "pyproject.toml",
        PYPROJECT,
        &PYPROJECT.replace("-q --strict-markers", "-q -k 'not rate'"),
    );
    run.expect(1);
    assert!(
        run.stdout
            .contains("tool.pytest.ini_options.addopts changed")
    );
}

#[test]
fn a_user_keys_table_replaces_the_default_table() {
    let repo = TestRepo::with_history();
    repo.write(
        "guard.toml",
        "[protect.keys]\n\"config/*.json\" = [\"runner.retries\"]\n\"pyproject.toml\" = [\"tool.pytest\", \"tool.mypy\"]\n",
    );
    repo.commit_all("policy");
    // package.json is no longer in the table: a jest edit passes.
    let (run, _) = check_edit(
        &repo,
        "package.json",
        PACKAGE_JSON,
        &PACKAGE_JSON.replace("\"node\"", "\"jsdom\""),
    );
    run.expect(0);
    repo.commit_all("jest");
    // The user's own files and keys are protected.
    let (run, v) = check_edit(
        &repo,
        "config/ci.json",
        "{\"runner\": {\"retries\": 0}, \"name\": \"a\"}",
        "{\"runner\": {\"retries\": 3}, \"name\": \"a\"}",
    );
    run.expect(1);
    assert_eq!(
        v["checked"][0]["protected"][0]["matched"][0]["reason"],
        "config/ci.json: runner.retries changed"
    );
    repo.commit_all("retries");
    let (run, v) = check_edit(
        &repo,
        "pyproject.toml",
        PYPROJECT,
        &format!("{PYPROJECT}[tool.mypy]\nstrict = false\n"),
    );
    run.expect(1);
    assert_eq!(
        v["checked"][0]["protected"][0]["matched"][0]["keys"],
        serde_json::json!(["tool.mypy"])
    );
    // An empty table protects no keys at all.
    repo.commit_all("mypy");
    repo.write("guard.toml", "[protect.keys]\n");
    repo.commit_all("no keys");
    let (run, _) = check_edit(
        &repo,
        "pyproject.toml",
        &format!("{PYPROJECT}[tool.mypy]\nstrict = false\n"),
        &format!("{PYPROJECT}[tool.mypy]\nstrict = true\n").replace("-q", "-x"),
    );
    run.expect(0);
}

#[test]
fn invalid_key_syntax_is_a_config_error_naming_it() {
    let repo = TestRepo::with_history();
    repo.write(
        "guard.toml",
        "[protect]\npaths = [\"tests/**\"]\n\n[protect.keys]\n\"pyproject.toml\" = [\"tool.pytest\", \"tool..coverage\"]\n",
    );
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(
        run.stderr
            .starts_with("error: guard.toml:5:20: [protect.keys] invalid key `tool..coverage`: it has an empty segment"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint: "), "{}", run.stderr);
    repo.write("guard.toml", "[protect.keys]\n\"Makefile\" = [\"test\"]\n");
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(run.stderr.contains("`Makefile`"), "{}", run.stderr);
    assert!(run.stderr.contains("guard.toml:2:"), "{}", run.stderr);
    repo.write("guard.toml", "[protect.keys]\n\"[x.json\" = [\"test\"]\n");
    let run = repo.guard(&["check"]);
    run.expect(2);
    assert!(run.stderr.contains("`[x.json`"), "{}", run.stderr);
}

#[test]
fn the_hook_names_the_key_and_an_approval_binds_to_the_keyed_change() {
    let repo = TestRepo::installed();
    repo.write("pyproject.toml", PYPROJECT);
    repo.commit_all("pyproject");
    repo.write(
        "pyproject.toml",
        PYPROJECT.replace("-q --strict-markers", "-q -p pytest_green"),
    );
    repo.git(&["add", "-A"]);
    let run = repo.commit("plugin", &[]);
    run.expect(1);
    assert!(
        run.all()
            .contains("pyproject.toml: tool.pytest.ini_options.addopts changed"),
        "{}",
        run.all()
    );
    repo.human(&[
        "allow",
        "--reason",
        "The green plugin replaces the flaky reporter, reviewed by QA",
    ])
    .expect(0);
    repo.commit("plugin", &[]).expect(0);
    let note = repo.note("HEAD").unwrap();
    assert!(note.contains("pyproject.toml"), "{note}");
}

#[test]
fn ci_text_annotations_and_step_summary_name_the_key() {
    let repo = TestRepo::with_history();
    repo.write("package.json", PACKAGE_JSON);
    repo.commit_all("package.json");
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.write(
        "package.json",
        PACKAGE_JSON.replace(r#""test": "jest""#, r#""test": "jest --passWithNoTests""#),
    );
    repo.commit_all("make CI green");
    let reason = "package.json: scripts.test changed";
    let run = repo.guard(&["ci", "--base", &base, "--no-fetch"]);
    run.expect(1);
    assert!(run.stdout.contains(reason), "{}", run.stdout);
    let summary = repo.base().join("summary.md");
    let run = Run::from(
        repo.command_in(crate::common::GUARD, &repo.root)
            .args(["ci", "--base", &base, "--no-fetch", "--format", "github"])
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap(),
    );
    run.expect(1);
    assert!(run.stdout.contains(reason), "{}", run.stdout);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains(&format!("`package.json` ({reason})")), "{md}");
}

/// A Claude Code `Edit` payload for `file` in `repo`.
fn agent_edit(repo: &TestRepo, file: &str, old: &str, new: &str) -> Run {
    use std::io::Write;
    let payload = serde_json::json!({
        "session_id": "s", "cwd": repo.root, "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": { "file_path": repo.root.join(file), "old_string": old, "new_string": new },
    });
    let mut child = repo
        .command_in(crate::common::GUARD, &repo.root)
        .args(["agent-hook", "claude-code"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    Run::from(child.wait_with_output().unwrap())
}

#[test]
fn the_agent_hook_asks_for_a_keyed_edit_and_passes_a_dependency_bump() {
    let repo = TestRepo::with_history();
    repo.write("package.json", PACKAGE_JSON);
    repo.commit_all("package.json");
    let run = agent_edit(
        &repo,
        "package.json",
        r#""test": "jest""#,
        r#""test": "jest --passWithNoTests""#,
    );
    run.expect(0);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "ask",
        "{v:#}"
    );
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("package.json: scripts.test changed"),
        "{reason}"
    );
    let run = agent_edit(&repo, "package.json", "^18.2.0", "^18.3.1");
    run.expect(0);
    assert_eq!(run.stdout, "", "a dependency bump needs no decision");
}
