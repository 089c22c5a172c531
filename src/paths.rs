//! Paths as git shows them: byte paths quoted the way git quotes them, and the serde
//! helpers that put byte paths into JSON. Notes, analysis and rendering all use these.

use serde::Serializer;

/// Quotes a path the way git does (`core.quotePath`), also quoting spaces so a trailer
/// value keeps its exact bytes.
pub fn quote_path(path: &[u8]) -> String {
    let needs_quotes = path
        .iter()
        .any(|&b| matches!(b, b'"' | b'\\' | b' ') || !(0x20..0x7f).contains(&b));
    if !needs_quotes {
        return String::from_utf8_lossy(path).into_owned();
    }
    let mut out = String::with_capacity(path.len() + 2);
    out.push('"');
    for &b in path {
        match b {
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b if !(0x20..0x7f).contains(&b) => out.push_str(&format!("\\{b:03o}")),
            b => out.push(b as char),
        }
    }
    out.push('"');
    out
}

/// Reverses [`quote_path`]; an unquoted value is taken as it is.
pub fn unquote_path(value: &str) -> Vec<u8> {
    let Some(inner) = value
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return value.as_bytes().to_vec();
    };
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 == bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let escaped = bytes[i + 1];
        i += 2;
        let simple = match escaped {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b't' => Some(b'\t'),
            b'n' => Some(b'\n'),
            b'v' => Some(0x0b),
            b'f' => Some(0x0c),
            b'r' => Some(b'\r'),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            continue;
        }
        let octal = &bytes[i - 1..(i + 2).min(bytes.len())];
        if octal.len() == 3 && octal.iter().all(|d| (b'0'..=b'7').contains(d)) {
            let value = octal
                .iter()
                .fold(0u32, |acc, d| acc * 8 + u32::from(d - b'0'));
            out.push(value as u8);
            i += 2;
        } else {
            out.extend_from_slice(&[b'\\', escaped]);
        }
    }
    out
}

/// Serde: a byte path as a JSON string, UTF-8 when it is, git-quoted when it is not.
pub fn serialize_path<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    match std::str::from_utf8(bytes) {
        Ok(text) => s.serialize_str(text),
        Err(_) => s.serialize_str(&quote_path(bytes)),
    }
}

/// Serde: an optional byte path.
pub fn serialize_opt_path<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
    match bytes {
        Some(b) => serialize_path(b, s),
        None => s.serialize_none(),
    }
}

/// Serde: a list of byte paths.
pub fn serialize_paths<S: Serializer>(paths: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(paths.len()))?;
    for p in paths {
        match std::str::from_utf8(p) {
            Ok(text) => seq.serialize_element(text)?,
            Err(_) => seq.serialize_element(&quote_path(p))?,
        }
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_git() {
        assert_eq!(quote_path(b"tests/plain.py"), "tests/plain.py");
        assert_eq!(quote_path(b"tests/a b.py"), "\"tests/a b.py\"");
        assert_eq!(quote_path(b"tests/a\nb.py"), "\"tests/a\\nb.py\"");
        assert_eq!(
            quote_path("tests/é.py".as_bytes()),
            "\"tests/\\303\\251.py\""
        );
        assert_eq!(quote_path(b"a\"b\\c\t"), "\"a\\\"b\\\\c\\t\"");
        assert_eq!(quote_path(b"\x01\x7f"), "\"\\001\\177\"");
    }

    #[test]
    fn unquote_reverses_quote_for_every_byte() {
        let all: Vec<u8> = (0u8..=255).collect();
        assert_eq!(unquote_path(&quote_path(&all)), all);
        assert_eq!(unquote_path("plain/path.py"), b"plain/path.py");
        assert_eq!(unquote_path("\"dangling\\\""), b"dangling\\");
    }
}
