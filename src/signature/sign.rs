//! Signing through `ssh-keygen -Y sign`, with the key git itself signs with.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context;
use ssh_key::{PrivateKey, PublicKey};

use super::NAMESPACE;
use crate::exit::hinted;
use crate::repo::Repo;

/// Where the signing key is, as git's `user.signingKey` says for `gpg.format = ssh`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// A key file: the private key, or its public half when the private key is in
    /// ssh-agent (`ssh-keygen` finds it there).
    File(PathBuf),
    /// A public key given literally (`key::ssh-ed25519 AAAA…`); the private key must be
    /// in ssh-agent.
    Literal(String),
}

/// The key and program git would sign with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigningKey {
    /// The key.
    pub source: KeySource,
    /// The program (`gpg.ssh.program`, default `ssh-keygen`).
    pub program: String,
}

impl SigningKey {
    /// The key git signs with, when git is set up for SSH signing: `gpg.format = ssh`
    /// and `user.signingKey` set; `gpg.ssh.program` names the program. `None` otherwise
    /// (`gpg.ssh.defaultKeyCommand` is not consulted).
    pub fn from_git_config(repo: &Repo) -> Option<SigningKey> {
        let config = repo.git.config().ok()?.snapshot().ok()?;
        if config.get_string("gpg.format").ok()? != "ssh" {
            return None;
        }
        let value = config.get_string("user.signingkey").ok()?;
        let program = config
            .get_string("gpg.ssh.program")
            .ok()
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| "ssh-keygen".to_string());
        let base = repo.git.workdir().unwrap_or_else(|| repo.git.path());
        SigningKey::from_setting(&value, &program, base)
    }

    /// Like [`from_git_config`](Self::from_git_config), but an error with a hint that
    /// says how to set a key up when there is none.
    pub fn require(repo: &Repo) -> anyhow::Result<SigningKey> {
        SigningKey::from_git_config(repo).ok_or_else(|| {
            hinted(
                "no SSH signing key: git is not set up to sign with SSH \
                 (gpg.format = ssh and user.signingKey)",
                "git config --global gpg.format ssh && \
                 git config --global user.signingKey ~/.ssh/id_ed25519.pub \
                 (a key listed in the signers file; `ssh-keygen -t ed25519-sk` makes one \
                 that needs a touch)",
            )
        })
    }

    /// Reads a `user.signingKey` value the way git does: `key::…` or a value starting
    /// with `ssh-` is a literal public key; anything else is a path, `~/` meaning the
    /// home directory and a relative path taken from `base` (the work tree).
    pub fn from_setting(value: &str, program: &str, base: &Path) -> Option<SigningKey> {
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let source = if let Some(literal) = value.strip_prefix("key::") {
            KeySource::Literal(literal.trim().to_string())
        } else if value.starts_with("ssh-") {
            KeySource::Literal(value.to_string())
        } else {
            let path = match value.strip_prefix("~/") {
                Some(rest) => PathBuf::from(std::env::var_os("HOME")?).join(rest),
                None => PathBuf::from(value),
            };
            KeySource::File(if path.is_absolute() {
                path
            } else {
                base.join(path)
            })
        };
        Some(SigningKey {
            source,
            program: program.to_string(),
        })
    }

    /// The public key, in OpenSSH's one-line form without comment
    /// (`ssh-ed25519 AAAA…`), when it can be read without a passphrase: the literal,
    /// `<file>.pub`, the file as a public key, or the public half of an OpenSSH private
    /// key file. What `git guard init` writes into a new signers file.
    pub fn public_key(&self) -> Option<String> {
        let key = match &self.source {
            KeySource::Literal(text) => PublicKey::from_openssh(text).ok()?,
            KeySource::File(path) => {
                let mut with_pub = path.clone().into_os_string();
                with_pub.push(".pub");
                let read = |p: &Path| std::fs::read_to_string(p).ok();
                read(Path::new(&with_pub))
                    .and_then(|t| PublicKey::from_openssh(t.trim()).ok())
                    .or_else(|| read(path).and_then(|t| PublicKey::from_openssh(t.trim()).ok()))
                    .or_else(|| {
                        read(path)
                            .and_then(|t| PrivateKey::from_openssh(t).ok())
                            .map(|k| k.public_key().clone())
                    })?
            }
        };
        let mut key = key;
        key.set_comment("");
        key.to_openssh().ok().map(|s| s.trim().to_string())
    }

    /// Whether the key is a FIDO security key (`sk-…`), whose signing waits for a touch.
    pub fn is_security_key(&self) -> bool {
        self.public_key().is_some_and(|k| k.starts_with("sk-"))
    }

    /// The key as a human recognises it in messages: the path or the literal key.
    pub fn describe(&self) -> String {
        match &self.source {
            KeySource::File(path) => path.display().to_string(),
            KeySource::Literal(text) => format!("key::{text}"),
        }
    }
}

/// Signs `message` with `ssh-keygen -Y sign -n git-guard -f <key>` (plus `-U` for a
/// literal key, as git does), the message on standard input, and returns the base64 of
/// the SSHSIG on one line. Standard input of the terminal is not used; `ssh-keygen` asks
/// for a passphrase on `/dev/tty` and a security key's touch is waited for, as with git.
///
/// A failure is an error with a hint naming what to fix: the program missing, the key
/// file missing, the private key neither beside it nor in ssh-agent, the agent refusing,
/// a wrong passphrase, a security key not touched in time.
pub fn sign(message: &[u8], key: &SigningKey) -> anyhow::Result<String> {
    // Lives until ssh-keygen is done with it.
    let mut _literal_file = None;
    let mut command = Command::new(&key.program);
    command.args(["-Y", "sign", "-n", NAMESPACE, "-f"]);
    match &key.source {
        KeySource::File(path) => {
            command.arg(path);
        }
        KeySource::Literal(text) => {
            let mut file = tempfile::Builder::new()
                .prefix("git-guard-key")
                .tempfile()
                .context("writing the literal signing key to a temporary file")?;
            writeln!(file, "{text}").context("writing the literal signing key")?;
            command.arg(file.path()).arg("-U");
            _literal_file = Some(file);
        }
    }
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            hinted(
                format!("cannot sign: `{}` was not found", key.program),
                "install OpenSSH's ssh-keygen, or name it: git config gpg.ssh.program \
                 /path/to/ssh-keygen",
            )
        } else {
            anyhow::Error::new(e).context(format!("cannot run `{}`", key.program))
        }
    })?;
    let mut stdin = child.stdin.take().context("ssh-keygen's standard input")?;
    let writer = {
        let message = message.to_vec();
        std::thread::spawn(move || stdin.write_all(&message))
    };
    let output = child
        .wait_with_output()
        .with_context(|| format!("waiting for `{}`", key.program))?;
    // A broken pipe here only means ssh-keygen stopped reading; its status says why.
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(failure(key, stderr.trim()));
    }
    let armored = String::from_utf8_lossy(&output.stdout);
    let body: String = armored
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("-----"))
        .collect();
    if !armored.contains("-----BEGIN SSH SIGNATURE-----") || body.is_empty() {
        anyhow::bail!(
            "`{}` printed no SSH signature{}",
            key.program,
            if stderr.trim().is_empty() {
                String::new()
            } else {
                format!(": {}", stderr.trim())
            }
        );
    }
    Ok(body)
}

/// The error for a failed `ssh-keygen -Y sign`, with the hint that fits its message.
fn failure(key: &SigningKey, stderr: &str) -> anyhow::Error {
    let what = key.describe();
    let last = stderr
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    let lower = stderr.to_ascii_lowercase();
    let (message, hint) = if lower.contains("couldn't load public key") {
        (
            format!("cannot sign: the signing key {what} cannot be read ({last})"),
            "set user.signingKey to your SSH key file: git config user.signingKey \
             ~/.ssh/id_ed25519.pub"
                .to_string(),
        )
    } else if lower.contains("timeout")
        || lower.contains("timed out")
        || lower.contains("device not found")
        || lower.contains("sk_sign")
        || lower.contains("fido")
        || lower.contains("security key")
    {
        (
            format!("cannot sign: the security key did not sign ({last})"),
            "plug the security key in and touch it when it blinks (ssh-keygen waits about \
             30 seconds), then approve again"
                .to_string(),
        )
    } else if lower.contains("agent refused") {
        (
            format!("cannot sign: ssh-agent refused to sign with {what} ({last})"),
            "confirm the agent's request when it asks (keys added with `ssh-add -c`), or \
             touch the security key when it blinks; then approve again"
                .to_string(),
        )
    } else if lower.contains("couldn't get agent socket") {
        (
            format!("cannot sign: {what} needs ssh-agent, and none is reachable ({last})"),
            "start ssh-agent and add the key (`eval \"$(ssh-agent)\"` then `ssh-add \
             <private key file>`), so that SSH_AUTH_SOCK names its socket"
                .to_string(),
        )
    } else if lower.contains("couldn't find key in agent") || lower.contains("no private key found")
    {
        (
            format!("cannot sign: the private key of {what} is neither beside it nor in ssh-agent"),
            "add it to the agent with `ssh-add <private key file>`, or point \
             user.signingKey at the private key file"
                .to_string(),
        )
    } else if lower.contains("passphrase") {
        (
            format!(
                "cannot sign: the passphrase of {what} was wrong or could not be asked ({last})"
            ),
            "approve from a terminal where ssh-keygen can ask for the passphrase, or add the \
             key to ssh-agent first (`ssh-add`)"
                .to_string(),
        )
    } else {
        (
            format!("cannot sign with {what}: {last}"),
            format!(
                "check that `{} -Y sign -n {NAMESPACE} -f {what}` works in your terminal",
                key.program
            ),
        )
    };
    hinted(message, hint)
}
