//! SSH signatures on approvals: sign with `ssh-keygen -Y sign -n git-guard` using git's
//! own signing key, and verify in-process against an OpenSSH `allowed_signers` file.
//!
//! Signing goes through `ssh-keygen` ([`sign`]) so that ssh-agent, passphrase prompts and
//! FIDO security keys work exactly as they do for `git commit -S`. Verification
//! ([`verify`], [`AllowedSigners::verify`]) spawns nothing: RustCrypto's `ssh-key`
//! decodes the SSHSIG and checks Ed25519, ECDSA P-256, RSA (`rsa-sha2-256/512`, at least
//! 2048 bits) and the two security-key kinds, `sk-ssh-ed25519@openssh.com` and
//! `sk-ecdsa-sha2-nistp256@openssh.com`, whose signed data is SHA-256(application) ‖
//! flags ‖ counter ‖ SHA-256(SSHSIG signed data). The user-presence flag (0x01) of a
//! security-key signature is read here, for `require_presence`.
//!
//! The signature travels as one line: the base64 of the SSHSIG blob, which is what lies
//! between `ssh-keygen`'s `-----BEGIN SSH SIGNATURE-----` armor lines.

mod allowed;
mod sign;

use ssh_encoding::Decode;
use ssh_encoding::base64::{Base64, Encoding};
use ssh_key::public::KeyData;
use ssh_key::{Algorithm, HashAlg, PublicKey, SshSig};

pub use allowed::{AllowedSigners, Entry, Problem, match_pattern_list};
pub use sign::{KeySource, SigningKey, sign};

/// The SSHSIG namespace of every git-guard signature (`ssh-keygen -Y … -n git-guard`).
pub const NAMESPACE: &str = "git-guard";

/// The flag bit of a security-key signature that records a physical touch.
pub const FLAG_USER_PRESENCE: u8 = 0x01;

/// The result of checking one signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The signature is good, by a key the signers file lists for this email.
    Verified {
        /// The email the approval names, which the key's principals allow.
        principal: String,
        /// OpenSSH's short name of the key type: `ED25519`, `ECDSA`, `RSA`,
        /// `ED25519-SK`, `ECDSA-SK`.
        key_type: String,
        /// `SHA256:…`, as `ssh-keygen -l` prints it.
        fingerprint: String,
        /// A security-key signature whose flags record user presence (a touch).
        user_presence: bool,
    },
    /// Not an approval, and why.
    Rejected(Reason),
}

impl Verdict {
    /// Whether the signature was accepted.
    pub fn is_verified(&self) -> bool {
        matches!(self, Verdict::Verified { .. })
    }
}

/// Why a signature does not count. Each is reported by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// There is no signature.
    Unsigned,
    /// The signature is not a readable SSHSIG (bad base64, truncated, unknown version,
    /// a SHA-1 RSA signature, …).
    Malformed(String),
    /// The signature was made for another purpose (`-n git`, `-n file`, …), not
    /// `git-guard`.
    WrongNamespace(String),
    /// The key that signed is of a type this build does not verify (e.g. NIST P-384).
    UnsupportedKey(String),
    /// The key that signed is not on any usable line of the signers file.
    UnknownKey {
        /// `ED25519`, `RSA`, …
        key_type: String,
        /// `SHA256:…`.
        fingerprint: String,
    },
    /// The key is listed, but none of its lines allows the approval's email.
    PrincipalMismatch {
        /// The email the approval names.
        email: String,
        /// The principals of the lines that list the key.
        principals: Vec<String>,
    },
    /// The key and email are listed, but each such line forbids this use: a
    /// `namespaces` list without `git-guard`, or outside `valid-after`/`valid-before`.
    KeyRestricted(String),
    /// The signature does not verify over this message: forged, or the approval was
    /// edited after it was signed.
    BadSignature,
    /// `require_presence` is set and this is not a security-key signature whose flags
    /// record user presence.
    NoPresence {
        /// `ED25519`, `ED25519-SK`, …
        key_type: String,
    },
}

impl Reason {
    /// A stable identifier for machine-readable output (`unsigned`, `unknown-key`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Unsigned => "unsigned",
            Reason::Malformed(_) => "malformed",
            Reason::WrongNamespace(_) => "wrong-namespace",
            Reason::UnsupportedKey(_) => "unsupported-key",
            Reason::UnknownKey { .. } => "unknown-key",
            Reason::PrincipalMismatch { .. } => "principal-mismatch",
            Reason::KeyRestricted(_) => "key-restricted",
            Reason::BadSignature => "bad-signature",
            Reason::NoPresence { .. } => "no-presence",
        }
    }
}

/// Verifies `signature_b64` (the one-line base64 of an SSHSIG) over `message` for the
/// approver `email`, against the text of an `allowed_signers` file, at the current time.
///
/// To check many signatures against one file, parse it once with
/// [`AllowedSigners::parse`] and call [`AllowedSigners::verify`].
pub fn verify(
    message: &[u8],
    signature_b64: &str,
    allowed_signers: &str,
    email: &str,
    require_presence: bool,
) -> Verdict {
    AllowedSigners::parse(allowed_signers).verify(message, signature_b64, email, require_presence)
}

impl AllowedSigners {
    /// Verifies one signature at the current time; see [`verify`].
    pub fn verify(
        &self,
        message: &[u8],
        signature_b64: &str,
        email: &str,
        require_presence: bool,
    ) -> Verdict {
        let now = allowed::epoch_seconds(std::time::SystemTime::now());
        self.verify_at(message, signature_b64, email, require_presence, now)
    }

    /// Verifies one signature as of `time` (seconds since the Unix epoch), which
    /// `valid-after`/`valid-before` are compared with.
    ///
    /// Checks, in order: present, readable, namespace `git-guard`, key listed, email a
    /// principal of a line listing the key, that line's `namespaces` and validity
    /// window, the signature itself, and last user presence when required.
    pub fn verify_at(
        &self,
        message: &[u8],
        signature_b64: &str,
        email: &str,
        require_presence: bool,
        time: u64,
    ) -> Verdict {
        match self.check(message, signature_b64, email, require_presence, time) {
            Ok(verified) => verified,
            Err(reason) => Verdict::Rejected(reason),
        }
    }

    fn check(
        &self,
        message: &[u8],
        signature_b64: &str,
        email: &str,
        require_presence: bool,
        time: u64,
    ) -> Result<Verdict, Reason> {
        let sig = decode(signature_b64)?;
        if sig.namespace() != NAMESPACE {
            return Err(Reason::WrongNamespace(sig.namespace().to_string()));
        }
        let signer = sig.public_key();
        let key_type = key_type(signer);
        let fingerprint = signer.fingerprint(HashAlg::Sha256).to_string();
        let with_key: Vec<&Entry> = self
            .entries()
            .iter()
            .filter(|entry| entry.key.key_data() == signer)
            .collect();
        if with_key.is_empty() {
            return Err(Reason::UnknownKey {
                key_type,
                fingerprint,
            });
        }
        let for_email: Vec<&Entry> = with_key
            .iter()
            .copied()
            .filter(|entry| match_pattern_list(email, &entry.principals))
            .collect();
        if for_email.is_empty() {
            return Err(Reason::PrincipalMismatch {
                email: email.to_string(),
                principals: with_key.iter().map(|e| e.principals.clone()).collect(),
            });
        }
        let mut restriction = None;
        let usable = for_email.iter().any(|entry| match restricted(entry, time) {
            Some(why) => {
                restriction.get_or_insert(why);
                false
            }
            None => true,
        });
        if !usable {
            return Err(Reason::KeyRestricted(restriction.unwrap_or_default()));
        }
        if !supported(signer) {
            return Err(Reason::UnsupportedKey(signer.algorithm().to_string()));
        }
        let key = PublicKey::from(signer.clone());
        if key.verify(NAMESPACE, message, &sig).is_err() {
            return Err(Reason::BadSignature);
        }
        let user_presence = user_presence(&sig);
        if require_presence && !user_presence {
            return Err(Reason::NoPresence { key_type });
        }
        Ok(Verdict::Verified {
            principal: email.to_string(),
            key_type,
            fingerprint,
            user_presence,
        })
    }
}

/// The SSHSIG inside one line of base64 (armor lines, if pasted, are tolerated).
fn decode(signature_b64: &str) -> Result<SshSig, Reason> {
    let text: String = signature_b64
        .lines()
        .filter(|line| !line.starts_with("-----"))
        .flat_map(|line| line.split_whitespace())
        .collect();
    if text.is_empty() {
        return Err(Reason::Unsigned);
    }
    let bytes =
        Base64::decode_vec(&text).map_err(|e| Reason::Malformed(format!("not base64: {e}")))?;
    let mut reader = bytes.as_slice();
    let sig = SshSig::decode(&mut reader)
        .map_err(|e| Reason::Malformed(format!("not an SSH signature: {e}")))?;
    if !reader.is_empty() {
        return Err(Reason::Malformed(
            "trailing bytes after the signature".into(),
        ));
    }
    Ok(sig)
}

/// Why this line does not let its key sign now, if it does not.
fn restricted(entry: &Entry, time: u64) -> Option<String> {
    if let Some(namespaces) = &entry.namespaces
        && !match_pattern_list(NAMESPACE, namespaces)
    {
        return Some(format!(
            "line {}: the key is limited to namespaces=\"{namespaces}\"",
            entry.line
        ));
    }
    if entry.valid_after.is_some_and(|after| time < after) {
        return Some(format!("line {}: the key is not valid yet", entry.line));
    }
    if entry.valid_before.is_some_and(|before| time > before) {
        return Some(format!("line {}: the key has expired", entry.line));
    }
    None
}

/// Whether this build verifies signatures by keys of this kind.
fn supported(key: &KeyData) -> bool {
    match key {
        KeyData::Ed25519(_) | KeyData::SkEd25519(_) | KeyData::Rsa(_) => true,
        KeyData::Ecdsa(ecdsa) => ecdsa.curve() == ssh_key::EcdsaCurve::NistP256,
        KeyData::SkEcdsaSha2NistP256(_) => true,
        _ => false,
    }
}

/// Whether a security-key signature's flags byte records user presence. The flags and
/// the 32-bit counter are the last five bytes `ssh-key` keeps of an `sk-` signature; the
/// Ed25519 or ECDSA signature covers them, so a good signature's flags are authentic.
fn user_presence(sig: &SshSig) -> bool {
    let is_sk = matches!(
        (sig.public_key(), sig.algorithm()),
        (KeyData::SkEd25519(_), Algorithm::SkEd25519)
            | (
                KeyData::SkEcdsaSha2NistP256(_),
                Algorithm::SkEcdsaSha2NistP256
            )
    );
    let bytes = sig.signature_bytes();
    is_sk && bytes.len() >= 5 && bytes[bytes.len() - 5] & FLAG_USER_PRESENCE == FLAG_USER_PRESENCE
}

/// OpenSSH's short name of a key type, as `ssh-keygen -l` prints it.
pub fn key_type(key: &KeyData) -> String {
    match key.algorithm() {
        Algorithm::Ed25519 => "ED25519".into(),
        Algorithm::SkEd25519 => "ED25519-SK".into(),
        Algorithm::Ecdsa { .. } => "ECDSA".into(),
        Algorithm::SkEcdsaSha2NistP256 => "ECDSA-SK".into(),
        Algorithm::Rsa { .. } => "RSA".into(),
        Algorithm::Dsa => "DSA".into(),
        other => other.to_string(),
    }
}

/// How far one approval can be trusted, under the policy in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// Signed by a key the signers file (read from the base) lists for its `Guard-By`.
    Verified {
        /// The approver's email.
        principal: String,
        /// `ED25519`, `ED25519-SK`, …
        key_type: String,
        /// `SHA256:…`.
        fingerprint: String,
    },
    /// No signature, or a signature nobody can check (no signers file here): anyone
    /// with push access, an agent included, could have written it.
    Unsigned,
    /// A signature that does not stand: the reason's code (`bad-signature`,
    /// `unknown-key`, …) and a sentence.
    Rejected(&'static str, String),
}

impl Trust {
    /// The word for machine-readable output.
    pub fn code(&self) -> &'static str {
        match self {
            Trust::Verified { .. } => "verified",
            Trust::Unsigned => "unsigned",
            Trust::Rejected(code, _) => code,
        }
    }
}

/// Checks approvals against the signers file of the policy in force, once parsed.
pub struct Verifier {
    signers: Option<AllowedSigners>,
    require_signature: bool,
    require_presence: bool,
}

impl Verifier {
    /// The verifier for `rules`: its signers file (as read with the policy, from the
    /// same commit) and its `require_signature` / `require_presence`.
    pub fn new(rules: &crate::policy::Rules) -> Verifier {
        Verifier {
            signers: rules.signers.as_deref().map(AllowedSigners::parse),
            require_signature: rules.config.approval.require_signature,
            require_presence: rules.config.approval.require_presence,
        }
    }

    /// How far `approval` can be trusted.
    pub fn trust(&self, approval: &crate::notes::Approval) -> Trust {
        let Some(signature) = &approval.signature else {
            return Trust::Unsigned;
        };
        let Some(signers) = &self.signers else {
            // Signed, but this repository names no signers: nothing to check against.
            return Trust::Unsigned;
        };
        let email = email_of(&approval.by);
        match signers.verify(
            signature.signed.as_bytes(),
            &signature.value,
            email,
            self.require_presence,
        ) {
            Verdict::Verified {
                principal,
                key_type,
                fingerprint,
                ..
            } => Trust::Verified {
                principal,
                key_type,
                fingerprint,
            },
            Verdict::Rejected(reason) => Trust::Rejected(reason.code(), describe(&reason)),
        }
    }

    /// Whether an approval of this trust counts under the policy: a verified one always;
    /// without `require_signature`, an unsigned one and one signed by a key the file does
    /// not list (it is then as good as unsigned); a signature that does not verify over
    /// its block never (forged, or edited after signing).
    pub fn counts(&self, trust: &Trust) -> bool {
        let required = self.require_signature || self.require_presence;
        match trust {
            Trust::Verified { .. } => true,
            Trust::Unsigned => !required,
            Trust::Rejected(code, _) => {
                !required && !matches!(*code, "bad-signature" | "malformed")
            }
        }
    }
}

/// The email of `Name <email>` (the whole value when there are no angle brackets).
pub fn email_of(by: &str) -> &str {
    match (by.rfind('<'), by.rfind('>')) {
        (Some(start), Some(end)) if start < end => &by[start + 1..end],
        _ => by.trim(),
    }
}

/// One sentence for a reason, as reports show it.
fn describe(reason: &Reason) -> String {
    match reason {
        Reason::Unsigned => "unsigned approval".into(),
        Reason::Malformed(why) => format!("malformed signature: {why}"),
        Reason::WrongNamespace(ns) => format!("signature made for `{ns}`, not git-guard"),
        Reason::UnsupportedKey(kind) => format!("unsupported key type {kind}"),
        Reason::UnknownKey {
            key_type,
            fingerprint,
        } => format!("unknown key: {key_type} {fingerprint} is not in the signers file"),
        Reason::PrincipalMismatch { email, .. } => {
            format!("the signing key is not listed for {email}")
        }
        Reason::KeyRestricted(why) => format!("the signers file restricts that key: {why}"),
        Reason::BadSignature => {
            "bad signature: forged, or the approval was edited after it was signed".into()
        }
        Reason::NoPresence { key_type } => format!(
            "no user presence: require_presence needs a security-key signature with a touch ({key_type} is not)"
        ),
    }
}

/// The note block for `approval`, signed when the team asks for signatures or git is
/// set up to sign with SSH; unsigned otherwise. With `require_signature` and no key,
/// an error with a hint: nothing unsigned is recorded.
pub fn seal(
    repo: &crate::repo::Repo,
    rules: &crate::policy::Rules,
    approval: &crate::notes::Approval,
) -> anyhow::Result<String> {
    let block = approval.to_note();
    let required =
        rules.config.approval.require_signature || rules.config.approval.require_presence;
    let key = match SigningKey::from_git_config(repo) {
        Some(key) => key,
        None if required => {
            return Err(SigningKey::require(repo)
                .err()
                .unwrap_or_else(|| anyhow::anyhow!("no SSH signing key")));
        }
        None => return Ok(block),
    };
    let signature = sign(block.as_bytes(), &key)?;
    Ok(crate::notes::signed_block(&block, &signature))
}
