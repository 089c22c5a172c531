//! Real hook managers from their registries, installed once per checkout into
//! `target/tmp/tools` (npm for husky and lefthook, PyPI for pre-commit and prek, and for
//! dist.rs maturin, which builds the wheel, and uv and pipx, which install it).
//!
//! When a registry cannot be reached the test that needs the tool prints why and skips;
//! every other failure fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Pinned so that a run is reproducible; bump deliberately.
const NPM_PACKAGES: [&str; 2] = ["husky@9.1.7", "lefthook@2.2.2"];
const PYPI_PACKAGES: [&str; 5] = [
    "pre-commit==4.7.0",
    "prek==0.5.11",
    "maturin==1.16.0",
    "uv==0.13.8",
    "pipx==1.18.4",
];

fn tools_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("tools")
}

/// `node_modules/.bin/<name>`, installing the npm packages the first time.
pub fn npm_bin(name: &str) -> Option<PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tools_dir().join("npm");
        let wanted = NPM_PACKAGES.iter().all(|p| {
            let (package, version) = p.rsplit_once('@').unwrap();
            std::fs::read_to_string(dir.join("node_modules").join(package).join("package.json"))
                .is_ok_and(|text| text.contains(&format!("\"version\": \"{version}\"")))
        });
        if !wanted {
            std::fs::create_dir_all(&dir).unwrap();
            run_installer(
                Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
                    .arg(&dir)
                    .args(NPM_PACKAGES)
                    .current_dir(&dir),
            )?;
        }
        Ok(dir.join("node_modules").join(".bin"))
    });
    available(dir, name)
}

/// `venv/bin/<name>`, installing the PyPI packages into a venv the first time.
pub fn pypi_bin(name: &str) -> Option<PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let venv = tools_dir().join("venv");
        let bin = venv.join("bin");
        let stamp = venv.join("installed.txt");
        let wanted = PYPI_PACKAGES.join("\n");
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
            run_installer(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
            run_installer(
                Command::new(bin.join("pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check"])
                    .args(PYPI_PACKAGES),
            )?;
            std::fs::write(&stamp, wanted).unwrap();
        }
        Ok(bin)
    });
    available(dir, name)
}

fn available(dir: &Result<PathBuf, String>, name: &str) -> Option<PathBuf> {
    match dir {
        Ok(dir) => {
            let bin = dir.join(name);
            assert!(
                bin.exists(),
                "{} was installed but is missing",
                bin.display()
            );
            Some(bin)
        }
        Err(reason) => {
            eprintln!("SKIPPED: {name} cannot be installed here: {reason}");
            None
        }
    }
}

/// Runs an installer; a missing program or an unreachable registry is a reason to skip.
fn run_installer(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(reason) = unreachable_registry(&stderr) {
        return Err(reason);
    }
    panic!("{:?} failed:\n{stderr}", cmd.get_program());
}

/// Why an installer's output says it could not reach its registry, if it says so.
pub fn unreachable_registry(output: &str) -> Option<String> {
    let offline = [
        "ENOTFOUND",
        "EAI_AGAIN",
        "ECONNREFUSED",
        "ETIMEDOUT",
        "NewConnectionError",
        "Temporary failure in name resolution",
        "Network is unreachable",
    ];
    offline
        .iter()
        .any(|m| output.contains(m))
        .then(|| format!("registry unreachable: {}", output.trim()))
}

/// PATH with the binary under test's directory (hook managers call `git-guard` by name)
/// and `extra` first.
pub fn path_with(extra: &[&Path]) -> String {
    let guard_dir = Path::new(crate::common::GUARD).parent().unwrap();
    let mut dirs: Vec<PathBuf> = extra.iter().map(|p| p.to_path_buf()).collect();
    dirs.push(guard_dir.to_path_buf());
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The test's PATH without any directory holding a `git-guard` (an installed copy would
/// hide what a clean machine does).
pub fn path_without_guard() -> String {
    let dirs: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|dir| !dir.join("git-guard").exists())
        .collect();
    std::env::join_paths(dirs)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}
