//! A reader for Python's `configparser` dialect (`setup.cfg`, `tox.ini`), as
//! `configparser.ConfigParser()` reads with its defaults:
//!
//! - `[section]` headers; section names are case-sensitive, option names are folded to
//!   lower case;
//! - `key = value` and `key: value` (the first `=` or `:` delimits), surrounding
//!   whitespace stripped; an option with no delimiter is an error (`allow_no_value`
//!   is off);
//! - a line indented deeper than its option continues the value (multi-line values);
//!   blank lines inside a value are kept, trailing ones dropped;
//! - whole-line comments start with `#` or `;` (an indented one inside a value is a
//!   comment too); inline comments are not recognised (they are off by default);
//! - `[DEFAULT]` values apply to every section (looked up through it);
//! - a repeated section or option in a section is an error (`strict` is on), as is an
//!   option before any section.
//!
//! Interpolation (`%(name)s`) is not expanded: values are compared as written.
//!
//! Crates considered: `rust-ini` continues lines with a trailing backslash, not by
//! indentation, and `configparser` (the crate) folds section names to lower case by
//! default; neither reads Python's multi-line values as Python does, so this small
//! reader is used instead.

use std::collections::BTreeMap;

use super::Node;

/// Parses INI text into sections → options → values.
pub fn parse(text: &str) -> Result<Node, String> {
    let mut sections: Vec<(String, Vec<(String, String)>)> = Vec::new();
    // (indentation of the option line, whether the value may still continue)
    let mut current: Option<usize> = None;
    for (number, raw) in text.lines().enumerate() {
        let number = number + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        let indent = line.len() - line.trim_start().len();
        if trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if trimmed.is_empty() {
            // Kept inside a value; dropped at its end.
            if current.is_some()
                && let Some((_, options)) = sections.last_mut()
                && let Some((_, value)) = options.last_mut()
            {
                value.push('\n');
            }
            continue;
        }
        if let Some(option_indent) = current
            && indent > option_indent
        {
            let (_, options) = sections.last_mut().expect("an option implies a section");
            let (_, value) = options.last_mut().expect("current implies an option");
            let kept = value.trim_end_matches('\n').len();
            let blank_lines = value.len() - kept;
            value.truncate(kept);
            for _ in 0..blank_lines {
                value.push('\n');
            }
            value.push('\n');
            value.push_str(trimmed);
            continue;
        }
        current = None;
        if trimmed.starts_with('[') {
            let Some(end) = trimmed.find(']') else {
                return Err(format!("line {number}: a section header without `]`"));
            };
            let name = trimmed[1..end].to_string();
            if sections.iter().any(|(s, _)| *s == name) {
                return Err(format!("line {number}: section `{name}` appears twice"));
            }
            sections.push((name, Vec::new()));
            continue;
        }
        let Some((_, options)) = sections.last_mut() else {
            return Err(format!("line {number}: an option before any [section]"));
        };
        let Some(at) = trimmed.find(['=', ':']) else {
            return Err(format!(
                "line {number}: neither `key = value` nor a section"
            ));
        };
        let key = trimmed[..at].trim().to_lowercase();
        if key.is_empty() {
            return Err(format!("line {number}: an option without a name"));
        }
        if options.iter().any(|(k, _)| *k == key) {
            return Err(format!("line {number}: option `{key}` appears twice"));
        }
        options.push((key, trimmed[at + 1..].trim().to_string()));
        current = Some(indent);
    }
    let defaults: Vec<(String, String)> = sections
        .iter()
        .find(|(name, _)| name == "DEFAULT")
        .map(|(_, options)| options.clone())
        .unwrap_or_default();
    let table = sections
        .into_iter()
        .map(|(name, options)| {
            let mut map: BTreeMap<String, Node> = BTreeMap::new();
            if name != "DEFAULT" {
                for (key, value) in &defaults {
                    map.insert(key.clone(), Node::Leaf(value.trim_end().to_string()));
                }
            }
            for (key, value) in options {
                map.insert(key, Node::Leaf(value.trim_end().to_string()));
            }
            (name, Node::Table(map))
        })
        .collect();
    Ok(Node::Table(table))
}
