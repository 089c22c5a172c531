//! Where users install git-guard (README, "Install"): the release archive and its
//! checksum (`dist/archive.sh`); the GitHub Action's steps (`dist/action.sh`) against a
//! local bare remote and a recorded pull-request event, with the download pointed at a
//! local archive; the Python wheel built by maturin, installed into a fresh venv, and
//! installed by the real pre-commit from the mirror manifest.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::common::{GUARD, REASON, Run, TestRepo, WEAKENED};
use crate::tools;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The target `dist/action.sh` picks for `RUNNER_OS=Linux`, `RUNNER_ARCH=X64`.
const LINUX_X64: &str = "x86_64-unknown-linux-musl";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn script(name: &str) -> PathBuf {
    manifest_dir().join("dist").join(name)
}

fn sha256_hex(path: &Path) -> String {
    let digest = Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn archive_name(target: &str) -> String {
    format!("git-guard-{VERSION}-{target}.tar.gz")
}

/// The binary under test without its debug information (70 MB → a few MB, so packing
/// and unpacking it stays fast), copied once per test run.
fn stripped_guard() -> &'static str {
    static BINARY: OnceLock<String> = OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dist/bin");
        std::fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("git-guard");
        crate::common::copy_executable(GUARD, &binary);
        let status = Command::new("strip").arg(&binary).status().unwrap();
        assert!(status.success(), "strip failed");
        binary.to_str().unwrap().to_string()
    })
}

/// `dist/archive.sh args…`, hermetic like every command here.
fn archive_sh(repo: &TestRepo, args: &[&str]) -> Run {
    Run::from(
        repo.command_in(script("archive.sh"), &repo.root)
            .args(args)
            .output()
            .unwrap(),
    )
}

/// A release folder as the workflow uploads it: the Linux x64 archive of the binary
/// under test and its `.sha256`, packed once per test run by `dist/archive.sh`.
fn release_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dist/release");
        let _ = std::fs::remove_dir_all(&dir);
        let repo = TestRepo::new();
        let out = dir.to_str().unwrap();
        archive_sh(
            &repo,
            &[
                "--target",
                LINUX_X64,
                "--binary",
                stripped_guard(),
                "--out",
                out,
            ],
        )
        .expect(0);
        dir
    })
}

#[test]
fn the_archive_script_packs_the_binary_with_a_checksum_and_the_same_bytes_twice() {
    let repo = TestRepo::new();
    let out = repo.base().join("out");
    let out_s = out.to_str().unwrap();
    let binary = stripped_guard();
    let run = archive_sh(
        &repo,
        &["--target", LINUX_X64, "--binary", binary, "--out", out_s],
    );
    run.expect(0);
    let archive = out.join(archive_name(LINUX_X64));
    assert_eq!(run.stdout.trim(), archive.to_str().unwrap());

    // The checksum file is what `sha256sum -c` reads, and it is right.
    let sums =
        std::fs::read_to_string(out.join(format!("{}.sha256", archive_name(LINUX_X64)))).unwrap();
    assert_eq!(
        sums,
        format!("{}  {}\n", sha256_hex(&archive), archive_name(LINUX_X64))
    );
    let check = repo
        .command_in("sha256sum", &out)
        .args(["-c", &format!("{}.sha256", archive_name(LINUX_X64))])
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");

    // One folder named like the archive: the binary, README, the example policy.
    let folder = format!("git-guard-{VERSION}-{LINUX_X64}");
    let listing = repo.run_ok("tar", &["-tzf", archive.to_str().unwrap()]);
    let mut entries: Vec<&str> = listing.lines().collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            format!("{folder}/"),
            format!("{folder}/README.md"),
            format!("{folder}/git-guard"),
            format!("{folder}/guard.toml.example"),
        ]
    );
    let unpacked = repo.base().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    repo.run_ok(
        "tar",
        &[
            "-xzf",
            archive.to_str().unwrap(),
            "-C",
            unpacked.to_str().unwrap(),
        ],
    );
    let unpacked = unpacked.join(&folder).join("git-guard");
    assert_eq!(
        std::fs::read(&unpacked).unwrap(),
        std::fs::read(binary).unwrap()
    );
    assert_eq!(
        repo.run_ok(&unpacked, &["--version"]).trim(),
        format!("git-guard {VERSION}")
    );

    // Reproducible: the same inputs give the same bytes.
    let again = repo.base().join("again");
    archive_sh(
        &repo,
        &[
            "--target",
            LINUX_X64,
            "--binary",
            binary,
            "--out",
            again.to_str().unwrap(),
        ],
    )
    .expect(0);
    assert_eq!(
        std::fs::read(&archive).unwrap(),
        std::fs::read(again.join(archive_name(LINUX_X64))).unwrap()
    );
}

#[test]
fn the_archive_script_refuses_bad_input_with_a_hint() {
    let repo = TestRepo::new();
    let impostor = repo.base().join("impostor");
    std::fs::write(&impostor, "#!/bin/sh\necho 'git-guard 0.0.1'\n").unwrap();
    let impostor = impostor.to_str().unwrap();
    repo.run_ok("chmod", &["+x", impostor]);
    let missing = repo.base().join("missing").display().to_string();
    let cases: [(&[&str], &str); 6] = [
        (&[], "error: no --target given"),
        (&["--target"], "error: --target needs a value"),
        (
            &["--target", "x86_64-pc-windows-msvc", "--binary", GUARD],
            "error: no Windows build",
        ),
        (
            &["--target", "../../etc", "--binary", GUARD],
            "is not a target triple",
        ),
        (
            &["--target", LINUX_X64, "--binary", &missing],
            "error: no binary at",
        ),
        (
            &["--target", LINUX_X64, "--binary", impostor],
            "says 'git-guard 0.0.1'",
        ),
    ];
    for (args, message) in cases {
        let run = archive_sh(&repo, args);
        run.expect(2);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("\nhint: "), "{args:?}: {}", run.stderr);
    }
}

/// A pull request as a GitHub Actions job sees it: origin (a bare repository) holds main
/// and the pull request's head, a test weakened and committed with `--no-verify`; the job's
/// checkout is a full clone with the head sha checked out; the event file is the
/// recorded `pull_request_target` payload with this history's shas.
struct PullRequest {
    author: TestRepo,
    checkout: TestRepo,
    head: String,
    runner_temp: PathBuf,
}

impl PullRequest {
    fn new() -> PullRequest {
        let author = TestRepo::with_origin();
        // The team lets a human approve without a terminal (`override --reason` below).
        author.write("guard.toml", "[override]\nallow_without_tty = true\n");
        author.commit_all("policy");
        author.git(&["push", "-q", "--no-verify", "origin", "main"]);
        let base = author.git(&["rev-parse", "HEAD"]).trim().to_string();
        author.git(&["checkout", "-q", "-b", "make-ci-green"]);
        author.write("tests/test_invoice.py", WEAKENED);
        author.commit_all("make CI green");
        let head = author.git(&["rev-parse", "HEAD"]).trim().to_string();
        author.git(&["push", "-q", "--no-verify", "origin", "make-ci-green"]);
        // actions/checkout with fetch-depth: 0, ref: the head sha, persist-credentials: false.
        let checkout = author.clone_origin("checkout", &[]);
        checkout.git(&["checkout", "-q", "--detach", &head]);
        let runner_temp = author.base().join("runner-temp");
        std::fs::create_dir_all(&runner_temp).unwrap();
        let pr = PullRequest {
            author,
            checkout,
            head,
            runner_temp,
        };
        pr.record_event("bug", &base);
        pr
    }

    /// Writes the event file with one label on the pull request.
    fn record_event(&self, label: &str, base: &str) {
        let fixture = manifest_dir().join("tests/fixtures/github/pull_request_target.json");
        let event = std::fs::read_to_string(fixture)
            .unwrap()
            .replace("@HEAD@", &self.head)
            .replace("@BASE@", base)
            .replace("@LABEL@", label);
        std::fs::write(self.file("event.json"), event).unwrap();
    }

    fn file(&self, name: &str) -> PathBuf {
        self.author.base().join(name)
    }

    /// `dist/action.sh step` in the job's checkout, with the environment GitHub Actions
    /// gives a `pull_request_target` job and the action's inputs (`GUARD_*`, which
    /// `action.yml` maps its inputs onto), plus `extra`.
    fn action(&self, step: &str, release_url: &str, extra: &[(&str, &str)]) -> Run {
        let installed = std::fs::read_to_string(self.file("github_path")).unwrap_or_default();
        let mut dirs: Vec<PathBuf> = installed.lines().map(PathBuf::from).collect();
        dirs.extend(std::env::split_paths(&tools::path_without_guard()));
        let path = std::env::join_paths(dirs).unwrap();
        let mut cmd = self
            .checkout
            .command_in(script("action.sh"), &self.checkout.root);
        cmd.arg(step)
            .env("PATH", path)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_EVENT_NAME", "pull_request_target")
            .env("GITHUB_EVENT_PATH", self.file("event.json"))
            .env("GITHUB_BASE_REF", "main")
            .env("GITHUB_HEAD_REF", "make-ci-green")
            .env("GITHUB_PATH", self.file("github_path"))
            .env("GITHUB_STEP_SUMMARY", self.file("step_summary.md"))
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", &self.runner_temp)
            .env("GUARD_VERSION", VERSION)
            .env("GUARD_RELEASE_URL", release_url)
            .env("GUARD_FORMAT", "github")
            .env("GUARD_SHA256", "")
            .env("GUARD_LABELS", "")
            .env("GUARD_RESULTS", "")
            .env("GUARD_BASELINE", "")
            .env("GUARD_REPOSITORY", "")
            .env_remove("GITHUB_ACTION_PATH")
            .envs(extra.iter().copied());
        Run::from(cmd.output().unwrap())
    }

    /// The folder the install step unpacks into.
    fn install_dir(&self) -> PathBuf {
        self.runner_temp
            .join("git-guard-action")
            .join(format!("git-guard-{VERSION}-{LINUX_X64}"))
    }
}

fn file_url(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

#[test]
fn the_action_installs_the_pinned_release_and_its_check_blocks_until_approved() {
    let pr = PullRequest::new();
    let url = file_url(release_dir());

    let install = pr.action("install", &url, &[]);
    install.expect(0);
    let published =
        std::fs::read_to_string(release_dir().join(format!("{}.sha256", archive_name(LINUX_X64))))
            .unwrap();
    let sum = published.split_whitespace().next().unwrap();
    assert!(
        install.stdout.contains(&format!("SHA-256 {sum} verified")),
        "{}",
        install.stdout
    );
    assert_eq!(
        std::fs::read_to_string(pr.file("github_path")).unwrap(),
        format!("{}\n", pr.install_dir().display()),
        "later steps get git-guard on PATH"
    );

    // The weakened test, committed with --no-verify, fails the check with an annotation.
    let blocked = pr.action("check", &url, &[]);
    blocked.expect(1);
    assert!(
        blocked
            .stdout
            .contains("git-guard: git guard ci --format github"),
        "{}",
        blocked.stdout
    );
    assert!(
        blocked
            .stdout
            .contains("::error file=tests/test_invoice.py"),
        "{}",
        blocked.all()
    );
    let summary = std::fs::read_to_string(pr.file("step_summary.md")).unwrap();
    assert!(summary.contains("tests/test_invoice.py"), "{summary}");

    // The labels input, and the label on the recorded event, each approve it.
    pr.action("check", &url, &[("GUARD_LABELS", "allow-test-edits")])
        .expect(0);
    let base = pr.checkout.git(&["rev-parse", "origin/main"]);
    pr.record_event("allow-test-edits", base.trim());
    let labelled = pr.action("check", &url, &[]);
    labelled.expect(0);
    assert!(
        labelled.all().contains("allow-test-edits"),
        "{}",
        labelled.all()
    );
    pr.record_event("bug", base.trim());
    pr.action("check", &url, &[]).expect(1);

    // A human's override, pushed as a note, is fetched by the check from origin.
    pr.author
        .guard(&["override", &pr.head, "--reason", REASON])
        .expect(0);
    pr.author
        .git(&["push", "-q", "--no-verify", "origin", "refs/notes/guard"]);
    let approved = pr.action("check", &url, &[]);
    approved.expect(0);
    assert!(approved.all().contains(REASON), "{}", approved.all());
}

#[test]
fn the_action_refuses_a_tampered_archive_before_unpacking_or_running_it() {
    let pr = PullRequest::new();
    let name = archive_name(LINUX_X64);

    // A release folder whose archive was swapped; its .sha256 is the published one.
    let tampered = pr.file("tampered-release");
    let folder = tampered.join(format!("git-guard-{VERSION}-{LINUX_X64}"));
    std::fs::create_dir_all(&folder).unwrap();
    let ran = pr.file("impostor-ran");
    std::fs::write(
        folder.join("git-guard"),
        format!(
            "#!/bin/sh\ntouch '{}'\necho 'git-guard {VERSION}'\n",
            ran.display()
        ),
    )
    .unwrap();
    pr.author
        .run_ok("chmod", &["+x", folder.join("git-guard").to_str().unwrap()]);
    pr.author.run_ok(
        "tar",
        &[
            "-czf",
            tampered.join(&name).to_str().unwrap(),
            "-C",
            tampered.to_str().unwrap(),
            folder.file_name().unwrap().to_str().unwrap(),
        ],
    );
    std::fs::remove_dir_all(&folder).unwrap();
    std::fs::copy(
        release_dir().join(format!("{name}.sha256")),
        tampered.join(format!("{name}.sha256")),
    )
    .unwrap();

    let refused = pr.action("install", &file_url(&tampered), &[]);
    refused.expect(2);
    assert!(
        refused
            .stderr
            .contains(&format!("error: checksum mismatch for {name}")),
        "{}",
        refused.stderr
    );
    assert!(
        refused
            .stderr
            .contains("hint: the archive is not the one released"),
        "{}",
        refused.stderr
    );
    assert!(!pr.install_dir().exists(), "nothing was unpacked");
    assert!(!ran.exists(), "the impostor never ran");
    assert!(!pr.file("github_path").exists(), "nothing was put on PATH");

    // A pinned checksum (the sha256 input) wins over the published file: the genuine
    // archive with a wrong pin is refused, with the right pin (any case) accepted.
    let genuine = file_url(release_dir());
    let wrong = "0".repeat(64);
    let refused = pr.action("install", &genuine, &[("GUARD_SHA256", &wrong)]);
    refused.expect(2);
    assert!(
        refused.stderr.contains("checksum mismatch"),
        "{}",
        refused.stderr
    );
    let right = sha256_hex(&release_dir().join(&name)).to_uppercase();
    pr.action("install", &genuine, &[("GUARD_SHA256", &right)])
        .expect(0);
    assert!(pr.install_dir().join("git-guard").exists());
}

#[test]
fn the_action_wants_an_exact_version_and_a_supported_runner() {
    let pr = PullRequest::new();
    let url = file_url(release_dir());
    let cases: [(&[(&str, &str)], &str); 6] = [
        (&[("GUARD_VERSION", "")], "error: no version given"),
        (
            &[("GUARD_VERSION", "latest")],
            "is not an exact release version",
        ),
        (
            &[("GUARD_VERSION", "main")],
            "is not an exact release version",
        ),
        (&[("GUARD_VERSION", "9.9.9")], "error: could not download"),
        (
            &[("RUNNER_OS", "Windows")],
            "error: git-guard has no Windows build",
        ),
        (&[("GUARD_SHA256", "abc")], "is not a SHA-256"),
    ];
    for (extra, message) in cases {
        let run = pr.action("install", &url, extra);
        run.expect(2);
        assert!(run.stderr.contains(message), "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains("\nhint: "), "{extra:?}: {}", run.stderr);
    }
    // `v0.1.0` is the tag's spelling of the same version.
    pr.action(
        "install",
        &url,
        &[("GUARD_VERSION", &format!("v{VERSION}"))],
    )
    .expect(0);
    // Without release-url, the archive comes from the action's own repository's release,
    // named by github.action_repository or, when a composite step leaves that empty, by
    // the action's folder (a proxy that refuses keeps the test off the network).
    let offline = [
        ("HTTPS_PROXY", "http://127.0.0.1:9"),
        ("https_proxy", "http://127.0.0.1:9"),
    ];
    let expected = format!(
        "error: could not download https://github.com/acme/git-guard/releases/download/v{VERSION}/{}",
        archive_name(LINUX_X64)
    );
    for repository in [
        ("GUARD_REPOSITORY", "acme/git-guard"),
        (
            "GITHUB_ACTION_PATH",
            "/home/runner/work/_actions/acme/git-guard/v1",
        ),
    ] {
        let run = pr.action("install", "", &[offline[0], offline[1], repository]);
        run.expect(2);
        assert!(
            run.stderr.contains(&expected),
            "{repository:?}: {}",
            run.stderr
        );
    }
    let run = pr.action("install", "", &[offline[0], offline[1]]);
    run.expect(2);
    assert!(
        run.stderr.contains("error: no repository to download from"),
        "{}",
        run.stderr
    );
    let run = pr.action("nonsense", &url, &[]);
    run.expect(2);
    assert!(run.stderr.contains("error: unknown step 'nonsense'"));
}

/// The files that tie the release together name the same things as the crate.
#[test]
fn the_workflow_action_and_mirror_agree_with_the_crate() {
    let read = |path: &str| std::fs::read_to_string(manifest_dir().join(path)).unwrap();
    let workflow = read(".github/workflows/release.yml");
    for needle in [
        "dist/archive.sh --target",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "MATURIN_VERSION: \"1.16.0\"", // as tools.rs pins it for the tests
        "tags:",
    ] {
        assert!(workflow.contains(needle), "release.yml lacks {needle}");
    }
    let action = read("action.yml");
    assert!(action.contains("dist/action.sh\" install"));
    assert!(action.contains("dist/action.sh\" check"));
    let pyproject = read("pyproject.toml");
    assert!(pyproject.contains("bindings = \"bin\""));
    assert!(pyproject.contains("name = \"git-guard\""));
    let mirror = read("dist/pre-commit-mirror/pyproject.toml");
    assert!(
        mirror.contains(&format!("\"git-guard=={VERSION}\"")),
        "the mirror pins this version"
    );
    let hooks = read("dist/pre-commit-mirror/.pre-commit-hooks.yaml");
    assert!(hooks.contains("language: python"));
}

/// `action.yml`, read by a YAML parser (PyYAML, which pre-commit brings): a composite
/// action whose every input reaches `dist/action.sh` as the variable it reads, and the
/// release workflow parses too.
#[test]
fn action_yml_maps_every_input_onto_the_script() {
    let Some(python) = tools::pypi_bin("python") else {
        return;
    };
    let code = "import json, sys, yaml\n\
                print(json.dumps([yaml.safe_load(open(p)) for p in sys.argv[1:]]))\n";
    let out = Command::new(python)
        .args(["-c", code])
        .arg(manifest_dir().join("action.yml"))
        .arg(manifest_dir().join(".github/workflows/release.yml"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let parsed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let action = &parsed[0];
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let runs: Vec<&str> = steps.iter().map(|s| s["run"].as_str().unwrap()).collect();
    assert_eq!(
        runs,
        [
            "\"$GITHUB_ACTION_PATH/dist/action.sh\" install",
            "\"$GITHUB_ACTION_PATH/dist/action.sh\" check"
        ]
    );
    // Every input is handed to a step, as the GUARD_* variable the script reads.
    let mut mapped = std::collections::BTreeMap::new();
    for step in steps {
        for (var, value) in step["env"].as_object().unwrap() {
            mapped.insert(var.clone(), value.as_str().unwrap().to_string());
        }
    }
    let inputs = action["inputs"].as_object().unwrap();
    for name in inputs.keys() {
        let expr = format!("${{{{ inputs.{name} }}}}");
        assert!(
            mapped.values().any(|v| *v == expr),
            "input {name} reaches no step"
        );
    }
    assert_eq!(inputs["version"]["required"], true);
    let script = std::fs::read_to_string(script("action.sh")).unwrap();
    let read = regex::Regex::new(r"\$\{(GUARD_[A-Z0-9_]+)").unwrap();
    for var in read.captures_iter(&script).map(|c| c[1].to_string()) {
        assert!(mapped.contains_key(&var), "action.yml does not set {var}");
    }
    for var in mapped.keys() {
        assert!(
            script.contains(var.as_str()),
            "dist/action.sh ignores {var}"
        );
    }
    let workflow = &parsed[1];
    assert!(workflow["jobs"]["build"]["strategy"]["matrix"]["include"].is_array());
}

/// The wheel maturin builds from this checkout (release profile, in the shared target
/// directory so a second run only repackages), once per test run.
fn wheel() -> Option<PathBuf> {
    static WHEEL: OnceLock<Option<PathBuf>> = OnceLock::new();
    WHEEL
        .get_or_init(|| {
            let maturin = tools::pypi_bin("maturin")?;
            let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
            let out = tmp.join("dist/wheels");
            let _ = std::fs::remove_dir_all(&out);
            let output = Command::new(maturin)
                .args(["build", "--release", "--locked", "--out"])
                .arg(&out)
                .current_dir(manifest_dir())
                .env("CARGO_TARGET_DIR", tmp.parent().unwrap())
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "maturin build failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            let wheels: Vec<PathBuf> = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "whl"))
                .collect();
            assert_eq!(wheels.len(), 1, "{wheels:?}");
            Some(wheels[0].clone())
        })
        .clone()
}

/// The binary inside a wheel (maturin puts it under `*.data/scripts/`).
fn binary_in_wheel(repo: &TestRepo, wheel: &Path) -> Vec<u8> {
    let code = "import sys, zipfile\n\
                z = zipfile.ZipFile(sys.argv[1])\n\
                [name] = [n for n in z.namelist() if n.endswith('.data/scripts/git-guard')]\n\
                sys.stdout.buffer.write(z.read(name))\n";
    let out = repo
        .command_in("python3", &repo.root)
        .args(["-c", code])
        .arg(wheel)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    out.stdout
}

#[test]
fn the_wheel_puts_git_guard_on_path_in_a_fresh_venv_and_it_blocks_a_weakened_commit() {
    let Some(wheel) = wheel() else {
        return;
    };
    let name = wheel.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with(&format!("git_guard-{VERSION}-py3-none-")),
        "{name}"
    );
    let repo = TestRepo::with_history();
    let venv = repo.base().join("venv");
    repo.run_ok("python3", &["-m", "venv", venv.to_str().unwrap()]);
    // From the file alone: no index, nothing else comes with it.
    repo.run_ok(
        venv.join("bin/pip"),
        &[
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
            wheel.to_str().unwrap(),
        ],
    );
    let installed = venv.join("bin/git-guard");
    assert_eq!(
        std::fs::read(&installed).unwrap(),
        binary_in_wheel(&repo, &wheel)
    );
    // Only the venv provides git-guard, as on a machine without Rust.
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        tools::path_without_guard()
    );
    let repo = repo.with_path(path);
    assert_eq!(
        repo.run_ok("git", &["guard", "--version"]).trim(),
        format!("git-guard {VERSION}")
    );
    repo.run_ok("git", &["guard", "install"]);
    let hook = std::fs::read_to_string(repo.root.join(".git/hooks/pre-commit")).unwrap();
    assert!(
        hook.contains(&format!("guard='{}'", installed.display())),
        "{hook}"
    );

    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests/test_invoice.py"]);
    let blocked = repo.commit("make CI green", &[]);
    blocked.expect(1);
    assert!(
        blocked.stderr.contains("commit blocked"),
        "{}",
        blocked.stderr
    );
    assert!(
        blocked.stderr.contains("assertion-loosened"),
        "{}",
        blocked.stderr
    );
    assert_eq!(
        repo.staged_paths(),
        ["tests/test_invoice.py"],
        "nothing lost"
    );
}

#[test]
fn both_frameworks_accept_the_mirror_manifest() {
    let manifest = manifest_dir().join("dist/pre-commit-mirror/.pre-commit-hooks.yaml");
    let repo = TestRepo::new(); // a hermetic HOME for the tools' caches
    for tool in ["pre-commit", "prek"] {
        let Some(bin) = tools::pypi_bin(tool) else {
            return;
        };
        let out = repo
            .command_in(bin, &repo.root)
            .arg("validate-manifest")
            .arg(&manifest)
            .output()
            .unwrap();
        assert!(out.status.success(), "{tool}: {out:?}");
    }
}

#[test]
fn uv_tool_and_pipx_install_the_wheel_as_a_command() {
    let Some(wheel) = wheel() else {
        return;
    };
    let repo = TestRepo::with_history();
    let wheel = wheel.to_str().unwrap();
    for tool in ["uv", "pipx"] {
        let Some(bin) = tools::pypi_bin(tool) else {
            return;
        };
        let state = repo.base().join(tool);
        let bin_dir = state.join("bin");
        let mut cmd = repo.command_in(bin, &repo.root);
        if tool == "uv" {
            cmd.args(["tool", "install", "--offline", wheel])
                .env("UV_TOOL_DIR", state.join("tools"))
                .env("UV_TOOL_BIN_DIR", &bin_dir)
                .env("UV_CACHE_DIR", state.join("cache"));
        } else {
            cmd.args(["install", "--pip-args=--no-index", wheel])
                .env("PIPX_HOME", state.join("home"))
                .env("PIPX_BIN_DIR", &bin_dir);
        }
        let out = Run::from(cmd.output().unwrap());
        if let Some(reason) = tools::unreachable_registry(&out.all()) {
            eprintln!("SKIPPED: {tool} could not install the wheel: {reason}");
            continue;
        }
        out.expect(0);
        let path = format!("{}:{}", bin_dir.display(), tools::path_without_guard());
        let repo = repo.clone().with_path(path);
        assert_eq!(
            repo.run_ok("git", &["guard", "--version"]).trim(),
            format!("git-guard {VERSION}"),
            "{tool}"
        );
    }
}

/// The mirror hook repository (`dist/pre-commit-mirror`), committed, as pre-commit
/// clones it; returns (url, rev).
fn mirror_repository(repo: &TestRepo) -> (String, String) {
    let dir = repo.base().join("git-guard-pre-commit");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["pyproject.toml", ".pre-commit-hooks.yaml"] {
        std::fs::copy(
            manifest_dir().join("dist/pre-commit-mirror").join(file),
            dir.join(file),
        )
        .unwrap();
    }
    let dir = dir.display().to_string();
    let git = |args: &[&str]| {
        let mut all = vec!["-C", dir.as_str()];
        all.extend_from_slice(args);
        repo.git(&all).trim().to_string()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "git-guard hook from the wheel"]);
    let rev = git(&["rev-parse", "HEAD"]);
    (dir, rev)
}

#[test]
fn pre_commit_installs_git_guard_from_the_wheel_through_the_mirror_manifest() {
    let Some(pre_commit) = tools::pypi_bin("pre-commit") else {
        return;
    };
    let Some(wheel) = wheel() else {
        return;
    };
    // No git-guard on PATH and no cargo needed: the hook's own environment provides it.
    let repo = TestRepo::with_history().with_path(tools::path_without_guard());
    let (url, rev) = mirror_repository(&repo);
    repo.write(
        ".pre-commit-config.yaml",
        format!(
            "default_install_hook_types: [pre-commit, post-commit, pre-push]\n\
             repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n  - id: git-guard\n"
        ),
    );
    repo.commit_all("pre-commit config");
    repo.run_ok(&pre_commit, &["install"]);

    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "tests/test_invoice.py"]);
    // pip finds git-guard==VERSION in the folder of the local wheel (PyPI has none).
    let wheels = wheel.parent().unwrap();
    let out = repo
        .command_in("git", &repo.root)
        .args(["commit", "-q", "-m", "make CI green"])
        .env("PIP_FIND_LINKS", wheels)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .unwrap();
    let blocked = Run::from(out);
    // pip in pre-commit's environment fetches setuptools from PyPI for the mirror package.
    if let Some(reason) = tools::unreachable_registry(&blocked.all()) {
        eprintln!("SKIPPED: pre-commit could not install the hook: {reason}");
        return;
    }
    assert_ne!(blocked.code, 0, "{}", blocked.all());
    assert!(
        blocked.all().contains("commit blocked"),
        "{}",
        blocked.all()
    );
    assert_eq!(repo.staged_paths(), ["tests/test_invoice.py"]);

    // The binary that ran is the wheel's, installed into pre-commit's environment.
    let envs = repo.home().join(".cache/pre-commit");
    let found: Vec<PathBuf> = walk(&envs)
        .into_iter()
        .filter(|p| p.ends_with("bin/git-guard"))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        std::fs::read(&found[0]).unwrap(),
        binary_in_wheel(&repo, &wheel)
    );
}

/// Every file under `dir`, not following symbolic links.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files
}

/// What `cargo package` (crates.io, and the sdist maturin makes from it) carries holds
/// every source file and every file the sources embed; `cargo install` of a packaged
/// crate is checked by hand and on release (README, "Install").
#[test]
fn the_packaged_crate_holds_every_file_the_build_needs() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "package",
            "--list",
            "--locked",
            "--offline",
            "--allow-dirty",
        ])
        .current_dir(manifest_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = listed.lines().collect();
    let mut needed = vec![
        "Cargo.toml".to_string(),
        "Cargo.lock".to_string(),
        "README.md".to_string(),
    ];
    for file in walk(&manifest_dir().join("src")) {
        let relative = file.strip_prefix(manifest_dir()).unwrap();
        let relative = relative.to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        // include_str!("../hooks/hook.sh") and the like, relative to the source file.
        for rest in text.split("include_str!(\"").skip(1) {
            let embedded = &rest[..rest.find('"').unwrap()];
            let path = file.parent().unwrap().join(embedded);
            let path = path.canonicalize().unwrap();
            let path = path
                .strip_prefix(manifest_dir().canonicalize().unwrap())
                .unwrap();
            needed.push(path.to_str().unwrap().to_string());
        }
        needed.push(relative);
    }
    assert!(needed.iter().any(|p| p == "hooks/hook.sh"), "{needed:?}");
    for path in &needed {
        assert!(
            listed.contains(&path.as_str()),
            "{path} is not packaged: {listed:?}"
        );
    }
}
