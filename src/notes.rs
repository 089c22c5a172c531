//! The override note as a value: format, parse and coverage (`note_store` reads and
//! writes it on the notes ref).
//!
//! A note is one or more blocks, each a title line, a blank line and `Guard-*` trailers,
//! so `git interpret-trailers --parse` reads it. Paths are C-quoted the way git quotes
//! them whenever they hold a space, a quote, a backslash, a control or non-ASCII byte.

use git2::Oid;

use crate::changes::BlobChange;
use crate::paths::{quote_path, unquote_path};

/// The first line of every block git-guard writes.
pub const TITLE: &str = "git-guard: protected change approved";

/// How an approval was given (`Guard-Via`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Via {
    /// Answered at the commit or push prompt on a terminal.
    #[default]
    Prompt,
    /// `git guard allow --reason`.
    Allow,
    /// `git guard override`.
    Override,
    /// The PR/MR label (CI only; never written by git-guard into a note).
    Label,
    /// Anything else a note says (kept as written, so reports show it).
    Other(String),
}

impl Via {
    /// The word as `Guard-Via` writes it.
    pub fn as_str(&self) -> &str {
        match self {
            Via::Prompt => "prompt",
            Via::Allow => "allow",
            Via::Override => "override",
            Via::Label => "label",
            Via::Other(text) => text,
        }
    }

    /// Reads a `Guard-Via` value.
    pub fn parse(text: &str) -> Via {
        match text {
            "prompt" => Via::Prompt,
            "allow" => Via::Allow,
            "override" => Via::Override,
            "label" => Via::Label,
            other => Via::Other(other.to_string()),
        }
    }
}

impl std::fmt::Display for Via {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Via {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One approval block of a note.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Approval {
    /// The human's sentence: why the oracle changed.
    pub reason: String,
    /// `Name <email>` of who approved.
    pub by: String,
    /// RFC 3339 UTC time of approval.
    pub at: String,
    /// How it was given.
    pub via: Via,
    /// The protected paths the approval covers (raw bytes).
    pub paths: Vec<Vec<u8>>,
    /// `kind path:line` of each blocking finding approved.
    pub findings: Vec<String>,
    /// The exact changes approved (`Guard-Change`): what makes the approval count.
    pub changes: Vec<BlobChange>,
    /// Test ids (`<classname>::<name>`) whose vanishing or skipping in the test reports
    /// is approved (`Guard-Tests`, one line per id): exactly these, no others.
    pub tests: Vec<String>,
    /// `git patch-id --stable` of the approved change, when known (information only).
    pub patch_id: Option<String>,
    /// How many blocked attempts preceded this approval, when known.
    pub blocked_attempts: Option<u32>,
    /// The signature sealing the block, when it was signed.
    pub signature: Option<Signature>,
}

impl Approval {
    /// The block as it is written into a note, ending in a newline.
    pub fn to_note(&self) -> String {
        let mut out = format!("{TITLE}\n\n");
        let mut trailer = |key: &str, value: &str| {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(value);
            out.push('\n');
        };
        trailer("Guard-Reason", &one_line(&self.reason));
        trailer("Guard-By", &one_line(&self.by));
        trailer("Guard-At", &self.at);
        trailer("Guard-Via", self.via.as_str());
        for path in &self.paths {
            trailer("Guard-Paths", &quote_path(path));
        }
        for finding in &self.findings {
            trailer("Guard-Findings", &one_line(finding));
        }
        for change in &self.changes {
            trailer("Guard-Change", &format_change(change));
        }
        for test in &self.tests {
            trailer("Guard-Tests", &quote_path(test.as_bytes()));
        }
        if let Some(id) = &self.patch_id {
            trailer("Guard-Patch-Id", id);
        }
        if let Some(n) = self.blocked_attempts {
            trailer("Guard-Blocked-Attempts", &n.to_string());
        }
        out
    }

    /// Whether the reason meets the policy's minimum length.
    pub fn reason_is_long_enough(&self, min_chars: usize) -> bool {
        reason_length(&self.reason) >= min_chars
    }
}

/// The length of a reason as the policy counts it: characters, outer space trimmed.
pub fn reason_length(reason: &str) -> usize {
    reason.trim().chars().count()
}

/// Collapses line breaks and runs of blanks so a value stays one trailer line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every git-guard block in a note; other text in the note is ignored.
///
/// A `Guard-Signature:` line seals its block: the signature covers the block's exact
/// bytes from the title line to just before it, and whatever follows it up to the next
/// title is ignored, so nothing can be added to a signed approval unsigned.
pub fn parse(note: &str) -> Vec<Approval> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Approval, bool)> = None; // start, block, sealed
    let mut offset = 0;
    for raw in note.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if line.trim_end() == TITLE {
            blocks.extend(current.take().map(|(_, block, _)| block));
            current = Some((start, Approval::default(), false));
            continue;
        }
        let Some((block_start, block, sealed)) = current.as_mut() else {
            continue;
        };
        if *sealed {
            continue;
        }
        let Some((key, value)) = line.split_once(": ") else {
            continue;
        };
        let value = value.trim();
        match key {
            "Guard-Reason" => block.reason = value.to_string(),
            "Guard-By" => block.by = value.to_string(),
            "Guard-At" => block.at = value.to_string(),
            "Guard-Via" => block.via = Via::parse(value),
            "Guard-Paths" => block.paths.push(unquote_path(value)),
            "Guard-Findings" => block.findings.push(value.to_string()),
            "Guard-Change" => block.changes.extend(parse_change(value)),
            "Guard-Tests" => block
                .tests
                .push(String::from_utf8_lossy(&unquote_path(value)).into_owned()),
            "Guard-Patch-Id" => block.patch_id = Some(value.to_string()),
            "Guard-Blocked-Attempts" => block.blocked_attempts = value.parse().ok(),
            "Guard-Signature" => {
                block.signature = Some(Signature {
                    value: value.to_string(),
                    signed: note[*block_start..start].to_string(),
                });
                *sealed = true;
            }
            _ => {}
        }
    }
    blocks.extend(current.map(|(_, block, _)| block));
    blocks
}

/// A block's `Guard-Signature`, with the exact bytes it signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// Base64 of the SSHSIG (namespace `git-guard`), as the trailer holds it.
    pub value: String,
    /// The block's bytes from its title line to just before the signature line.
    pub signed: String,
}

/// A block as `to_note` writes it, sealed with its signature line.
pub fn signed_block(block: &str, signature: &str) -> String {
    format!("{block}Guard-Signature: {signature}\n")
}

/// `<old-oid> <new-oid> <path>`: the all-zero id for a side that does not exist, the
/// path C-quoted as git quotes it.
pub fn format_change(change: &BlobChange) -> String {
    let id = |oid: Option<Oid>| oid.unwrap_or(Oid::ZERO_SHA1).to_string();
    format!(
        "{} {} {}",
        id(change.old),
        id(change.new),
        quote_path(&change.path)
    )
}

/// Reads a `Guard-Change` value; `None` when it is not of that form.
pub fn parse_change(value: &str) -> Option<BlobChange> {
    let (old, rest) = value.split_once(' ')?;
    let (new, path) = rest.split_once(' ')?;
    let id = |hex: &str| -> Option<Option<Oid>> {
        let oid = Oid::from_str(hex).ok().filter(|_| hex.len() == 40)?;
        Some((!oid.is_zero()).then_some(oid))
    };
    Some(BlobChange {
        old: id(old)?,
        new: id(new)?,
        path: unquote_path(path),
    })
}

/// Whether valid approvals (reason long enough) together name every required change,
/// exactly: the same path with the same objects before and after.
///
/// A note cannot be stretched over a later, larger or edited change: a change the
/// approvals do not name, byte for byte, stays unapproved.
pub fn covers(approvals: &[Approval], required: &[BlobChange], min_reason_chars: usize) -> bool {
    let valid: Vec<&Approval> = approvals
        .iter()
        .filter(|a| a.reason_is_long_enough(min_reason_chars))
        .collect();
    !valid.is_empty()
        && required
            .iter()
            .all(|change| valid.iter().any(|a| a.changes.contains(change)))
}

/// Whether an approval names one of the required paths with other content: it was
/// given for an earlier version of the change (amended, fixed up, re-staged).
pub fn is_stale(approval: &Approval, required: &[BlobChange]) -> bool {
    required.iter().any(|change| {
        !approval.changes.contains(change)
            && (approval.changes.iter().any(|c| c.path == change.path)
                || approval.paths.contains(&change.path))
    })
}

/// The current time as RFC 3339 UTC to the second, as `Guard-At` records it.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Approval {
        Approval {
            reason: "Fixture seeds a random currency table; equality was flaky, fixed the seed"
                .into(),
            by: "Jane Doe <jane@example.com>".into(),
            at: "2026-12-02T09:16:00Z".into(),
            via: Via::Prompt,
            paths: vec![b"tests/test_invoice_rounding.py".to_vec()],
            findings: vec!["assertion-loosened tests/test_invoice_rounding.py:14".into()],
            changes: Vec::new(),
            tests: Vec::new(),
            patch_id: None,
            signature: None,
            blocked_attempts: None,
        }
    }

    #[test]
    fn format_matches_the_spec_exactly() {
        assert_eq!(
            sample().to_note(),
            "git-guard: protected change approved\n\n\
             Guard-Reason: Fixture seeds a random currency table; equality was flaky, fixed the seed\n\
             Guard-By: Jane Doe <jane@example.com>\n\
             Guard-At: 2026-12-02T09:16:00Z\n\
             Guard-Via: prompt\n\
             Guard-Paths: tests/test_invoice_rounding.py\n\
             Guard-Findings: assertion-loosened tests/test_invoice_rounding.py:14\n"
        );
    }

    #[test]
    fn parse_round_trips_and_reads_appended_blocks() {
        let mut second = sample();
        second.via = Via::Allow;
        second.paths = vec![b"tests/a b.py".to_vec(), b"tests/\xff\n\"q\".py".to_vec()];
        second.patch_id = Some("abc123".into());
        second.blocked_attempts = Some(3);
        let note = format!("{}\n{}", sample().to_note(), second.to_note());
        assert_eq!(parse(&note), vec![sample(), second]);
    }

    #[test]
    fn a_signature_seals_its_block_and_covers_its_exact_bytes() {
        let block = sample().to_note();
        let note = format!(
            "{}Guard-Change: {} {} tests/smuggled.py\n\n{}",
            signed_block(&block, "U1NIU0lH"),
            "0".repeat(40),
            "1".repeat(40),
            sample().to_note()
        );
        let parsed = parse(&note);
        assert_eq!(parsed.len(), 2);
        let signature = parsed[0].signature.as_ref().expect("signed");
        assert_eq!(signature.value, "U1NIU0lH");
        assert_eq!(signature.signed, block);
        // Nothing after the signature line joins the signed approval.
        assert!(parsed[0].changes.is_empty());
        assert_eq!(parsed[1].signature, None);
    }

    #[test]
    fn text_that_is_not_ours_is_ignored() {
        let note = format!(
            "some other tool's note\nKey: value\n\n{}",
            sample().to_note()
        );
        assert_eq!(parse(&note), vec![sample()]);
        assert!(parse("Guard-Reason: forged without a title line\n").is_empty());
    }

    #[test]
    fn reason_with_newlines_stays_on_one_trailer_line() {
        let mut a = sample();
        a.reason = "first line\nGuard-Paths: src/evil.py".into();
        let parsed = parse(&a.to_note());
        assert_eq!(parsed[0].reason, "first line Guard-Paths: src/evil.py");
        assert_eq!(
            parsed[0].paths,
            vec![b"tests/test_invoice_rounding.py".to_vec()]
        );
    }

    fn change(path: &str, old: u8, new: u8) -> BlobChange {
        let id = |b: u8| (b != 0).then(|| Oid::from_bytes(&[b; 20]).unwrap());
        BlobChange {
            old: id(old),
            new: id(new),
            path: path.as_bytes().to_vec(),
        }
    }

    #[test]
    fn coverage_needs_every_change_exactly_and_a_long_enough_reason() {
        let mut a = sample();
        a.changes = vec![change("tests/test_invoice_rounding.py", 1, 2)];
        let required = a.changes.clone();
        assert!(covers(std::slice::from_ref(&a), &required, 20));
        assert!(!covers(std::slice::from_ref(&a), &required, 500));
        let wider = vec![required[0].clone(), change("tests/other.py", 0, 3)];
        assert!(!covers(std::slice::from_ref(&a), &wider, 20));
        let mut b = sample();
        b.changes = vec![change("tests/other.py", 0, 3)];
        assert!(covers(&[a.clone(), b], &wider, 20));
        assert!(!covers(&[], &[], 20));
        // The same path with other content (an amend, a fixup) is not covered, and the
        // approval is then stale.
        let edited = vec![change("tests/test_invoice_rounding.py", 1, 9)];
        assert!(!covers(std::slice::from_ref(&a), &edited, 20));
        assert!(is_stale(&a, &edited));
        assert!(!is_stale(&a, &required));
    }

    #[test]
    fn guard_change_lines_round_trip_with_zero_sides_and_quoted_paths() {
        let mut a = sample();
        a.changes = vec![
            change("tests/gone.py", 1, 0),
            change("tests/new file.py", 0, 2),
        ];
        let note = a.to_note();
        assert!(note.contains(&format!(
            "Guard-Change: {} {} \"tests/new file.py\"\n",
            "0".repeat(40),
            "02".repeat(20)
        )));
        assert_eq!(parse(&note), vec![a]);
        assert_eq!(parse_change("short ids tests/x"), None);
    }

    #[test]
    fn guard_tests_lines_round_trip_one_per_id_quoted_when_needed() {
        let mut a = sample();
        a.tests = vec![
            "tests.test_invoice::test_tax_rate".into(),
            "invoice tax rate::invoice tax rate".into(),
        ];
        let note = a.to_note();
        assert!(note.contains("Guard-Tests: tests.test_invoice::test_tax_rate\n"));
        assert!(note.contains("Guard-Tests: \"invoice tax rate::invoice tax rate\"\n"));
        assert_eq!(parse(&note), vec![a]);
    }
}
