//! Signatures on approvals, against the real OpenSSH: keys made by `ssh-keygen` in temp
//! dirs, signatures made by `ssh-keygen -Y sign` verified in-process, what git-guard signs
//! accepted by `ssh-keygen -Y verify`, a real ssh-agent, and a security-key (sk-ed25519)
//! signature built in software, since no hardware is here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ed25519_dalek::Signer;
use git_guard::exit::hint_of;
use git_guard::repo::Repo;
use git_guard::signature::{
    self, AllowedSigners, KeySource, NAMESPACE, Reason, SigningKey, Verdict, sign, verify,
};
use sha2::{Digest, Sha256, Sha512};
use tempfile::TempDir;

const JANE: &str = "jane@example.com";
const MESSAGE: &[u8] = b"git-guard: protected change approved\n\nGuard-Reason: the rate moved\n";

/// A temp dir of keys made by `ssh-keygen`.
struct Keys {
    dir: TempDir,
}

impl Keys {
    fn new() -> Keys {
        Keys {
            dir: tempfile::Builder::new()
                .prefix("guard-sig")
                .tempdir()
                .unwrap(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `ssh-keygen -t <kind>` without passphrase; returns the private key's path.
    fn generate(&self, kind: &str) -> PathBuf {
        let path = self.path(&format!("id_{kind}"));
        let mut args = vec!["-q", "-t", kind, "-N", "", "-C", "test key", "-f"];
        let path_text = path.to_str().unwrap().to_string();
        args.push(&path_text);
        if kind == "rsa" {
            args.extend(["-b", "2048"]);
        }
        run_ok(Command::new("ssh-keygen").args(&args));
        path
    }

    fn public(&self, key: &Path) -> String {
        let text = std::fs::read_to_string(pub_path(key)).unwrap();
        text.trim().to_string()
    }

    /// `<principal> <public key>` — one allowed_signers line.
    fn signers_line(&self, principal: &str, key: &Path) -> String {
        format!("{principal} {}\n", self.public(key))
    }
}

fn pub_path(key: &Path) -> PathBuf {
    let mut text = key.as_os_str().to_owned();
    text.push(".pub");
    PathBuf::from(text)
}

fn run_ok(command: &mut Command) -> Vec<u8> {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// `ssh-keygen -Y sign -n <namespace> -f <key>`, message on stdin; the one-line base64.
fn keygen_sign(key: &Path, namespace: &str, message: &[u8]) -> String {
    let mut child = Command::new("ssh-keygen")
        .args(["-Y", "sign", "-n", namespace, "-f"])
        .arg(key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(message).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect()
}

/// `ssh-keygen -Y verify -n git-guard -I <email> -s <sig> -f <allowed_signers>`.
fn keygen_verify(keys: &Keys, signers: &str, email: &str, sig_b64: &str, message: &[u8]) -> bool {
    let signers_file = keys.path("allowed_signers");
    std::fs::write(&signers_file, signers).unwrap();
    let sig_file = keys.path("message.sig");
    let wrapped: Vec<String> = sig_b64
        .as_bytes()
        .chunks(70)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    std::fs::write(
        &sig_file,
        format!(
            "-----BEGIN SSH SIGNATURE-----\n{}\n-----END SSH SIGNATURE-----\n",
            wrapped.join("\n")
        ),
    )
    .unwrap();
    let mut child = Command::new("ssh-keygen")
        .args(["-Y", "verify", "-n", NAMESPACE, "-I", email, "-s"])
        .arg(&sig_file)
        .arg("-f")
        .arg(&signers_file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(message).unwrap();
    child.wait_with_output().unwrap().status.success()
}

/// `SHA256:…` as `ssh-keygen -l` prints it.
fn keygen_fingerprint(key: &Path) -> String {
    let out = run_ok(Command::new("ssh-keygen").arg("-lf").arg(pub_path(key)));
    let text = String::from_utf8(out).unwrap();
    text.split_whitespace().nth(1).unwrap().to_string()
}

fn file_key(key: &Path) -> SigningKey {
    SigningKey {
        source: KeySource::File(key.to_path_buf()),
        program: "ssh-keygen".into(),
    }
}

#[test]
fn signatures_made_by_ssh_keygen_verify_in_process() {
    let keys = Keys::new();
    for (kind, key_type) in [("ed25519", "ED25519"), ("ecdsa", "ECDSA"), ("rsa", "RSA")] {
        let key = keys.generate(kind);
        let sig = keygen_sign(&key, NAMESPACE, MESSAGE);
        let signers = keys.signers_line(JANE, &key);
        assert_eq!(
            verify(MESSAGE, &sig, &signers, JANE, false),
            Verdict::Verified {
                principal: JANE.into(),
                key_type: key_type.into(),
                fingerprint: keygen_fingerprint(&key),
                user_presence: false,
            },
            "{kind}"
        );
    }
}

#[test]
fn ssh_keygen_verify_accepts_what_sign_produces() {
    let keys = Keys::new();
    for kind in ["ed25519", "ecdsa", "rsa"] {
        let key = keys.generate(kind);
        let sig = sign(MESSAGE, &file_key(&key)).unwrap();
        assert!(!sig.contains('\n') && !sig.contains("-----"), "{sig}");
        let signers = keys.signers_line(JANE, &key);
        assert!(
            keygen_verify(&keys, &signers, JANE, &sig, MESSAGE),
            "{kind}"
        );
        assert!(verify(MESSAGE, &sig, &signers, JANE, false).is_verified());
        // and ssh-keygen too refuses it for another email or another message
        assert!(!keygen_verify(
            &keys,
            &signers,
            "bob@example.com",
            &sig,
            MESSAGE
        ));
        assert!(!keygen_verify(&keys, &signers, JANE, &sig, b"other"));
    }
}

#[test]
fn each_refusal_is_named() {
    let keys = Keys::new();
    let key = keys.generate("ed25519");
    let stranger = keys.generate("ecdsa");
    let signers = keys.signers_line(JANE, &key);
    let sig = sign(MESSAGE, &file_key(&key)).unwrap();
    let rejected = |verdict: Verdict| match verdict {
        Verdict::Rejected(reason) => reason,
        other => panic!("accepted: {other:?}"),
    };

    // the approval edited after it was signed: one byte changed
    let mut edited = MESSAGE.to_vec();
    edited[40] ^= 1;
    assert_eq!(
        rejected(verify(&edited, &sig, &signers, JANE, false)),
        Reason::BadSignature
    );

    // a key that is not in the signers file
    let theirs = sign(MESSAGE, &file_key(&stranger)).unwrap();
    assert_eq!(
        rejected(verify(MESSAGE, &theirs, &signers, JANE, false)),
        Reason::UnknownKey {
            key_type: "ECDSA".into(),
            fingerprint: keygen_fingerprint(&stranger),
        }
    );

    // Guard-By names someone the key does not belong to
    assert_eq!(
        rejected(verify(MESSAGE, &sig, &signers, "bob@example.com", false)),
        Reason::PrincipalMismatch {
            email: "bob@example.com".into(),
            principals: vec![JANE.into()],
        }
    );

    // a signature made for another purpose (git's own commit signatures use `-n git`)
    let git_sig = keygen_sign(&key, "git", MESSAGE);
    assert_eq!(
        rejected(verify(MESSAGE, &git_sig, &signers, JANE, false)),
        Reason::WrongNamespace("git".into())
    );
    assert!(!keygen_verify(&keys, &signers, JANE, &git_sig, MESSAGE));

    // no signature; garbage
    assert_eq!(
        rejected(verify(MESSAGE, "", &signers, JANE, false)),
        Reason::Unsigned
    );
    assert_eq!(
        rejected(verify(
            MESSAGE,
            "bm90IGEgc2lnbmF0dXJl",
            &signers,
            JANE,
            false
        ))
        .code(),
        "malformed"
    );

    // an ordinary key cannot show a human touched anything
    assert_eq!(
        rejected(verify(MESSAGE, &sig, &signers, JANE, true)),
        Reason::NoPresence {
            key_type: "ED25519".into()
        }
    );
}

#[test]
fn signers_file_lines_restrict_as_openssh_does() {
    let keys = Keys::new();
    let key = keys.generate("ed25519");
    let public = keys.public(&key);
    let sig = sign(MESSAGE, &file_key(&key)).unwrap();
    let check = |signers: &str| verify(MESSAGE, &sig, signers, JANE, false);

    assert!(check(&format!("*@example.com {public}")).is_verified());
    assert!(
        check(&format!(
            "bob@x,{JANE} namespaces=\"git,git-guard\" {public}"
        ))
        .is_verified()
    );
    assert_eq!(
        check(&format!("{JANE} namespaces=\"git\" {public}")),
        Verdict::Rejected(Reason::KeyRestricted(
            "line 1: the key is limited to namespaces=\"git\"".into()
        ))
    );
    assert_eq!(
        check(&format!("{JANE} valid-before=\"20200101\" {public}")),
        Verdict::Rejected(Reason::KeyRestricted("line 1: the key has expired".into()))
    );
    assert!(check(&format!("{JANE} valid-after=\"20200101Z\" {public}")).is_verified());
    // a cert-authority line grants nothing, and says why
    let ca = format!("{JANE} cert-authority {public}");
    assert!(matches!(
        check(&ca),
        Verdict::Rejected(Reason::UnknownKey { .. })
    ));
    assert!(
        AllowedSigners::parse(&ca).problems()[0]
            .problem
            .contains("cert-authority")
    );
    // ssh-keygen agrees on the namespace restriction
    assert!(!keygen_verify(
        &keys,
        &format!("{JANE} namespaces=\"git\" {public}"),
        JANE,
        &sig,
        MESSAGE
    ));
}

/// SSH wire format: a string is its u32 length then its bytes.
fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend((bytes.len() as u32).to_be_bytes());
    out.extend(bytes);
}

/// An `sk-ssh-ed25519@openssh.com` SSHSIG as a FIDO authenticator would make it, built in
/// software: Ed25519 over SHA256(application) ‖ flags ‖ counter ‖ SHA256(signed data),
/// where the signed data is the SSHSIG preamble, namespace and SHA-512 of the message.
/// Returns the one-line base64 and the public key line.
fn software_sk_signature(seed: u8, flags: u8, message: &[u8]) -> (String, String) {
    let secret = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
    let public = secret.verifying_key().to_bytes();
    let application = b"ssh:";
    let algorithm = b"sk-ssh-ed25519@openssh.com";

    let mut key_blob = Vec::new();
    put_string(&mut key_blob, algorithm);
    put_string(&mut key_blob, &public);
    put_string(&mut key_blob, application);

    let mut signed_data = b"SSHSIG".to_vec();
    put_string(&mut signed_data, NAMESPACE.as_bytes());
    put_string(&mut signed_data, b"");
    put_string(&mut signed_data, b"sha512");
    put_string(&mut signed_data, &Sha512::digest(message));

    let counter: u32 = 7;
    let mut authenticator_data = Sha256::digest(application).to_vec();
    authenticator_data.push(flags);
    authenticator_data.extend(counter.to_be_bytes());
    authenticator_data.extend(Sha256::digest(&signed_data));
    let raw = secret.sign(&authenticator_data).to_bytes();

    let mut sig_blob = Vec::new();
    put_string(&mut sig_blob, algorithm);
    put_string(&mut sig_blob, &raw);
    sig_blob.push(flags);
    sig_blob.extend(counter.to_be_bytes());

    let mut sshsig = b"SSHSIG".to_vec();
    sshsig.extend(1u32.to_be_bytes());
    put_string(&mut sshsig, &key_blob);
    put_string(&mut sshsig, NAMESPACE.as_bytes());
    put_string(&mut sshsig, b"");
    put_string(&mut sshsig, b"sha512");
    put_string(&mut sshsig, &sig_blob);

    let b64 = |bytes: &[u8]| {
        use ssh_encoding::base64::{Base64, Encoding};
        Base64::encode_string(bytes)
    };
    let public_line = format!("sk-ssh-ed25519@openssh.com {} hardware key", b64(&key_blob));
    (b64(&sshsig), public_line)
}

#[test]
fn require_presence_accepts_a_touched_security_key_signature_only() {
    let keys = Keys::new();
    let (touched, public) = software_sk_signature(3, 0x01, MESSAGE);
    let (untouched, _) = software_sk_signature(3, 0x00, MESSAGE);
    let signers = format!("{JANE} {public}\n");

    let verdict = verify(MESSAGE, &touched, &signers, JANE, true);
    let Verdict::Verified {
        key_type,
        user_presence,
        fingerprint,
        ..
    } = &verdict
    else {
        panic!("{verdict:?}")
    };
    assert_eq!((key_type.as_str(), *user_presence), ("ED25519-SK", true));
    assert!(fingerprint.starts_with("SHA256:"));
    // OpenSSH itself accepts the software-built signature: the construction is right
    assert!(keygen_verify(&keys, &signers, JANE, &touched, MESSAGE));

    assert_eq!(
        verify(MESSAGE, &untouched, &signers, JANE, true),
        Verdict::Rejected(Reason::NoPresence {
            key_type: "ED25519-SK".into()
        })
    );
    // without require_presence it counts, marked as not touched
    assert!(matches!(
        verify(MESSAGE, &untouched, &signers, JANE, false),
        Verdict::Verified {
            user_presence: false,
            ..
        }
    ));
    // the flags are signed: setting the presence bit afterwards breaks the signature
    let forged = {
        use ssh_encoding::base64::{Base64, Encoding};
        let mut bytes = Base64::decode_vec(&untouched).unwrap();
        let at = bytes.len() - 5;
        bytes[at] |= 0x01;
        Base64::encode_string(&bytes)
    };
    assert_eq!(
        verify(MESSAGE, &forged, &signers, JANE, true),
        Verdict::Rejected(Reason::BadSignature)
    );
    // and a touched signature does not carry over to another approval
    assert_eq!(
        verify(b"another approval", &touched, &signers, JANE, true),
        Verdict::Rejected(Reason::BadSignature)
    );
}

/// An `ssh-agent -D` of our own on a socket in the temp dir, ended by its pid on drop.
struct Agent {
    child: Child,
    socket: PathBuf,
}

impl Agent {
    fn start(dir: &Path) -> Agent {
        let socket = dir.join("agent.sock");
        let child = Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !socket.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no agent socket"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Agent { child, socket }
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A repository whose git config points at the key the way a user sets up git.
fn repo_with_config(dir: &Path, settings: &[(&str, &str)]) -> Repo {
    let root = dir.join("repo");
    run_ok(Command::new("git").args(["init", "-q"]).arg(&root));
    for (key, value) in settings {
        run_ok(
            Command::new("git")
                .arg("-C")
                .arg(&root)
                .args(["config", key, value]),
        );
    }
    Repo::open_at(&root).unwrap()
}

#[test]
fn signing_through_ssh_agent_with_the_public_key_configured() {
    let keys = Keys::new();
    let key = keys.generate("ed25519");
    let agent = Agent::start(keys.dir.path());
    run_ok(
        Command::new("ssh-add")
            .arg("-q")
            .arg(&key)
            .env("SSH_AUTH_SOCK", &agent.socket),
    );
    // the private key is now only in the agent
    std::fs::rename(&key, keys.path("moved-away")).unwrap();
    // gpg.ssh.program: a wrapper that points the real ssh-keygen at our agent (a test
    // cannot set SSH_AUTH_SOCK for the whole process)
    let program = keys.path("keygen-with-agent");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nSSH_AUTH_SOCK='{}' exec ssh-keygen \"$@\"\n",
            agent.socket.display()
        ),
    )
    .unwrap();
    run_ok(Command::new("chmod").arg("755").arg(&program));
    let public = pub_path(&key);
    let repo = repo_with_config(
        keys.dir.path(),
        &[
            ("gpg.format", "ssh"),
            ("user.signingKey", public.to_str().unwrap()),
            ("gpg.ssh.program", program.to_str().unwrap()),
        ],
    );
    let signing = SigningKey::from_git_config(&repo).unwrap();
    assert_eq!(signing.source, KeySource::File(public.clone()));
    assert_eq!(signing.public_key().unwrap(), {
        let line = keys.public(&key);
        line.split(' ').take(2).collect::<Vec<_>>().join(" ")
    });
    let signers = keys.signers_line(JANE, &key);
    let sig = sign(MESSAGE, &signing).unwrap();
    assert!(verify(MESSAGE, &sig, &signers, JANE, false).is_verified());
    assert!(keygen_verify(&keys, &signers, JANE, &sig, MESSAGE));

    // git's literal form, `key::ssh-ed25519 AAAA…`, signs through the agent too
    let literal = SigningKey::from_setting(
        &format!("key::{}", keys.public(&key)),
        program.to_str().unwrap(),
        keys.dir.path(),
    )
    .unwrap();
    let sig = sign(MESSAGE, &literal).unwrap();
    assert!(verify(MESSAGE, &sig, &signers, JANE, false).is_verified());

    // with the key gone from the agent, the failure says how to fix it
    run_ok(
        Command::new("ssh-add")
            .arg("-D")
            .env("SSH_AUTH_SOCK", &agent.socket),
    );
    let error = sign(MESSAGE, &signing).unwrap_err();
    assert!(
        hint_of(&error).unwrap().contains("ssh-add"),
        "{error:#}: {:?}",
        hint_of(&error)
    );
}

#[test]
fn signing_failures_are_errors_with_hints() {
    let keys = Keys::new();
    let missing = SigningKey {
        source: KeySource::File(keys.path("no-such-key")),
        program: "ssh-keygen".into(),
    };
    let error = sign(MESSAGE, &missing).unwrap_err();
    assert!(error.to_string().contains("cannot be read"), "{error:#}");
    assert!(hint_of(&error).unwrap().contains("user.signingKey"));

    let key = keys.generate("ed25519");
    let no_program = SigningKey {
        source: KeySource::File(key.clone()),
        program: keys.path("no-ssh-keygen").display().to_string(),
    };
    let error = sign(MESSAGE, &no_program).unwrap_err();
    assert!(
        hint_of(&error).unwrap().contains("gpg.ssh.program"),
        "{error:#}"
    );

    // a public key whose private half is nowhere (no agent reachable here)
    std::fs::rename(&key, keys.path("moved-away")).unwrap();
    let mut command_env_free = file_key(&pub_path(&key));
    // run ssh-keygen without an agent, whatever the developer's shell has
    let program = keys.path("keygen-no-agent");
    std::fs::write(
        &program,
        "#!/bin/sh\nunset SSH_AUTH_SOCK\nexec ssh-keygen \"$@\"\n",
    )
    .unwrap();
    run_ok(Command::new("chmod").arg("755").arg(&program));
    command_env_free.program = program.display().to_string();
    let error = sign(MESSAGE, &command_env_free).unwrap_err();
    assert!(hint_of(&error).unwrap().contains("ssh-add"), "{error:#}");
}

#[test]
fn the_key_comes_from_git_config_as_git_reads_it() {
    let keys = Keys::new();
    let not_ssh = repo_with_config(
        &keys.path("a"),
        &[("gpg.format", "openpgp"), ("user.signingKey", "ABCDEF")],
    );
    assert_eq!(SigningKey::from_git_config(&not_ssh), None);
    assert!(hint_of(&SigningKey::require(&not_ssh).unwrap_err()).is_some());

    let relative = repo_with_config(
        &keys.path("b"),
        &[("gpg.format", "ssh"), ("user.signingKey", "keys/id.pub")],
    );
    let found = SigningKey::from_git_config(&relative).unwrap();
    assert_eq!(found.program, "ssh-keygen");
    let KeySource::File(path) = &found.source else {
        panic!("{found:?}")
    };
    assert!(path.ends_with("repo/keys/id.pub"), "{path:?}");

    let base = Path::new("/work");
    assert_eq!(
        SigningKey::from_setting("ssh-ed25519 AAAA x", "ssh-keygen", base)
            .unwrap()
            .source,
        KeySource::Literal("ssh-ed25519 AAAA x".into())
    );
    assert_eq!(
        SigningKey::from_setting("/k/id", "ssh-keygen", base)
            .unwrap()
            .source,
        KeySource::File("/k/id".into())
    );
}

/// CPU time this thread has run, in nanoseconds (first field of schedstat), so that the
/// figure does not depend on how busy the shared machine is.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Verification is in-process: 100 signatures against one parsed signers file. The
/// figures are printed (`cargo test verifying_100 -- --nocapture`): wall time, and the
/// thread's CPU time where Linux gives it; the bound is loose for a shared machine.
#[test]
fn verifying_100_signatures_in_process_is_fast() {
    let keys = Keys::new();
    let mut signers = String::new();
    let mut signed = Vec::new();
    for (i, kind) in ["ed25519", "ecdsa", "rsa"].iter().enumerate() {
        let key = keys.generate(kind);
        let email = format!("reviewer{i}@example.com");
        signers.push_str(&keys.signers_line(&email, &key));
        let sig = keygen_sign(&key, NAMESPACE, MESSAGE);
        signed.push((*kind, email, sig));
    }
    let measure = |what: &str, work: &dyn Fn()| {
        let (cpu, started) = (thread_cpu_ns(), Instant::now());
        work();
        let wall = started.elapsed();
        let cpu = cpu
            .zip(thread_cpu_ns())
            .map(|(before, after)| format!("{:?}", Duration::from_nanos(after - before)))
            .unwrap_or_else(|| "unknown".into());
        eprintln!("{what}: wall {wall:?}, cpu {cpu}");
        wall
    };
    let parsed = AllowedSigners::parse(&signers);
    for (kind, email, sig) in &signed {
        let wall = measure(&format!("verify 100 {kind} signatures in-process"), &|| {
            for _ in 0..100 {
                assert!(parsed.verify(MESSAGE, sig, email, false).is_verified());
            }
        });
        assert!(wall < Duration::from_secs(5), "{kind}: {wall:?}");
    }
    let (_, email, sig) = &signed[0];
    measure(
        "verify 100 ed25519 signatures, parsing the 3-line signers file each time",
        &|| {
            for _ in 0..100 {
                assert!(signature::verify(MESSAGE, sig, &signers, email, false).is_verified());
            }
        },
    );
}
