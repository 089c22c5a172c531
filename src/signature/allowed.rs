//! The OpenSSH `allowed_signers` file (ssh-keygen(1), "ALLOWED SIGNERS"), parsed once
//! per command so that each signature is then checked without re-reading it.
//!
//! Each line: `principals [options] keytype base64-key [comment]`. Blank lines and `#`
//! comments are skipped. What this parser does with each part:
//! - principals: a comma-separated pattern list, as OpenSSH's `match_pattern_list`
//!   reads it: `*` and `?` wildcards, `!pattern` negates; may be double-quoted.
//! - `namespaces="a,b"`: honoured; a line whose list does not match `git-guard` does not
//!   let its key sign approvals.
//! - `valid-after="…"` / `valid-before="…"`: honoured against the time of verification
//!   (`YYYYMMDD`, `YYYYMMDDHHMM` or `YYYYMMDDHHMMSS`, with or without a trailing `Z`). All
//!   times are read as UTC; OpenSSH reads those without `Z` as local time, so on a machine
//!   not set to UTC the two may differ by the offset.
//! - `cert-authority`: refused. Approvals are signed by plain keys; a line that would trust
//!   a certificate authority is kept out and reported in [`AllowedSigners::problems`].
//! - any other option, a missing or unreadable key: the line is kept out and reported.
//!
//! A line that is kept out can only take trust away, never add it, so skipping it fails
//! closed.

use std::time::{SystemTime, UNIX_EPOCH};

use ssh_key::PublicKey;

/// One usable line of an `allowed_signers` file.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Line number, from 1.
    pub line: usize,
    /// The principals pattern list as written (`jane@example.com,*@corp.example`).
    pub principals: String,
    /// `namespaces="…"`, if given.
    pub namespaces: Option<String>,
    /// `valid-after`, seconds since the Unix epoch (UTC).
    pub valid_after: Option<u64>,
    /// `valid-before`, seconds since the Unix epoch (UTC).
    pub valid_before: Option<u64>,
    /// The key.
    pub key: PublicKey,
}

/// A line that was not used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong with it (`cert-authority lines are not supported`).
    pub problem: String,
}

/// A parsed `allowed_signers` file: the lines that can be used and the ones that cannot.
#[derive(Debug, Clone, Default)]
pub struct AllowedSigners {
    entries: Vec<Entry>,
    problems: Vec<Problem>,
}

impl AllowedSigners {
    /// Reads the text of an `allowed_signers` file. Never fails: unusable lines are left
    /// out and listed in [`problems`](Self::problems).
    pub fn parse(text: &str) -> AllowedSigners {
        let mut signers = AllowedSigners::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            match parse_line(trimmed) {
                Ok(parsed) => signers.entries.push(Entry {
                    line,
                    principals: parsed.principals,
                    namespaces: parsed.namespaces,
                    valid_after: parsed.valid_after,
                    valid_before: parsed.valid_before,
                    key: parsed.key,
                }),
                Err(problem) => signers.problems.push(Problem { line, problem }),
            }
        }
        signers
    }

    /// The lines that can grant trust, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The lines that were left out, with the reason for each.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

struct Parsed {
    principals: String,
    namespaces: Option<String>,
    valid_after: Option<u64>,
    valid_before: Option<u64>,
    key: PublicKey,
}

fn parse_line(line: &str) -> Result<Parsed, String> {
    let (principals, rest) = take_field(line, false)?;
    if principals.is_empty() {
        return Err("no principals".into());
    }
    let rest = rest.trim_start();
    if rest.is_empty() {
        return Err("no key after the principals".into());
    }
    let (options, rest) = if starts_with_key_type(rest) {
        (None, rest)
    } else {
        let (options, rest) = take_field(rest, true)?;
        (Some(options), rest.trim_start())
    };
    let mut parsed = Parsed {
        principals,
        namespaces: None,
        valid_after: None,
        valid_before: None,
        key: read_key(rest)?,
    };
    if let Some(options) = options {
        apply_options(&options, &mut parsed)?;
    }
    if let (Some(after), Some(before)) = (parsed.valid_after, parsed.valid_before)
        && before <= after
    {
        return Err("\"valid-before\" time is before \"valid-after\"".into());
    }
    Ok(parsed)
}

/// One whitespace-delimited field; double quotes group, and are dropped unless
/// `keep_quotes` (the options field, whose quotes [`split_options`] reads).
fn take_field(text: &str, keep_quotes: bool) -> Result<(String, &str), String> {
    let mut value = String::new();
    let mut quoted = false;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                if keep_quotes {
                    value.push(c);
                }
            }
            '\\' if quoted => {
                if keep_quotes {
                    value.push(c);
                }
                if let Some((_, next)) = chars.next() {
                    value.push(next);
                }
            }
            ' ' | '\t' if !quoted => return Ok((value, &text[i..])),
            other => value.push(other),
        }
    }
    if quoted {
        return Err("unterminated quote".into());
    }
    Ok((value, ""))
}

fn starts_with_key_type(text: &str) -> bool {
    ["ssh-", "ecdsa-", "sk-"]
        .iter()
        .any(|prefix| text.starts_with(prefix))
}

fn read_key(text: &str) -> Result<PublicKey, String> {
    let mut fields = text.split_whitespace();
    let (Some(kind), Some(data)) = (fields.next(), fields.next()) else {
        return Err("no key".into());
    };
    if kind.contains("-cert-v01@openssh.com") {
        return Err("certificates are not supported; list the plain public key".into());
    }
    let key = PublicKey::from_openssh(&format!("{kind} {data}"))
        .map_err(|e| format!("unreadable {kind} key: {e}"))?;
    if key.algorithm().as_str() != kind {
        return Err(format!(
            "the key is {}, not {kind}",
            key.algorithm().as_str()
        ));
    }
    Ok(key)
}

/// Options as OpenSSH's `sshsigopt_parse` reads them: comma-separated, values quoted.
fn apply_options(options: &str, parsed: &mut Parsed) -> Result<(), String> {
    for option in split_options(options)? {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (option.as_str(), None),
        };
        match (name.to_ascii_lowercase().as_str(), value) {
            ("cert-authority", None) => {
                return Err(
                    "cert-authority lines are not supported: approvals are signed \
                            by plain keys, list each reviewer's public key"
                        .into(),
                );
            }
            ("namespaces", Some(value)) if parsed.namespaces.is_none() => {
                parsed.namespaces = Some(value.to_string())
            }
            ("valid-after", Some(value)) if parsed.valid_after.is_none() => {
                parsed.valid_after = Some(
                    parse_time(value).ok_or_else(|| "invalid \"valid-after\" time".to_string())?,
                )
            }
            ("valid-before", Some(value)) if parsed.valid_before.is_none() => {
                parsed.valid_before = Some(
                    parse_time(value).ok_or_else(|| "invalid \"valid-before\" time".to_string())?,
                )
            }
            ("namespaces" | "valid-after" | "valid-before", Some(_)) => {
                return Err(format!("multiple \"{name}\" clauses"));
            }
            _ => return Err(format!("unknown option `{option}`")),
        }
    }
    Ok(())
}

/// Splits `a,b="x,y",c` on the commas outside quotes, dropping the quotes.
fn split_options(options: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = options.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' if quoted => {
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            ',' if !quoted => out.push(std::mem::take(&mut current)),
            other => current.push(other),
        }
    }
    if quoted {
        return Err("unterminated quote in options".into());
    }
    out.push(current);
    if out.iter().any(String::is_empty) {
        return Err("empty option".into());
    }
    Ok(out)
}

/// `YYYYMMDD[HHMM[SS]][Z]` → seconds since the epoch, read as UTC.
fn parse_time(text: &str) -> Option<u64> {
    let digits = text.strip_suffix(['Z', 'z']).unwrap_or(text);
    if !digits.bytes().all(|b| b.is_ascii_digit()) || ![8, 12, 14].contains(&digits.len()) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| digits.get(range)?.parse::<u64>().ok();
    let (year, month, day) = (number(0..4)?, number(4..6)?, number(6..8)?);
    let hour = number(8..10).unwrap_or(0);
    let minute = number(10..12).unwrap_or(0);
    let second = number(12..14).unwrap_or(0);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
        || year < 1970
    {
        return None;
    }
    let days = days_from_civil(year as i64, month as i64, day as i64);
    let seconds = days * 86_400 + (hour * 3600 + minute * 60 + second) as i64;
    u64::try_from(seconds).ok().filter(|s| *s > 0)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Seconds since the epoch of `time` (0 before it).
pub(crate) fn epoch_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// OpenSSH's `match_pattern_list` (case-sensitive): true when some pattern of the
/// comma-separated `list` matches `text` and no `!`-negated one does.
pub fn match_pattern_list(text: &str, list: &str) -> bool {
    let mut matched = false;
    for pattern in list.split(',') {
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        if match_pattern(text.as_bytes(), pattern.as_bytes()) {
            if negated {
                return false;
            }
            matched = true;
        }
    }
    matched
}

/// `*` matches any run of bytes, `?` any one byte.
fn match_pattern(text: &[u8], pattern: &[u8]) -> bool {
    let (mut t, mut p) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == b'?' || pattern[p] == text[t]) {
            t += 1;
            p += 1;
        } else if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDO0VQD9TIdICZLWFWwtf7s8/aENve8twGTEmNV0myh5";

    #[test]
    fn principals_options_and_comments() {
        let text = format!(
            "# reviewers\n\njane@example.com {KEY} jane's laptop\n\
             \"bob@example.com,*@corp.example\" namespaces=\"git,git-guard\",valid-after=\"20240101\" {KEY}\n"
        );
        let signers = AllowedSigners::parse(&text);
        assert_eq!(signers.problems(), &[]);
        let [jane, bob] = signers.entries() else {
            panic!("{:?}", signers.entries())
        };
        assert_eq!(
            (jane.line, jane.principals.as_str()),
            (3, "jane@example.com")
        );
        assert_eq!(bob.principals, "bob@example.com,*@corp.example");
        assert_eq!(bob.namespaces.as_deref(), Some("git,git-guard"));
        assert_eq!(bob.valid_after, Some(1_704_067_200));
    }

    #[test]
    fn unusable_lines_are_reported_not_used() {
        let text = format!(
            "ca@example.com cert-authority {KEY}\n\
             x@example.com no-touch-required {KEY}\n\
             y@example.com\n\
             z@example.com ssh-ed25519 AAAAnotbase64!\n\
             w@example.com valid-after=\"20250101\",valid-before=\"20240101\" {KEY}\n"
        );
        let signers = AllowedSigners::parse(&text);
        assert!(signers.entries().is_empty());
        let lines: Vec<usize> = signers.problems().iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5]);
        assert!(signers.problems()[0].problem.contains("cert-authority"));
        assert!(signers.problems()[1].problem.contains("no-touch-required"));
    }

    #[test]
    fn pattern_lists_follow_openssh() {
        assert!(match_pattern_list("jane@example.com", "jane@example.com"));
        assert!(match_pattern_list(
            "jane@example.com",
            "bob@x,*@example.com"
        ));
        assert!(match_pattern_list("jane@example.com", "jan?@example.com"));
        assert!(!match_pattern_list(
            "jane@example.com",
            "*@example.com,!jane@*"
        ));
        assert!(!match_pattern_list(
            "jane@example.com.evil",
            "*@example.com"
        ));
        assert!(!match_pattern_list("Jane@example.com", "jane@example.com"));
        assert!(match_pattern_list("git-guard", "git,git-guard"));
        assert!(!match_pattern_list("git-guard", "git"));
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("19700102"), Some(86_400));
        assert_eq!(parse_time("20240101Z"), Some(1_704_067_200));
        assert_eq!(parse_time("202401011230"), Some(1_704_067_200 + 45_000));
        assert_eq!(parse_time("20240101123059"), Some(1_704_067_200 + 45_059));
        assert_eq!(parse_time("2024010"), None);
        assert_eq!(parse_time("20241301"), None);
    }
}
