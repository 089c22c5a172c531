//! `git guard init` looks at the repository: where tests live, runner settings, CI
//! systems; it writes a policy that fits and says in a few lines what it found.

use crate::common::TestRepo;

fn init_in(files: &[(&str, &str)]) -> (TestRepo, String, String) {
    let repo = TestRepo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.git(&["add", "-A"]);
    repo.commit("project", &["--no-verify"]).expect(0);
    let run = repo.guard(&["init"]);
    run.expect(0);
    let policy = std::fs::read_to_string(repo.root.join("guard.toml")).unwrap();
    // What it wrote is a valid policy.
    repo.guard(&["check"]).expect(0);
    (repo, run.stdout.clone(), policy)
}

#[test]
fn a_python_project_with_pytest_settings_in_pyproject() {
    let (_, out, policy) = init_in(&[
        (
            "pyproject.toml",
            "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
        ),
        ("tests/test_x.py", "def test_x():\n    assert 1 + 1 == 2\n"),
        (".github/workflows/ci.yml", "on: push\n"),
        (".github/workflows/release.yml", "on: push\n"),
    ]);
    assert!(
        out.contains("found pytest settings in pyproject.toml"),
        "{out}"
    );
    assert!(out.contains("found CI: GitHub Actions"), "{out}");
    assert!(out.contains(".github/workflows/release.yml"), "{out}");
    assert!(out.contains("\"!<path>\""), "{out}");
    assert!(
        policy.contains("\"pyproject.toml\" = [\"tool.pytest\""),
        "{policy}"
    );
    // The ledger is optional for a new user: commented out.
    assert!(policy.contains("# [ledger] (optional"), "{policy}");
    assert!(!policy.contains("\nmax_attempts = 4"), "{policy}");
}

#[test]
fn a_js_project_with_jest_in_package_json_and_colocated_tests() {
    let (_, out, policy) = init_in(&[
        (
            "package.json",
            "{\"scripts\": {\"test\": \"jest\"}, \"jest\": {\"testEnvironment\": \"node\"}}\n",
        ),
        (
            "src/rate.test.ts",
            "test('rate', () => { expect(1).toBe(1); });\n",
        ),
        (".gitlab-ci.yml", "test:\n  script: npm test\n"),
    ]);
    assert!(out.contains("found jest in package.json"), "{out}");
    assert!(out.contains("protected by `*.test.ts`"), "{out}");
    assert!(out.contains("found CI: GitLab CI"), "{out}");
    assert!(policy.contains("\"*.test.ts\",   # found:"), "{policy}");
}

#[test]
fn a_go_module_with_tests_beside_the_code() {
    let (repo, out, policy) = init_in(&[
        ("go.mod", "module example.com/x\n"),
        ("rate/rate.go", "package rate\n"),
        (
            "rate/rate_test.go",
            "package rate\n\nimport \"testing\"\n\nfunc TestRate(t *testing.T) {}\n",
        ),
        ("rate/testdata/golden.txt", "0.075\n"),
    ]);
    assert!(out.contains("protected by `*_test.go`"), "{out}");
    assert!(policy.contains("\"*_test.go\""), "{policy}");
    // The policy protects the colocated test now.
    repo.write("rate/rate_test.go", "package rate\n");
    repo.git(&["add", "-A"]);
    let check = repo.guard(&["check"]);
    check.expect(1);
    assert!(
        check.stdout.contains("rate/rate_test.go"),
        "{}",
        check.stdout
    );
}

#[test]
fn a_maven_project_with_src_test() {
    let (_, out, policy) = init_in(&[
        ("pom.xml", "<project></project>\n"),
        ("src/main/java/x/Rate.java", "class Rate {}\n"),
        (
            "src/test/java/x/RateTest.java",
            "class RateTest { @Test void rate() { assertEquals(1, 1); } }\n",
        ),
        ("Jenkinsfile", "pipeline {}\n"),
    ]);
    assert!(out.contains("protected by `src/test/**`"), "{out}");
    assert!(out.contains("found CI: Jenkins"), "{out}");
    assert!(policy.contains("\"src/test/**\""), "{policy}");
}
