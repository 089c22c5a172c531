//! `git guard demo`: the incident, replayed in a throw-away repository.
//!
//! Every step runs the real `git` and this very binary, exactly as a person would type
//! it, and checks that the defence held. Exit 0 only when all of them did, so the demo
//! doubles as an end-to-end smoke test.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use anyhow::{Context, bail};
use dialoguer::console::Style;

use crate::exit::{Outcome, hinted};
use crate::ui::{Stream, Ui};

mod fixtures;

use fixtures::{INVOICE, PYPROJECT, REPORT_BASE, REPORT_HEAD, TEST, agent_patch};

const AGENT: (&str, &str) = ("Coding Agent", "agent@example.invalid");
const HUMAN: (&str, &str) = ("Dana Reviewer", "dana@example.invalid");
const REASON: &str =
    "Rates now come from the tax service; the exact value is asserted in its contract tests";

struct Demo<'o> {
    out: &'o mut dyn Write,
    repo: PathBuf,
    guard: PathBuf,
    /// Each actor's HOME (its `.gitconfig`): only the human's holds a signing key.
    human_home: PathBuf,
    agent_home: PathBuf,
    /// Whether `ssh-keygen` made the human a key, so approvals are signed.
    signing: bool,
    colour: bool,
    failures: Vec<String>,
}

/// Runs the demo; `keep` names a directory (not yet existing) to leave the repository in.
pub fn run(keep: Option<PathBuf>, ui: &Ui, out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let guard = std::env::current_exe().context("finding the git-guard binary")?;
    let tmp;
    let base = match &keep {
        Some(dir) => {
            if dir.exists() {
                return Err(hinted(
                    format!("{} already exists", dir.display()),
                    "name a directory that does not exist yet; the demo creates it",
                ));
            }
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            dir.canonicalize()?
        }
        None => {
            tmp = tempfile::Builder::new()
                .prefix("git-guard-demo")
                .tempdir()?;
            tmp.path().to_path_buf()
        }
    };
    let common = "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n";
    let (human_home, agent_home) = (base.join("human"), base.join("agent"));
    for home in [&human_home, &agent_home] {
        std::fs::create_dir_all(home)?;
        std::fs::write(home.join(".gitconfig"), common)?;
    }
    // The human signs with an SSH key the agent cannot use (in real life a security key
    // that needs a touch, or a key in the human's own agent).
    let key = human_home.join("id_ed25519");
    let signing = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", HUMAN.1, "-f"])
        .arg(&key)
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if signing {
        std::fs::write(
            human_home.join(".gitconfig"),
            format!(
                "{common}[gpg]\n\tformat = ssh\n[user]\n\tsigningKey = {}\n",
                key.with_extension("pub").display()
            ),
        )?;
    }
    let colour = ui.colour(Stream::Stdout);
    let mut demo = Demo {
        out,
        repo: base.join("invoices"),
        guard,
        human_home,
        agent_home,
        signing,
        colour,
        failures: Vec::new(),
    };
    demo.play()?;
    let held = demo.failures.is_empty();
    demo.finish(held, keep.as_deref())?;
    Ok(if held {
        Outcome::Allowed
    } else {
        Outcome::Blocked
    })
}

impl Demo<'_> {
    /// The incident, step by step.
    fn play(&mut self) -> anyhow::Result<()> {
        let base = self.setup()?;
        self.agent_is_blocked()?;
        self.human_approves()?;
        self.ci_catches_no_verify(&base)?;
        self.ledger_shows_the_cost()?;
        self.reports_catch_a_deselect(&base)
    }

    /// Step 0: the repository, its policy and hooks; returns the base commit.
    fn setup(&mut self) -> anyhow::Result<String> {
        self.step("0", "A small invoice module, its tests, and git-guard")?;
        std::fs::create_dir_all(self.repo.join("tests"))?;
        std::fs::write(self.repo.join("invoice.py"), INVOICE)?;
        std::fs::write(self.repo.join("tests/test_invoice_rounding.py"), TEST)?;
        self.quiet(HUMAN, &["git", "init", "-q"])?;
        self.shown(HUMAN, &["git", "guard", "init"], true)?;
        // The demo has no terminal for the human either, so it lets `allow` work without
        // one: the signature, not the terminal, is what shows that a human approved.
        let policy = self.repo.join("guard.toml");
        let text = std::fs::read_to_string(&policy)?;
        std::fs::write(
            &policy,
            text.replace("allow_without_tty = false", "allow_without_tty = true"),
        )?;
        if self.signing {
            self.say("guard.toml requires approvals signed by a key in guard-signers (the human's); the demo sets allow_without_tty = true, as it has no terminal.")?;
        } else {
            self.say("(ssh-keygen is not installed: approvals in this demo are unsigned.)")?;
        }
        self.quiet(HUMAN, &["git", "add", "-A"])?;
        self.quiet(
            HUMAN,
            &[
                "git",
                "commit",
                "-q",
                "--no-verify",
                "-m",
                "Invoice rounding with tests",
            ],
        )?;
        self.shown(HUMAN, &["git", "guard", "install"], true)?;
        let base = self.quiet(HUMAN, &["git", "rev-parse", "HEAD"])?;
        Ok(base.trim().to_string())
    }

    /// Step 1: the agent commits the weakened test, twice, without a terminal.
    fn agent_is_blocked(&mut self) -> anyhow::Result<()> {
        self.step(
            "1",
            "The agent's \"make CI green\" patch, committed without a terminal",
        )?;
        self.say("The patch loosens `assertEqual(rate, Decimal(\"0.075\"))` to `>= 0` and skips the currency test.")?;
        std::fs::write(self.repo.with_file_name("agent-patch.py"), agent_patch())?;
        let edit_and_commit = "cp ../agent-patch.py tests/test_invoice_rounding.py && git add -A && git commit -q -m 'Make CI green'";
        let attempts: [&[&str]; 2] = [
            &["git", "guard", "run", "--", "sh", "-c", edit_and_commit],
            &[
                "git",
                "guard",
                "run",
                "--",
                "git",
                "commit",
                "-q",
                "-m",
                "Make CI green",
            ],
        ];
        for (attempt, argv) in (1..).zip(attempts) {
            let out = self.shown(AGENT, argv, false)?;
            let text = text(&out);
            self.expect(
                out.status.code() == Some(1)
                    && text.contains("assertion-loosened tests/test_invoice_rounding.py:12")
                    && text.contains("skip-added tests/test_invoice_rounding.py:18"),
                &format!("attempt {attempt} is blocked with both findings"),
            )?;
        }
        Ok(())
    }

    /// Step 2: the agent's own approval is refused; a human approves, signed.
    fn human_approves(&mut self) -> anyhow::Result<()> {
        self.step(
            "2",
            "A human reads the findings and approves, with a reason",
        )?;
        if self.signing {
            let out = self.shown(AGENT, &["git", "guard", "allow", "--reason", REASON], false)?;
            self.expect(
                out.status.code() == Some(2) && text(&out).contains("no SSH signing key"),
                "the agent's own approval is refused: it holds no key the signers file lists",
            )?;
        }
        self.shown(HUMAN, &["git", "guard", "allow", "--reason", REASON], true)?;
        let out = self.shown(
            HUMAN,
            &["git", "commit", "-q", "-m", "Make CI green"],
            false,
        )?;
        self.expect(out.status.success(), "the approved commit goes through")?;
        let note = self.shown(
            HUMAN,
            &["git", "notes", "--ref", "refs/notes/guard", "show", "HEAD"],
            true,
        )?;
        let note = text(&note);
        self.expect(
            note.contains(&format!("Guard-Reason: {REASON}"))
                && note.contains(
                    "Guard-Findings: assertion-loosened tests/test_invoice_rounding.py:12",
                )
                && note.contains("Guard-Blocked-Attempts: 2"),
            "the note records the reason, the findings and the 2 blocked attempts",
        )?;
        if self.signing {
            let log = self.shown(HUMAN, &["git", "guard", "log", "HEAD~1..HEAD"], true)?;
            self.expect(
                text(&log).contains(&format!("signed by {}, ED25519 SHA256:", HUMAN.1)),
                "the approval is signed with the human's key and verified against guard-signers",
            )?;
        }
        Ok(())
    }

    /// Step 3: `--no-verify` passes the hook; `git guard ci` blocks it.
    fn ci_catches_no_verify(&mut self, base: &str) -> anyhow::Result<()> {
        self.step(
            "3",
            "`git commit --no-verify` slips past the hook; CI does not",
        )?;
        let gutted = agent_patch().replace("    assert currency_code(\"US\") == \"USD\"\n", "");
        std::fs::write(self.repo.join("tests/test_invoice_rounding.py"), gutted)?;
        self.quiet(AGENT, &["git", "add", "-A"])?;
        let out = self.shown(
            AGENT,
            &["git", "commit", "-q", "--no-verify", "-m", "Tidy tests"],
            false,
        )?;
        self.expect(
            out.status.success(),
            "--no-verify skips the local hook (as git allows)",
        )?;
        let base_arg = format!("--base={base}");
        let out = self.shown(
            AGENT,
            &["git", "guard", "ci", &base_arg, "--no-fetch"],
            false,
        )?;
        let ci = text(&out);
        self.expect(
            out.status.code() == Some(1)
                && ci.contains("NEEDS APPROVAL")
                && ci.contains("Tidy tests")
                && ci.contains("assertions-removed"),
            "CI re-checks the range with the base commit's policy and blocks the --no-verify commit",
        )?;
        if self.signing {
            // The agent writes an approval note itself, in the documented format.
            let forged = format!(
                "git-guard: protected change approved\n\nGuard-Reason: {REASON}\nGuard-By: {} <{}>\nGuard-Via: prompt\n",
                HUMAN.0, HUMAN.1
            );
            self.quiet(
                AGENT,
                &[
                    "git",
                    "notes",
                    "--ref",
                    "refs/notes/guard",
                    "add",
                    "-f",
                    "-m",
                    &forged,
                    "HEAD",
                ],
            )?;
            let out = self.shown(
                AGENT,
                &["git", "guard", "ci", &base_arg, "--no-fetch"],
                false,
            )?;
            let ci = text(&out);
            self.expect(
                out.status.code() == Some(1) && ci.contains("unsigned approval"),
                "a note the agent wrote itself does not count: it is not signed by a listed key",
            )?;
        }
        Ok(())
    }

    /// Step 4: the ledger counts the attempts and the blocks.
    fn ledger_shows_the_cost(&mut self) -> anyhow::Result<()> {
        self.step("4", "The ledger: what the agent's attempts cost")?;
        let out = self.shown(HUMAN, &["git", "guard", "ledger"], true)?;
        let ledger = text(&out);
        self.expect(
            ledger.contains("attempts:  2 of 4 used")
                && ledger.contains("blocked:   2 by hooks")
                && ledger.contains("attempt 1 (")
                && ledger.contains("touched tests/test_invoice_rounding.py"),
            "the ledger holds both attempts, both blocks, and which attempt touched the tests",
        )?;
        Ok(())
    }

    /// Step 5: a deselect in `pyproject.toml` changes no test file, so neither the hook
    /// nor the diff sees it; the test reports of base and head do.
    fn reports_catch_a_deselect(&mut self, base: &str) -> anyhow::Result<()> {
        self.step(
            "5",
            "A deselect in runner configuration: no test file changes, yet two defences see it",
        )?;
        self.say("On a branch from the base, the agent adds to pyproject.toml `addopts = \"--deselect …::test_rate_is_exact\"`: the exact-rate test stops running, and no file under tests/ changes.")?;
        self.quiet(
            AGENT,
            &["git", "switch", "-q", "-c", "configure-pytest", base],
        )?;
        std::fs::write(self.repo.join("pyproject.toml"), PYPROJECT)?;
        self.quiet(AGENT, &["git", "add", "pyproject.toml"])?;
        let out = self.shown(
            AGENT,
            &["git", "commit", "-q", "-m", "Configure pytest"],
            false,
        )?;
        let key = "pyproject.toml: tool.pytest";
        self.expect(
            out.status.code() == Some(1) && text(&out).contains(key),
            "the commit hook names the protected key, though pyproject.toml's dependencies stay free to change",
        )?;
        self.quiet(
            AGENT,
            &[
                "git",
                "commit",
                "-q",
                "--no-verify",
                "-m",
                "Configure pytest",
            ],
        )?;
        let base_arg = format!("--base={base}");
        let out = self.shown(
            AGENT,
            &["git", "guard", "ci", &base_arg, "--no-fetch"],
            false,
        )?;
        self.expect(
            out.status.code() == Some(1) && text(&out).contains(key),
            "past the hook with --no-verify, CI names the key too",
        )?;
        self.say("A deselect can hide where no file rule looks (a conftest.py hook, an environment variable, a plugin), so CI also keeps what the runner reported. In a real pipeline `pytest --junitxml` writes these two files: the head's in the test job, the base's in a job on the base commit (or the base branch's latest report artifact). This machine may have no pytest, so the demo writes the two reports those runs produce: the base ran 3 tests, the head 2.")?;
        for (side, xml) in [("base", REPORT_BASE), ("head", REPORT_HEAD)] {
            let dir = self.repo.join("ci-reports").join(side);
            std::fs::create_dir_all(&dir)?;
            std::fs::write(dir.join("junit.xml"), xml)?;
        }
        let out = self.shown(
            AGENT,
            &[
                "git",
                "guard",
                "ci",
                &base_arg,
                "--no-fetch",
                "--results",
                "ci-reports/head/*.xml",
                "--baseline",
                "ci-reports/base/*.xml",
            ],
            false,
        )?;
        let ci = text(&out);
        self.expect(
            out.status.code() == Some(1)
                && ci.contains(
                    "test-vanished tests.test_invoice_rounding.TestInvoiceRounding::test_rate_is_exact",
                )
                && ci.contains("!! Tests vanished"),
            "CI compares the reports: the deselected test vanished, and the run is blocked until a human names it",
        )?;
        self.quiet(HUMAN, &["git", "switch", "-q", "main"])?;
        Ok(())
    }

    fn finish(&mut self, held: bool, keep: Option<&Path>) -> anyhow::Result<()> {
        writeln!(self.out)?;
        if held {
            let line = "Every defence held: 2 blocked commits, 1 approval with its reason on record, 1 --no-verify commit caught by CI, 1 forged note refused, 1 deselected test caught by its runner key and the test reports.";
            writeln!(
                self.out,
                "{}",
                self.paint(line, Style::new().green().bold())
            )?;
        } else {
            let line = format!(
                "{} defence(s) did NOT hold: {}",
                self.failures.len(),
                self.failures.join("; ")
            );
            writeln!(self.out, "{}", self.paint(&line, Style::new().red().bold()))?;
        }
        match keep {
            Some(_) => writeln!(
                self.out,
                "The demo repository is kept in {}.",
                self.repo.display()
            )?,
            None => writeln!(
                self.out,
                "The demo repository was temporary and is gone; `git guard demo --keep DIR` keeps it."
            )?,
        }
        Ok(())
    }

    fn paint(&self, text: &str, style: Style) -> String {
        if self.colour {
            style.force_styling(true).apply_to(text).to_string()
        } else {
            text.to_string()
        }
    }

    fn step(&mut self, n: &str, title: &str) -> anyhow::Result<()> {
        writeln!(self.out)?;
        let line = format!("== {n}. {title}");
        writeln!(self.out, "{}", self.paint(&line, Style::new().bold()))?;
        Ok(())
    }

    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }

    fn expect(&mut self, ok: bool, what: &str) -> anyhow::Result<()> {
        let line = if ok {
            self.paint(&format!("  ✓ {what}"), Style::new().green())
        } else {
            self.failures.push(what.to_string());
            self.paint(&format!("  ✗ {what}"), Style::new().red().bold())
        };
        writeln!(self.out, "{line}")?;
        Ok(())
    }

    /// A hermetic command as `who`, with no controlling terminal: the demo's "agent" and
    /// commits run exactly as an agent's tool call would.
    fn command(&self, who: (&str, &str), argv: &[&str]) -> Command {
        let (program, args) = match argv {
            ["git", "guard", rest @ ..] => (self.guard.as_os_str(), rest),
            [program, rest @ ..] => (Path::new(program).as_os_str(), rest),
            [] => (Path::new("true").as_os_str(), &[][..]),
        };
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(&self.repo);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(key);
            }
        }
        let home = if who == HUMAN {
            &self.human_home
        } else {
            &self.agent_home
        };
        cmd.env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
            .env("GIT_AUTHOR_NAME", who.0)
            .env("GIT_AUTHOR_EMAIL", who.1)
            .env("GIT_COMMITTER_NAME", who.0)
            .env("GIT_COMMITTER_EMAIL", who.1)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null());
        // SAFETY: setsid is async-signal-safe and the only call between fork and exec.
        // It detaches the child from the terminal, so no hook can prompt: the demo shows
        // what an agent without a terminal meets.
        #[allow(unsafe_code)]
        unsafe {
            cmd.pre_exec(|| {
                let _ = nix::unistd::setsid();
                Ok(())
            });
        }
        cmd
    }

    fn run(&self, who: (&str, &str), argv: &[&str]) -> anyhow::Result<Output> {
        std::fs::create_dir_all(&self.repo)?;
        self.command(who, argv)
            .output()
            .with_context(|| format!("running `{}`", argv.join(" ")))
    }

    /// Runs a setup command that must succeed; returns its stdout.
    fn quiet(&self, who: (&str, &str), argv: &[&str]) -> anyhow::Result<String> {
        let out = self.run(who, argv)?;
        if !out.status.success() {
            bail!("`{}` failed: {}", argv.join(" "), text(&out));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Shows the command and its output, indented; `must_succeed` checks the exit code.
    fn shown(
        &mut self,
        who: (&str, &str),
        argv: &[&str],
        must_succeed: bool,
    ) -> anyhow::Result<Output> {
        let shown: Vec<String> = argv.iter().map(|a| shell_word(a)).collect();
        let prompt = format!(
            "{} $ {}",
            if who == AGENT { "agent" } else { "human" },
            shown.join(" ")
        );
        writeln!(self.out, "{}", self.paint(&prompt, Style::new().cyan()))?;
        let out = self.run(who, argv)?;
        for line in text(&out).lines() {
            writeln!(self.out, "    {line}")?;
        }
        if must_succeed && !out.status.success() {
            bail!("`{}` failed", argv.join(" "));
        }
        Ok(out)
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:@".contains(&b))
    {
        word.to_string()
    } else {
        format!("\"{}\"", word.replace('"', "\\\""))
    }
}
