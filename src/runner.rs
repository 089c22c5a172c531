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
//! - **Weakened Maven and Gradle builds** ([`build_findings`]): lines a change adds to
//!   `pom.xml`, `.mvn/maven.config`, `build.gradle` or `build.gradle.kts` that skip the
//!   tests, ignore their failures or exclude some of them, as `runner-config-weakened`
//!   findings with line numbers.

use std::collections::BTreeMap;

use regex::Regex;

use crate::changes::{Blobs, Change};
use crate::config::{KeyFile, KeyFormat, KeyPath};
use crate::finding::{Finding, FindingKind};
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

/// A reader for Python's `configparser` dialect (`setup.cfg`, `tox.ini`), as
/// `configparser.ConfigParser()` reads with its defaults:
///
/// - `[section]` headers; section names are case-sensitive, option names are folded to
///   lower case;
/// - `key = value` and `key: value` (the first `=` or `:` delimits), surrounding
///   whitespace stripped; an option with no delimiter is an error (`allow_no_value`
///   is off);
/// - a line indented deeper than its option continues the value (multi-line values);
///   blank lines inside a value are kept, trailing ones dropped;
/// - whole-line comments start with `#` or `;` (an indented one inside a value is a
///   comment too); inline comments are not recognised (they are off by default);
/// - `[DEFAULT]` values apply to every section (looked up through it);
/// - a repeated section or option in a section is an error (`strict` is on), as is an
///   option before any section.
///
/// Interpolation (`%(name)s`) is not expanded: values are compared as written.
///
/// Crates considered: `rust-ini` continues lines with a trailing backslash, not by
/// indentation, and `configparser` (the crate) folds section names to lower case by
/// default; neither reads Python's multi-line values as Python does, so this small
/// reader is used instead.
pub mod ini {
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
}

/// Which build file a path is, for [`build_findings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Build {
    /// `pom.xml`.
    Maven,
    /// `.mvn/maven.config`: command-line options for every Maven run.
    MavenConfig,
    /// `build.gradle`, `build.gradle.kts`.
    Gradle,
}

impl Build {
    fn of_path(path: &[u8]) -> Option<Build> {
        let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
        match name {
            b"pom.xml" => Some(Build::Maven),
            b"build.gradle" | b"build.gradle.kts" => Some(Build::Gradle),
            b"maven.config" if path.ends_with(b".mvn/maven.config") => Some(Build::MavenConfig),
            _ => None,
        }
    }
}

/// One rule of the build detector: a pattern, whether it only counts inside the test
/// runner's configuration, and what it does.
struct BuildRule {
    pattern: Regex,
    in_test_block_only: bool,
    /// A setting that is no weakening when its line sets it to `false`.
    unless_false: bool,
    what: &'static str,
}

fn build_rules(build: Build) -> &'static [BuildRule] {
    use std::sync::OnceLock;
    static MAVEN: OnceLock<Vec<BuildRule>> = OnceLock::new();
    static GRADLE: OnceLock<Vec<BuildRule>> = OnceLock::new();
    let rule = |pattern: &str, in_test_block_only, what| BuildRule {
        pattern: Regex::new(pattern).expect("build rule"),
        in_test_block_only,
        unless_false: false,
        what,
    };
    let setting = |pattern: &str, in_test_block_only, what| BuildRule {
        unless_false: true,
        ..rule(pattern, in_test_block_only, what)
    };
    match build {
        Build::Maven | Build::MavenConfig => MAVEN.get_or_init(|| {
            vec![
                setting(
                    r"\b(skipTests|skipITs|maven\.test\.skip(\.exec)?)\b",
                    false,
                    "skips the tests",
                ),
                setting(
                    r"\b(testFailureIgnore|maven\.test\.failure\.ignore)\b",
                    false,
                    "ignores test failures",
                ),
                rule(
                    r"<(exclude|excludesFile|excludedGroups|excludeJUnit5Engines)>",
                    true,
                    "excludes tests from surefire/failsafe",
                ),
                setting(r"<skip>", true, "skips surefire/failsafe"),
            ]
        }),
        Build::Gradle => GRADLE.get_or_init(|| {
            vec![
                setting(r"\bignoreFailures\b", false, "ignores test failures"),
                rule(
                    r"\btest\s*\.\s*(enabled|onlyIf|exclude\w*|filter|ignoreFailures)\b",
                    false,
                    "changes which tests run",
                ),
                rule(r"\bexcludeTestsMatching\b", false, "excludes tests"),
                rule(
                    r"\bexcludedTaskNames\b",
                    false,
                    "excludes tasks (tests) from the build",
                ),
                rule(r"(^|[^.\w])exclude\w*\b", true, "excludes tests"),
                rule(
                    r"(^|[^.\w])include\w*\b",
                    true,
                    "narrows the tests that run",
                ),
                // `filter { … }` configures the test filter; `xs.filter { … }` is a collection.
                rule(r"(^|[^.\w])filter\b", true, "filters the tests that run"),
                rule(
                    r"\b(enabled|isEnabled)\s*(=\s*)?false\b",
                    true,
                    "disables the test task",
                ),
                rule(r"\bonlyIf\b", true, "makes the test task conditional"),
            ]
        }),
    }
}

/// `runner-config-weakened` findings (not yet marked blocking) for every Maven or
/// Gradle build file a change adds such a line to.
pub fn build_findings(changes: &[Change], blobs: &dyn Blobs) -> Vec<Finding> {
    let mut findings = Vec::new();
    for change in changes {
        let Some(new_path) = change.new_path.as_deref() else {
            continue;
        };
        let Some(build) = Build::of_path(new_path) else {
            continue;
        };
        let Some(new) = change.new_id.and_then(|id| blobs.blob(id)) else {
            continue;
        };
        let old = change
            .old_path
            .as_deref()
            .filter(|p| Build::of_path(p) == Some(build))
            .and(change.old_id)
            .and_then(|id| blobs.blob(id))
            .unwrap_or_default();
        let (old, new) = (String::from_utf8_lossy(&old), String::from_utf8_lossy(&new));
        for (line, what, text) in weakening_lines(build, &old, &new) {
            findings.push(Finding {
                kind: FindingKind::RunnerConfigWeakened,
                path: new_path.to_vec(),
                line: Some(line),
                detail: format!("the build {what}: `{text}`"),
                blocking: false,
            });
        }
    }
    findings
}

/// A hit: the rule's description and the normalised line text, at a 1-based line.
type Hit = (u32, &'static str, String);

/// The hits in `new` that `old` does not already have (compared as a multiset of
/// normalised lines, so moving or re-indenting a line adds nothing).
fn weakening_lines(build: Build, old: &str, new: &str) -> Vec<Hit> {
    let before = hits(build, old);
    let after = hits(build, new);
    let mut budget: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, _, text) in &before {
        *budget.entry(text.as_str()).or_default() += 1;
    }
    let mut added = Vec::new();
    for hit in &after {
        match budget.get_mut(hit.2.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => added.push(hit.clone()),
        }
    }
    added
}

/// Every line of `text` some rule matches (one hit per line, the first rule).
fn hits(build: Build, text: &str) -> Vec<Hit> {
    let blanked = match build {
        Build::Maven => blank_xml_comments(text),
        Build::MavenConfig => text.to_string(),
        Build::Gradle => blank_code(text),
    };
    let in_test = match build {
        Build::Maven => surefire_ranges(&blanked),
        Build::MavenConfig => vec![(0, blanked.len())],
        Build::Gradle => gradle_test_ranges(&blanked),
    };
    let inside = |at: usize| in_test.iter().any(|(s, e)| (*s..*e).contains(&at));
    let mut found = Vec::new();
    let mut offset = 0;
    for (number, line) in blanked.split('\n').enumerate() {
        let start = offset;
        offset += line.len() + 1;
        // `<skipTests>false</skipTests>`, `ignoreFailures = false`: not a weakening.
        let sets_false = line.to_ascii_lowercase().contains("false");
        for rule in build_rules(build) {
            if rule.unless_false && sets_false {
                continue;
            }
            let hit = rule
                .pattern
                .find_iter(line)
                .any(|m| !rule.in_test_block_only || inside(start + m.start()));
            if hit {
                let normalised = line.split_whitespace().collect::<Vec<_>>().join(" ");
                found.push((number as u32 + 1, rule.what, normalised));
                break;
            }
        }
    }
    found
}

/// `text` with XML comments replaced by spaces (newlines kept, so offsets and lines hold).
fn blank_xml_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("-->")
            .map_or(rest.len(), |e| start + e + 3);
        out.extend(rest[start..end].chars().map(blank));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn blank(c: char) -> String {
    if c == '\n' {
        "\n".into()
    } else {
        " ".repeat(c.len_utf8())
    }
}

/// Byte ranges of `<plugin>` blocks that configure surefire or failsafe.
fn surefire_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("<plugin>").map(|s| from + s) {
        let end = text[start..]
            .find("</plugin>")
            .map_or(text.len(), |e| start + e);
        let block = &text[start..end];
        if block.contains("maven-surefire-plugin") || block.contains("maven-failsafe-plugin") {
            ranges.push((start, end));
        }
        from = end.max(start + 1);
    }
    ranges
}

/// Groovy/Kotlin source with comments blanked and braces inside strings blanked, so a
/// brace count follows the code's blocks.
fn blank_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            match c {
                '\\' => {
                    out.push(' ');
                    if let Some(next) = chars.next() {
                        out.push_str(&blank(next));
                    }
                }
                c if c == q => {
                    out.push(c);
                    quote = None;
                }
                '{' | '}' => out.push(' '),
                '\n' => {
                    out.push('\n');
                    quote = None;
                }
                c => out.push(c),
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                out.push(' ');
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                    out.push_str(&blank(c));
                }
            }
            ('/', Some('*')) => {
                out.push(' ');
                let mut last = ' ';
                for c in chars.by_ref() {
                    out.push_str(&blank(c));
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            ('"' | '\'', _) => {
                quote = Some(c);
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Byte ranges of Gradle blocks that configure a test task: `test { … }`,
/// `tasks.test { … }`, `tasks.named("test") { … }`, `tasks.withType(Test) { … }`,
/// `tasks.register("it", Test) { … }` (and every block nested in one).
fn gradle_test_ranges(text: &str) -> Vec<(usize, usize)> {
    static LABEL: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let label_is_test = LABEL.get_or_init(|| {
        Regex::new(r#"(^|\.)test(\s*\.\s*configure)?\s*$|\bTest\b|["']test["']"#).expect("label")
    });
    let mut ranges = Vec::new();
    // (start offset, whether this block configures a test task)
    let mut stack: Vec<(usize, bool)> = Vec::new();
    let mut boundary = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => {
                let label = text[boundary..i].trim();
                let test = label_is_test.is_match(label);
                let outer = stack.iter().any(|(_, t)| *t);
                if test && !outer {
                    stack.push((i, true));
                } else {
                    stack.push((i, false));
                }
                boundary = i + 1;
            }
            '}' => {
                if let Some((start, true)) = stack.pop() {
                    ranges.push((start, i));
                }
                boundary = i + 1;
            }
            '\n' | ';' => {
                // A label may continue onto the next line only after `)` or `.`.
                let before = text[boundary..i].trim_end();
                if !(before.ends_with('.') || before.ends_with(',')) {
                    boundary = i + 1;
                }
            }
            _ => {}
        }
    }
    for (start, test) in stack {
        if test {
            ranges.push((start, text.len()));
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weakened(build: Build, old: &str, new: &str) -> Vec<(u32, String)> {
        weakening_lines(build, old, new)
            .into_iter()
            .map(|(line, _, text)| (line, text))
            .collect()
    }

    const POM: &str = "<project>\n<build><plugins>\n<plugin>\n<artifactId>maven-surefire-plugin</artifactId>\n<configuration>\n</configuration>\n</plugin>\n</plugins></build>\n<dependencies><dependency><exclusions><exclusion><exclude>x</exclude></exclusion></exclusions></dependency></dependencies>\n</project>\n";

    #[test]
    fn maven_skip_and_surefire_excludes_are_found_with_lines() {
        let new = POM.replace(
            "<configuration>\n",
            "<configuration>\n<skipTests>true</skipTests>\n<excludes>\n<exclude>**/RateTest.java</exclude>\n</excludes>\n<testFailureIgnore>true</testFailureIgnore>\n",
        );
        assert_eq!(
            weakened(Build::Maven, POM, &new),
            vec![
                (6, "<skipTests>true</skipTests>".to_string()),
                (8, "<exclude>**/RateTest.java</exclude>".to_string()),
                (
                    10,
                    "<testFailureIgnore>true</testFailureIgnore>".to_string()
                ),
            ]
        );
    }

    #[test]
    fn maven_version_bumps_false_values_comments_and_other_excludes_are_not_findings() {
        let new = POM.replace("<project>", "<project><version>1.2.4</version>")
            .replace("<configuration>\n", "<configuration>\n<skipTests>false</skipTests>\n<!-- <skipTests>true</skipTests> -->\n");
        assert!(weakened(Build::Maven, POM, &new).is_empty());
        let new = POM.replace(
            "</project>",
            "<properties><maven.test.skip>true</maven.test.skip></properties>\n</project>",
        );
        assert_eq!(weakened(Build::Maven, POM, &new).len(), 1);
    }

    const GRADLE: &str = "plugins { id 'java' }\ndependencies {\n  implementation('a:b:1.0') { exclude group: 'x' }\n}\ntest {\n  useJUnitPlatform()\n}\n";

    #[test]
    fn gradle_test_excludes_filters_and_disabling_are_found() {
        let new = GRADLE.replace(
            "  useJUnitPlatform()\n",
            "  useJUnitPlatform()\n  exclude '**/RateTest.class'\n  filter { excludeTestsMatching '*Rate*' }\n  ignoreFailures = true\n",
        );
        let found = weakened(Build::Gradle, GRADLE, &new);
        assert_eq!(
            found.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            vec![7, 8, 9],
            "{found:?}"
        );
        let kts = "tasks.named<Test>(\"test\") {\n    useJUnitPlatform()\n}\n";
        let new = kts.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n    enabled = false\n",
        );
        assert_eq!(weakened(Build::Gradle, kts, &new).len(), 1);
        assert_eq!(
            weakened(Build::Gradle, "", "tasks.test.enabled = false\n").len(),
            1
        );
        let new = GRADLE.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n  onlyIf { false }\n",
        );
        assert_eq!(weakened(Build::Gradle, GRADLE, &new).len(), 1);
        let new = GRADLE.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n  ignoreFailures = false\n",
        );
        assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    }

    #[test]
    fn gradle_dependency_bumps_and_dependency_excludes_are_not_findings() {
        let new = GRADLE.replace("a:b:1.0", "a:b:1.1").replace(
            "}\ntest",
            "  implementation('c:d:2') { exclude module: 'y' }\n}\ntest",
        );
        assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
        // A collection's `.filter { }` inside a test block is not the test filter.
        let new = GRADLE.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n  jvmArgs = allJvmArgs.filter { !it.startsWith(\"--add-opens\") }\n",
        );
        assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
        // A comment is not code.
        let new = GRADLE.replace(
            "useJUnitPlatform()\n",
            "useJUnitPlatform()\n  // exclude '**/X'\n",
        );
        assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    }

    #[test]
    fn ini_reads_the_configparser_dialect() {
        let text = "# comment\n[tool:pytest]\nAddOpts = -q\n    --strict-markers\n\n    -p no:cacheprovider\n; more\ntestpaths: tests\n[metadata]\nname = x\n";
        let Node::Table(sections) = ini::parse(text).unwrap() else {
            panic!()
        };
        let Node::Table(pytest) = &sections["tool:pytest"] else {
            panic!()
        };
        assert_eq!(
            pytest["addopts"],
            Node::Leaf("-q\n--strict-markers\n\n-p no:cacheprovider".into())
        );
        assert_eq!(pytest["testpaths"], Node::Leaf("tests".into()));
        assert!(ini::parse("[a]\nx = 1\n[a]\n").is_err());
        assert!(ini::parse("[a]\nx = 1\nX = 2\n").is_err());
        assert!(ini::parse("x = 1\n").is_err());
        assert!(ini::parse("[a]\njust words\n").is_err());
    }

    #[test]
    fn differences_are_named_by_their_most_specific_key() {
        let old = parse(
            b"[tool.pytest.ini_options]\naddopts = \"-q\"\n[[bin]]\nname = \"a\"\n",
            KeyFormat::Toml,
        )
        .unwrap();
        let new = parse(b"[tool.pytest.ini_options]\naddopts = \"-q --deselect x\"\n[[bin]]\nname = \"a\"\ntest = false\n", KeyFormat::Toml).unwrap();
        let mut out = Vec::new();
        for key in ["tool.pytest", "bin.test"] {
            let key = KeyPath::try_from(key.to_string()).unwrap();
            let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
            old.select(key.segments(), String::new(), &mut a);
            new.select(key.segments(), String::new(), &mut b);
            let labels: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
            for l in labels {
                diff(a.get(&l).copied(), b.get(&l).copied(), &l, &mut out);
            }
        }
        assert_eq!(out, vec!["tool.pytest.ini_options.addopts", "bin[a].test"]);
    }
}
