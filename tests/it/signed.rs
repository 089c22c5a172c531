//! Approvals only a human can give: signed with a key the signers file lists (read from
//! the base), verified in CI. Each forgery an agent could try — with the same OS user,
//! the same git identity, a pseudo-terminal of its own — replayed with real `ssh-keygen`
//! keys, a real bare remote and `git guard ci` as the final gate.

use std::path::{Path, PathBuf};

use crate::common::{GUARD, REASON, Run, TestRepo, WEAKENED};

/// A fresh ed25519 key pair in `dir`; returns the private key's path.
fn keygen(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let key = dir.join(name);
    let out = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&key)
        .output()
        .expect("ssh-keygen is installed");
    assert!(out.status.success(), "{out:?}");
    key
}

fn public(key: &Path) -> String {
    std::fs::read_to_string(key.with_extension("pub"))
        .unwrap()
        .trim()
        .to_string()
}

/// A HOME for the agent: the same identity as the human, no signing key unless given.
fn agent_home(repo: &TestRepo, key: Option<&Path>) -> PathBuf {
    let home = repo.base().join("agent-home");
    std::fs::create_dir_all(&home).unwrap();
    let mut config = "[user]\n\tname = Jane Doe\n\temail = jane@example.com\n\
                      [init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
        .to_string();
    if let Some(key) = key {
        config.push_str(&format!(
            "[gpg]\n\tformat = ssh\n[user]\n\tsigningKey = {}\n",
            key.with_extension("pub").display()
        ));
    }
    std::fs::write(home.join(".gitconfig"), config).unwrap();
    home
}

fn as_agent(repo: &TestRepo, home: &Path, args: &[&str]) -> Run {
    let mut cmd = repo.command_in(GUARD, &repo.root);
    cmd.args(args)
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"));
    Run::from(cmd.output().unwrap())
}

fn ci(repo: &TestRepo) -> Run {
    Run::from(
        repo.command_in(GUARD, &repo.root)
            .args(["ci", "--no-fetch", "--base", "main"])
            .output()
            .unwrap(),
    )
}

/// main requires signatures by the human's key (in guard-signers); the human's git
/// signs with it; a feature branch carries a `--no-verify` weakening.
fn signed_repo() -> (TestRepo, PathBuf) {
    let repo = TestRepo::with_origin();
    let key = keygen(&repo.home().join(".ssh"), "human");
    let gitconfig = repo.home().join(".gitconfig");
    let mut config = std::fs::read_to_string(&gitconfig).unwrap();
    config.push_str(&format!(
        "[gpg]\n\tformat = ssh\n[user]\n\tsigningKey = {}\n",
        key.with_extension("pub").display()
    ));
    std::fs::write(&gitconfig, config).unwrap();
    repo.write(
        "guard-signers",
        format!(
            "jane@example.com namespaces=\"git-guard\" {}\n",
            public(&key)
        ),
    );
    repo.write(
        "guard.toml",
        "[override]\nsigners = \"guard-signers\"\nrequire_signature = true\n",
    );
    repo.commit_all("require signed approvals");
    repo.git(&["push", "-q", "--no-verify", "origin", "main"]);
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    (repo, key)
}

#[test]
fn a_signed_human_approval_passes_ci_and_names_the_signer() {
    let (repo, _) = signed_repo();
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    assert!(repo.note("HEAD").unwrap().contains("\nGuard-Signature: "));
    let run = ci(&repo);
    run.expect(0);
    assert!(
        run.stdout
            .contains("signed by jane@example.com, ED25519 SHA256:"),
        "{}",
        run.stdout
    );
    let log = repo.guard(&["log", "main..HEAD"]);
    assert!(
        log.stdout.contains("trust:    signed by jane@example.com"),
        "{}",
        log.stdout
    );
}

#[test]
fn a_hand_written_note_in_the_documented_format_is_an_unsigned_approval() {
    let (repo, _) = signed_repo();
    let old = repo.git(&["rev-parse", "HEAD~1:tests/test_invoice.py"]);
    let new = repo.git(&["rev-parse", "HEAD:tests/test_invoice.py"]);
    let note = format!(
        "git-guard: protected change approved\n\nGuard-Reason: {REASON}\n\
         Guard-By: Jane Doe <jane@example.com>\nGuard-At: 2026-12-02T09:16:00Z\nGuard-Via: prompt\n\
         Guard-Paths: tests/test_invoice.py\nGuard-Change: {} {} tests/test_invoice.py\n",
        old.trim(),
        new.trim()
    );
    repo.git(&["notes", "--ref=guard", "add", "-m", &note, "HEAD"]);
    let run = ci(&repo);
    run.expect(1);
    assert!(
        run.stdout
            .contains("unsigned approval: this repository requires a signature by a listed key"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_approval_signed_by_the_agents_own_key_on_its_own_pty_is_an_unknown_key() {
    let (repo, _) = signed_repo();
    let agent_key = keygen(&repo.base().join("agent-keys"), "agent");
    let home = agent_home(&repo, Some(&agent_key));
    // The agent opens a pseudo-terminal of its own and signs with its own key.
    let mut cmd = repo.command_with_terminal(GUARD, &repo.root);
    cmd.args(["override", "HEAD", "--reason", REASON])
        .env("HOME", &home)
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"));
    let mut session = expectrl::Session::spawn(cmd).unwrap();
    session.expect(expectrl::Eof).unwrap();
    assert!(repo.note("HEAD").unwrap().contains("Guard-Signature: "));
    let run = ci(&repo);
    run.expect(1);
    assert!(run.stdout.contains("unknown key"), "{}", run.stdout);
}

#[test]
fn a_key_the_branch_adds_to_the_signers_file_does_not_count() {
    let (repo, _) = signed_repo();
    let agent_key = keygen(&repo.base().join("agent-keys"), "agent");
    let signers = std::fs::read_to_string(repo.root.join("guard-signers")).unwrap();
    repo.write(
        "guard-signers",
        format!(
            "{signers}jane@example.com namespaces=\"git-guard\" {}\n",
            public(&agent_key)
        ),
    );
    repo.git(&["add", "-A"]);
    repo.commit("add a reviewer", &["--no-verify"]).expect(0);
    let home = agent_home(&repo, Some(&agent_key));
    for rev in ["HEAD~1", "HEAD"] {
        let mut cmd = repo.command_with_terminal(GUARD, &repo.root);
        cmd.args(["override", rev, "--reason", REASON])
            .env("HOME", &home)
            .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"));
        let mut session = expectrl::Session::spawn(cmd).unwrap();
        session.expect(expectrl::Eof).unwrap();
    }
    // CI verifies against the signers file of the base, where the agent's key is not.
    let run = ci(&repo);
    run.expect(1);
    assert!(run.stdout.contains("unknown key"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("protected by `[override] signers (always protected)`"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_signed_note_whose_reason_was_edited_afterwards_is_a_bad_signature() {
    let (repo, _) = signed_repo();
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    let note = repo.note("HEAD").unwrap();
    let edited = note.replace(
        REASON,
        "Any sentence the agent prefers, long enough to pass",
    );
    repo.git(&["notes", "--ref=guard", "add", "-f", "-m", &edited, "HEAD"]);
    let run = ci(&repo);
    run.expect(1);
    assert!(run.stdout.contains("bad signature"), "{}", run.stdout);
}

/// Writes, as an agent could, an unsigned pending approval of exactly the staged change
/// under the key git-guard files it by (sha256 of its Guard-Change lines).
fn forge_pending(repo: &TestRepo) {
    let old = repo.git(&["rev-parse", "HEAD:tests/test_invoice.py"]);
    let new = repo.git(&["rev-parse", ":tests/test_invoice.py"]);
    let line = format!("{} {} tests/test_invoice.py", old.trim(), new.trim());
    let key = {
        let out = repo
            .command_in("sha256sum", &repo.root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(format!("{line}\n").as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    let pending = repo.root.join(".git/guard/pending");
    std::fs::create_dir_all(&pending).unwrap();
    std::fs::write(
        pending.join(format!("{key}.note")),
        format!(
            "git-guard: protected change approved\n\nGuard-Reason: {REASON}\n\
             Guard-By: Jane Doe <jane@example.com>\nGuard-At: 2026-12-02T09:16:00Z\n\
             Guard-Via: allow\nGuard-Paths: tests/test_invoice.py\nGuard-Change: {line}\n"
        ),
    )
    .unwrap();
}

#[test]
fn a_hand_written_pending_approval_does_not_let_the_commit_through() {
    let (repo, _) = signed_repo();
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    forge_pending(&repo);
    let run = repo.commit("make CI green", &[]);
    run.expect(1);
    assert!(run.stderr.contains("commit blocked"), "{}", run.stderr);
}

#[test]
fn without_required_signatures_a_forged_pending_file_is_as_good_as_an_unsigned_note() {
    // The honest limit (SECURITY.md): unsigned approvals are forgeable by design, which
    // this control shows the forgery above would exploit if signatures were optional.
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    forge_pending(&repo);
    repo.commit("make CI green", &[]).expect(0);
    let check = repo.guard(&["check", "--commit", "HEAD"]);
    assert!(
        check.stdout.contains("unsigned: anyone with push access"),
        "{}",
        check.stdout
    );
}

#[test]
fn the_agents_own_pty_answering_the_prompt_without_a_key_records_nothing() {
    let (repo, _) = signed_repo();
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    let home = agent_home(&repo, None);
    let mut cmd = repo.command_with_terminal("git", &repo.root);
    cmd.args(["commit", "-q", "-m", "make CI green"])
        .env("HOME", &home)
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"));
    let mut session = expectrl::Session::spawn(cmd).unwrap();
    session.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    session.expect("Reason").unwrap();
    session.send_line(REASON).unwrap();
    let rest = session.expect(expectrl::Eof).unwrap();
    let text = String::from_utf8_lossy(rest.before()).to_string()
        + &String::from_utf8_lossy(&rest.matches().flatten().copied().collect::<Vec<u8>>());
    let status = session.get_process_mut().wait().unwrap();
    assert!(
        !matches!(status, expectrl::WaitStatus::Exited(_, 0)),
        "the commit must not go through: {text}"
    );
    assert!(text.contains("no SSH signing key"), "{text}");
    assert_eq!(repo.git(&["rev-list", "--count", "main..HEAD"]).trim(), "0");
    assert!(!repo.root.join(".git/guard/pending").exists());
}

#[test]
fn unsigned_approvals_count_where_signatures_are_not_required_and_are_marked() {
    let repo = TestRepo::with_origin();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    let run = ci(&repo);
    run.expect(0);
    assert!(
        run.stdout.contains(
            "unsigned: anyone with push access, an agent included, could have written this"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn allow_without_a_terminal_is_refused_by_default_and_leaves_nothing_pending() {
    let repo = TestRepo::installed();
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.git(&["add", "-A"]);
    let run = repo.guard(&["allow", "--reason", REASON]);
    run.expect(1);
    assert!(
        run.stdout.contains("no terminal is attached"),
        "{}",
        run.stdout
    );
    assert!(!repo.root.join(".git/guard/pending").exists());
    repo.commit("make CI green", &["--no-verify"]).expect(0);
    let run = repo.guard(&["override", "HEAD", "--reason", REASON]);
    assert_ne!(run.code, 0);
}

#[test]
fn init_turns_signing_on_when_git_already_signs_with_ssh() {
    let repo = TestRepo::with_history();
    let key = keygen(&repo.home().join(".ssh"), "human");
    let gitconfig = repo.home().join(".gitconfig");
    let mut config = std::fs::read_to_string(&gitconfig).unwrap();
    config.push_str(&format!(
        "[gpg]\n\tformat = ssh\n[user]\n\tsigningKey = {}\n",
        key.with_extension("pub").display()
    ));
    std::fs::write(&gitconfig, config).unwrap();
    let run = repo.guard(&["init"]);
    run.expect(0);
    assert!(
        run.stdout.contains("Signed approvals are on"),
        "{}",
        run.stdout
    );
    let signers = std::fs::read_to_string(repo.root.join("guard-signers")).unwrap();
    assert!(signers.starts_with("jane@example.com namespaces=\"git-guard\" ssh-ed25519 "));
    let policy = std::fs::read_to_string(repo.root.join("guard.toml")).unwrap();
    assert!(policy.contains("signers = \"guard-signers\""));
    assert!(policy.contains("require_signature = true"));
    // Without a key, init says in one line how to turn it on.
    let plain = TestRepo::with_history();
    let run = plain.guard(&["init"]);
    assert!(
        run.stdout.contains("Approvals are unsigned"),
        "{}",
        run.stdout
    );
}

#[test]
fn require_presence_refuses_an_ordinary_key_signature_end_to_end() {
    let (repo, _) = signed_repo();
    // The base requires a touch: only security-key signatures with user presence count.
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "guard.toml",
        "[override]\nsigners = \"guard-signers\"\nrequire_signature = true\nrequire_presence = true\n",
    );
    repo.git(&["add", "-A"]);
    repo.commit("require a touch", &["--no-verify"]).expect(0);
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&["rebase", "-q", "main"]);
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    let run = ci(&repo);
    run.expect(1);
    assert!(run.stdout.contains("no user presence"), "{}", run.stdout);
}

#[test]
fn the_agent_without_a_terminal_cannot_approve_even_with_the_humans_identity() {
    let (repo, _) = signed_repo();
    let home = agent_home(&repo, None);
    let run = as_agent(&repo, &home, &["override", "HEAD", "--reason", REASON]);
    assert_ne!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(repo.note("HEAD"), None);
    ci(&repo).expect(1);
}
