//! Weakened Maven, Gradle and MSBuild builds: lines a change adds that skip the tests,
//! ignore their failures or exclude some of them, and MSBuild test projects that run on
//! fewer target frameworks, as `runner-config-weakened` findings.

use std::collections::BTreeMap;

use regex::Regex;

use super::msbuild;
use crate::changes::{Blobs, Change};
use crate::finding::{Finding, FindingKind};

/// Which build file a path is, for [`build_findings`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Build {
    /// `pom.xml`.
    Maven,
    /// `.mvn/maven.config`: command-line options for every Maven run.
    MavenConfig,
    /// `build.gradle`, `build.gradle.kts`.
    Gradle,
    /// `*.csproj`, `*.fsproj`, `*.vbproj` (only test projects are judged).
    DotNet,
}

impl Build {
    fn of_path(path: &[u8]) -> Option<Build> {
        let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
        match name {
            b"pom.xml" => Some(Build::Maven),
            b"build.gradle" | b"build.gradle.kts" => Some(Build::Gradle),
            b"maven.config" if path.ends_with(b".mvn/maven.config") => Some(Build::MavenConfig),
            _ if msbuild::is_project_path(path) => Some(Build::DotNet),
            _ => None,
        }
    }

    /// What a finding says the file is: "the build", or "the test project".
    fn subject(self) -> &'static str {
        match self {
            Build::DotNet => "the test project",
            _ => "the build",
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
    static MSBUILD: OnceLock<Vec<BuildRule>> = OnceLock::new();
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
        // Only test projects are read (`build_findings`), so every line of one counts.
        // Documented switches that stop tests running or failing: `dotnet test` runs
        // only projects whose `IsTestProject` is true; `VSTestTestCaseFilter` is what
        // `dotnet test --filter` sets; `TestingPlatformCommandLineArguments` is passed
        // to every Microsoft.Testing.Platform run; `<Compile Remove>` of a file named as
        // tests takes it out of the build, like a surefire `<exclude>` (other removals,
        // such as a generated `TestMessages.Designer.cs` linked twice, are not).
        Build::DotNet => MSBUILD.get_or_init(|| {
            vec![
                rule(
                    r"(?i)<IsTestProject\b[^>]*>\s*false\s*<",
                    false,
                    "sets `IsTestProject` to false (`dotnet test` skips it)",
                ),
                rule(
                    r"(?i)<VSTestTestCaseFilter\b[^>]*>\s*[^<\s]",
                    false,
                    "filters the tests that run",
                ),
                rule(
                    r"(?i)<TestingPlatformCommandLineArguments\b[^>]*>[^<]*--(treenode-)?filter",
                    false,
                    "filters the tests that run",
                ),
                rule(
                    r"(?i)<TestingPlatformCommandLineArguments\b[^>]*>[^<]*--ignore-exit-code",
                    false,
                    "ignores test run exit codes",
                ),
                rule(
                    r#"(?i:<Compile\b[^>]*\bRemove\s*=\s*")[^"]*(Tests?|Specs?)\.(?i:cs|fs|vb)\b"#,
                    false,
                    "removes test files from its build",
                ),
            ]
        }),
    }
}

/// `runner-config-weakened` findings (not yet marked blocking) for every Maven, Gradle
/// or MSBuild test project file a change adds such a line to, and every MSBuild test
/// project a change makes run on fewer target frameworks.
///
/// A project file is a test project when either side is one (`msbuild::is_test_project`),
/// so dropping the test package in the same change does not hide the rest of it.
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
        let old_path = change.old_path.as_deref().unwrap_or(new_path);
        let hits = file_hits(build, old_path, new_path, &old, &new);
        for (line, what, text) in hits {
            findings.push(Finding {
                kind: FindingKind::RunnerConfigWeakened,
                path: new_path.to_vec(),
                line: Some(line),
                detail: format!("{} {what}: `{text}`", build.subject()),
                blocking: false,
                test: None,
            });
        }
    }
    findings
}

/// Every weakening `new` makes to one build file (line, what, text), in line order;
/// nothing for an MSBuild project that is not a test project on either side.
pub(super) fn file_hits(
    build: Build,
    old_path: &[u8],
    new_path: &[u8],
    old: &str,
    new: &str,
) -> Vec<(u32, String, String)> {
    let mut hits: Vec<(u32, String, String)> = Vec::new();
    if build == Build::DotNet {
        let (old_xml, new_xml) = (blank_xml_comments(old), blank_xml_comments(new));
        if !msbuild::is_test_project(old_path, &old_xml)
            && !msbuild::is_test_project(new_path, &new_xml)
        {
            return hits;
        }
        if let Some(n) = msbuild::narrowed(&old_xml, &new_xml) {
            hits.push((n.line, n.what, n.text));
        }
    }
    hits.extend(
        weakening_lines(build, old, new)
            .into_iter()
            .map(|(line, what, text)| (line, what.to_string(), text)),
    );
    hits.sort_by_key(|(line, _, _)| *line);
    hits
}

/// A hit: the rule's description and the normalised line text, at a 1-based line.
type Hit = (u32, &'static str, String);

/// The hits in `new` that `old` does not already have (compared as a multiset of
/// normalised lines, so moving or re-indenting a line adds nothing).
pub(super) fn weakening_lines(build: Build, old: &str, new: &str) -> Vec<Hit> {
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
        Build::Maven | Build::DotNet => blank_xml_comments(text),
        Build::MavenConfig => text.to_string(),
        Build::Gradle => blank_code(text),
    };
    let in_test = match build {
        Build::Maven => surefire_ranges(&blanked),
        Build::MavenConfig | Build::DotNet => vec![(0, blanked.len())],
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
