//! Runner configuration: what decides "passing" inside files that also hold other things.
//!
//! Two judgements, both read through [`Blobs`]:
//!
//! - **Protected keys** (`[protect.keys]`): a change to a file such as `pyproject.toml`
//!   is protected only when the value under a listed key differs between the old and the
//!   new content ([`protected_keys`]). TOML is read with the `toml` crate, JSON with
//!   `serde_json`, `.cfg`/`.ini` with [`ini`], a small reader of Python's `configparser`
//!   dialect. A listed key protects everything below it; in an array of tables
//!   (`[[bin]]`) it applies to every element (elements are told apart by their `name`
//!   when they have one, else by position). A side that cannot be read or parsed makes
//!   the whole file protected (fail closed).
//! - **Weakened Maven, Gradle and MSBuild builds** ([`build_findings`]): lines a change
//!   adds to `pom.xml`, `.mvn/maven.config`, `build.gradle`, `build.gradle.kts` or an
//!   MSBuild test project (`*.csproj`, `*.fsproj`, `*.vbproj`) that skip the tests,
//!   ignore their failures or exclude some of them, and test projects that run on fewer
//!   target frameworks (`msbuild`), as `runner-config-weakened` findings with line
//!   numbers.

use std::collections::BTreeMap;

use crate::changes::{Blobs, Change};
use crate::config::{KeyFile, KeyFormat, KeyPath};
use crate::policy::KeyRules;

/// One path of a change whose protected keys changed (or that could not be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMatch {
    /// The path (old or new) named by `[protect.keys]`.
    pub path: Vec<u8>,
    /// The file pattern that names it, as `[protect.keys] "pattern"`.
    pub pattern: String,
    /// The keys whose values differ, most specific first found (empty when the file is
    /// protected whole because it could not be parsed).
    pub keys: Vec<String>,
    /// One line for reports: `pyproject.toml: tool.pytest.ini_options.addopts changed`.
    pub reason: String,
}

/// One side of a change: its path, the `[protect.keys]` patterns naming it (with their
/// keys), and its blob.
type Side<'a> = (
    &'a [u8],
    Vec<(&'a KeyFile, &'a [KeyPath])>,
    Option<git2::Oid>,
);

/// The most keys a reason names before it says "and N more".
const REASON_KEYS: usize = 4;

/// The protected keys `change` alters, per path named by `[protect.keys]`.
///
/// Both sides are compared as the runner sees them: a side whose path the table does not
/// name (a rename into or out of such a name) counts as absent, as does a side that does
/// not exist.
pub fn protected_keys(change: &Change, rules: &KeyRules, blobs: &dyn Blobs) -> Vec<KeyMatch> {
    if rules.is_empty() {
        return Vec::new();
    }
    let old = change
        .old_path
        .as_deref()
        .map(|p| (p, rules.for_path(p), change.old_id));
    let new = change
        .new_path
        .as_deref()
        .map(|p| (p, rules.for_path(p), change.new_id));
    let named =
        |side: &Option<Side<'_>>| side.as_ref().is_some_and(|(_, files, _)| !files.is_empty());
    if !named(&old) && !named(&new) {
        return Vec::new();
    }
    // The keys of every pattern naming either side apply to both.
    let mut keys: Vec<&KeyPath> = Vec::new();
    let mut patterns: Vec<&KeyFile> = Vec::new();
    for (_, files, _) in old.iter().chain(new.iter()) {
        for (file, listed) in files {
            if !patterns.contains(file) {
                patterns.push(file);
            }
            for key in listed.iter() {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    let read =
        |side: &Option<Side<'_>>, which: &str| -> Result<Option<(Node, KeyFormat)>, String> {
            let Some((_, files, id)) = side else {
                return Ok(None);
            };
            let (Some((file, _)), Some(id)) = (files.first(), id) else {
                return Ok(None);
            };
            let format = file.format();
            let bytes = blobs
                .blob(*id)
                .ok_or_else(|| format!("the {which} content cannot be read"))?;
            parse(&bytes, format)
                .map(|node| Some((node, format)))
                .map_err(|e| format!("the {which} content cannot be parsed as {format} ({e})"))
        };
    let shown = String::from_utf8_lossy(change.path()).into_owned();
    let pattern = format!("[protect.keys] \"{}\"", patterns[0]);
    let outcome = read(&old, "old").and_then(|o| read(&new, "new").map(|n| (o, n)));
    let mut changed: Vec<String> = Vec::new();
    let reason = match outcome {
        Err(why) => format!("{shown}: {why}; protected whole"),
        Ok((old_tree, new_tree)) => {
            for key in keys {
                let (before, after) = (select(&old_tree, key), select(&new_tree, key));
                let labels: Vec<&String> = before
                    .keys()
                    .chain(after.keys().filter(|l| !before.contains_key(*l)))
                    .collect();
                for label in labels {
                    diff(
                        before.get(label).copied(),
                        after.get(label).copied(),
                        label,
                        &mut changed,
                    );
                }
            }
            if changed.is_empty() {
                return Vec::new();
            }
            let mut named: Vec<&str> = changed
                .iter()
                .take(REASON_KEYS)
                .map(String::as_str)
                .collect();
            let more = changed.len().saturating_sub(REASON_KEYS);
            let extra = (more > 0).then(|| format!("and {more} more"));
            named.extend(extra.as_deref());
            format!("{shown}: {} changed", named.join(", "))
        }
    };
    [old, new]
        .into_iter()
        .flatten()
        .filter(|(_, files, _)| !files.is_empty())
        .map(|(path, _, _)| path.to_vec())
        .fold(Vec::<Vec<u8>>::new(), |mut paths, path| {
            if !paths.contains(&path) {
                paths.push(path);
            }
            paths
        })
        .into_iter()
        .map(|path| KeyMatch {
            path,
            pattern: pattern.clone(),
            keys: changed.clone(),
            reason: reason.clone(),
        })
        .collect()
}

/// Every node under `key` in a parsed side (none for an absent side), by concrete key.
fn select<'a>(tree: &'a Option<(Node, KeyFormat)>, key: &KeyPath) -> BTreeMap<String, &'a Node> {
    let mut found = BTreeMap::new();
    if let Some((node, format)) = tree {
        node.select(&lookup_segments(key, *format), String::new(), &mut found);
    }
    found
}

/// The segments to look up: INI option names are case-insensitive (configparser folds
/// them to lower case), section names are not.
fn lookup_segments(key: &KeyPath, format: KeyFormat) -> Vec<String> {
    key.segments()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if format == KeyFormat::Ini && i > 0 {
                s.to_lowercase()
            } else {
                s.clone()
            }
        })
        .collect()
}

/// A parsed config file, whatever its format: tables, arrays and scalar leaves (a
/// scalar is kept as its text in the source format, so `1` and `"1"` differ).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A table, section or object.
    Table(BTreeMap<String, Node>),
    /// An array.
    Array(Vec<Node>),
    /// Anything else.
    Leaf(String),
}

impl Node {
    /// Every node under `segments`, by the concrete key that reaches it (`bin.test`,
    /// or `bin[name].test` inside an array of tables).
    fn select<'a>(
        &'a self,
        segments: &[String],
        label: String,
        out: &mut BTreeMap<String, &'a Node>,
    ) {
        let Some((first, rest)) = segments.split_first() else {
            out.insert(label, self);
            return;
        };
        match self {
            Node::Table(map) => {
                if let Some(child) = map.get(first) {
                    child.select(rest, join(&label, first), out);
                }
            }
            Node::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let Node::Table(_) = item {
                        item.select(segments, format!("{label}[{}]", element_id(item, i)), out);
                    }
                }
            }
            Node::Leaf(_) => {}
        }
    }
}

/// An array-of-tables element's name: its `name` value when it has one, else its index.
fn element_id(item: &Node, index: usize) -> String {
    match item {
        Node::Table(map) => match map.get("name") {
            Some(Node::Leaf(name)) => name.clone(),
            _ => index.to_string(),
        },
        _ => index.to_string(),
    }
}

/// `label.segment`, quoting a segment that holds a dot or a space.
fn join(label: &str, segment: &str) -> String {
    let segment = if segment.is_empty() || segment.contains(['.', ' ', '"', '[', ']']) {
        format!("\"{segment}\"")
    } else {
        segment.to_string()
    };
    if label.is_empty() {
        segment
    } else {
        format!("{label}.{segment}")
    }
}

/// The most specific keys under `label` whose values differ.
fn diff(old: Option<&Node>, new: Option<&Node>, label: &str, out: &mut Vec<String>) {
    if old == new {
        return;
    }
    if let (Some(Node::Table(a)), Some(Node::Table(b))) = (old, new) {
        for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
            diff(a.get(key), b.get(key), &join(label, key), out);
        }
        return;
    }
    if !out.iter().any(|l| l == label) {
        out.push(label.to_string());
    }
}

/// Parses a whole file into a [`Node`].
pub fn parse(bytes: &[u8], format: KeyFormat) -> Result<Node, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    match format {
        KeyFormat::Toml => {
            let table: toml::Table = toml::from_str(text).map_err(|e| {
                let message = e.message().trim_end().to_string();
                match e.span() {
                    Some(span) => {
                        let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                        format!("line {line}: {message}")
                    }
                    None => message,
                }
            })?;
            Ok(from_toml(&toml::Value::Table(table)))
        }
        KeyFormat::Json => {
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))?;
            Ok(from_json(&value))
        }
        KeyFormat::Ini => ini::parse(text),
    }
}

fn from_toml(value: &toml::Value) -> Node {
    match value {
        toml::Value::Table(t) => {
            Node::Table(t.iter().map(|(k, v)| (k.clone(), from_toml(v))).collect())
        }
        toml::Value::Array(a) => Node::Array(a.iter().map(from_toml).collect()),
        toml::Value::String(s) => Node::Leaf(s.clone()),
        other => Node::Leaf(other.to_string()),
    }
}

fn from_json(value: &serde_json::Value) -> Node {
    match value {
        serde_json::Value::Object(o) => {
            Node::Table(o.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())
        }
        serde_json::Value::Array(a) => Node::Array(a.iter().map(from_json).collect()),
        serde_json::Value::String(s) => Node::Leaf(s.clone()),
        other => Node::Leaf(other.to_string()),
    }
}

mod build;
pub mod ini;
mod msbuild;

pub use build::build_findings;

#[cfg(test)]
mod tests;
