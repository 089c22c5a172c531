//! The harness: temporary repositories driven by the real `git` and the real binary.
//!
//! Hermetic: a temporary HOME and global config, no system config, fixed identity and
//! dates, no inherited GIT_* variables, and no controlling terminal (each process runs
//! in a new session), so a hook can never prompt the person running the tests.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::rc::Rc;

use tempfile::TempDir;

/// The binary under test.
pub const GUARD: &str = env!("CARGO_BIN_EXE_git-guard");

/// The incident's test after the agent's edit: the equality assertion loosened.
pub const WEAKENED: &str = "def test_rate():\n    assert RATE >= 0\n";

/// A reason long enough for the default policy.
pub const REASON: &str = "Rate now comes from the tax table, exact value tested there";

/// A temporary repository with its own HOME.
#[derive(Clone)]
pub struct TestRepo {
    _tmp: Rc<TempDir>,
    /// The work tree.
    pub root: PathBuf,
    home: PathBuf,
    /// PATH for every command, when a test puts tools on it.
    path: Option<String>,
}

impl TestRepo {
    /// `git init` on branch main, nothing committed.
    pub fn new() -> TestRepo {
        let tmp = tempfile::Builder::new()
            .prefix("guard-it")
            .tempdir()
            .unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let home = base.join("home");
        let root = base.join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            home.join(".gitconfig"),
            "[user]\n\tname = Jane Doe\n\temail = jane@example.com\n\
             [init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n\
             [advice]\n\tdetachedHead = false\n",
        )
        .unwrap();
        let repo = TestRepo {
            _tmp: Rc::new(tmp),
            root,
            home,
            path: None,
        };
        repo.git(&["init", "-q"]);
        repo
    }

    /// A repository with one commit holding `src/invoice.py` and `tests/test_invoice.py`.
    pub fn with_history() -> TestRepo {
        let repo = TestRepo::new();
        repo.write("src/invoice.py", "RATE = 0.075\n");
        repo.write(
            "tests/test_invoice.py",
            "def test_rate():\n    assert RATE == 0.075\n",
        );
        repo.commit_all("initial");
        repo
    }

    /// `with_history`, with git-guard's hooks installed.
    pub fn installed() -> TestRepo {
        let repo = TestRepo::with_history();
        repo.guard(&["install"]).expect(0);
        repo
    }

    /// `program args…` in the work tree, hermetic like every command here, which must
    /// succeed; returns stdout.
    pub fn run_ok(&self, program: impl AsRef<OsStr>, args: &[&str]) -> String {
        let program = program.as_ref();
        let out = self
            .command_in(program, &self.root)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{program:?} {args:?} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `with_history`, plus a bare repository `origin.git` beside it as `origin`, with
    /// main pushed (hooks skipped).
    pub fn with_origin() -> TestRepo {
        let repo = TestRepo::with_history();
        let origin = repo.base().join("origin.git");
        repo.git(&["init", "-q", "--bare", origin.to_str().unwrap()]);
        repo.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
        repo.git(&["push", "-q", "--no-verify", "-u", "origin", "main"]);
        repo
    }

    /// A clone of `origin.git` in `name` beside this work tree, sharing HOME.
    pub fn clone_origin(&self, name: &str, extra: &[&str]) -> TestRepo {
        let dest = self.base().join(name);
        let url = format!("file://{}", self.base().join("origin.git").display());
        let mut args = vec!["clone", "-q"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[url.as_str(), dest.to_str().unwrap()]);
        self.git(&args);
        TestRepo {
            root: dest,
            ..self.clone()
        }
    }

    /// `git args…` in the bare origin, which must succeed; returns stdout.
    pub fn origin_git(&self, args: &[&str]) -> String {
        let out = self
            .command_in("git", &self.base().join("origin.git"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "origin git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// This repository, with every command run with `PATH` set to `path`.
    pub fn with_path(self, path: String) -> TestRepo {
        TestRepo {
            path: Some(path),
            ..self
        }
    }

    /// The HOME of this repository's commands.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The temporary directory beside the work tree (for other clones, worktrees).
    pub fn base(&self) -> &Path {
        self.root.parent().unwrap()
    }

    /// A hermetic command run in `dir`, in a new session (no controlling terminal).
    pub fn command_in(&self, program: impl AsRef<OsStr>, dir: &Path) -> Command {
        let mut cmd = self.command_with_terminal(program, dir);
        // SAFETY: setsid is async-signal-safe and is the only call between fork and exec.
        #[allow(unsafe_code)]
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        cmd
    }

    /// A hermetic command that keeps whatever terminal the caller gives it (pty tests).
    pub fn command_with_terminal(&self, program: impl AsRef<OsStr>, dir: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(dir);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("GIT_AUTHOR_DATE", "2026-12-02T09:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-12-02T09:00:00Z")
            .env("NO_COLOR", "1")
            .env("LC_ALL", "C")
            .env_remove("RUST_BACKTRACE")
            .stdin(std::process::Stdio::null());
        if let Some(path) = &self.path {
            cmd.env("PATH", path);
        }
        cmd
    }

    /// `git args…` in the work tree, any exit status.
    pub fn git_output(&self, args: &[&str]) -> Output {
        self.command_in("git", &self.root)
            .args(args)
            .output()
            .unwrap()
    }

    /// `git args…`, which must succeed; returns stdout.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_output(args);
        assert!(
            out.status.success(),
            "git {args:?} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `git-guard args…` in the work tree.
    pub fn guard(&self, args: &[&str]) -> Run {
        Run::from(
            self.command_in(GUARD, &self.root)
                .args(args)
                .output()
                .unwrap(),
        )
    }

    /// `git guard args…` as the human at the keyboard: on a pseudo-terminal of its own,
    /// which is what lets `allow --reason` and `override --reason` through under the
    /// default policy (`allow_without_tty = false`). The terminal's output (stdout and
    /// stderr together) is `stdout`.
    pub fn human(&self, args: &[&str]) -> Run {
        self.human_in(&self.root, args)
    }

    /// [`TestRepo::human`] in another directory (a linked worktree).
    pub fn human_in(&self, dir: &Path, args: &[&str]) -> Run {
        let mut cmd = self.command_with_terminal(GUARD, dir);
        cmd.args(args);
        let mut session = expectrl::Session::spawn(cmd).expect("spawn git-guard on a pty");
        session.set_expect_timeout(Some(std::time::Duration::from_secs(60)));
        let output = session.expect(expectrl::Eof).expect("git-guard ended");
        // At end of file expectrl hands the whole rest of the output over as the match.
        let bytes: Vec<u8> = output
            .before()
            .iter()
            .chain(output.matches().flatten())
            .copied()
            .collect();
        let stdout = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
        let code = match session.get_process_mut().wait().unwrap() {
            expectrl::WaitStatus::Exited(_, code) => code,
            _ => -1,
        };
        Run {
            code,
            stdout,
            stderr: String::new(),
        }
    }

    /// `git commit -m msg [extra…]` through the installed hooks, any exit status.
    pub fn commit(&self, msg: &str, extra: &[&str]) -> Run {
        let mut args = vec!["commit", "-q", "-m", msg];
        args.extend_from_slice(extra);
        Run::from(self.git_output(&args))
    }

    /// Writes a file (creating directories) relative to the work tree.
    pub fn write(&self, path: impl AsRef<Path>, content: impl AsRef<[u8]>) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// `git add -A && git commit` without hooks (setting up history).
    pub fn commit_all(&self, msg: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--no-verify", "-m", msg]);
    }

    /// The override note on `rev`, if any.
    pub fn note(&self, rev: &str) -> Option<String> {
        let out = self.git_output(&["notes", "--ref", "refs/notes/guard", "show", rev]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// `git diff --cached --name-only`, one path per element.
    pub fn staged_paths(&self) -> Vec<String> {
        self.git(&["diff", "--cached", "--name-only"])
            .lines()
            .map(String::from)
            .collect()
    }

    /// Replaces temporary paths in output so snapshots are stable.
    pub fn redact(&self, text: &str) -> String {
        text.replace(self.base().to_str().unwrap(), "[TMP]")
            .replace(GUARD, "[GUARD]")
    }
}

/// A finished process.
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Asserts the exit code, showing the output when it differs.
    #[track_caller]
    pub fn expect(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "unexpected exit code\n--- stdout\n{}--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }

    /// stdout and stderr together.
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Copies an executable and waits until it can be run: a test thread forking at the
/// moment of the copy holds the write descriptor until its child execs, and running the
/// copy meanwhile fails with "Text file busy" (ETXTBSY, a race of the test harness's
/// threads, not of git-guard).
pub fn copy_executable(from: impl AsRef<Path>, to: impl AsRef<Path>) {
    let to = to.as_ref();
    std::fs::copy(from, to).unwrap();
    for _ in 0..200 {
        match Command::new(to).arg("--version").output() {
            Err(e) if e.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            _ => return,
        }
    }
    panic!("{} stayed busy", to.display());
}
