//! MSBuild test projects (`*.csproj`, `*.fsproj`, `*.vbproj`): which project files hold
//! tests, and whether a change makes a test project run on fewer target frameworks.
//!
//! A test runs once per target framework of its project (`dotnet test` builds and runs
//! each), so a list that shrinks (`net6.0;net7.0;net8.0` → `net8.0`) stops the tests on
//! the dropped frameworks while every test file stays as it was. A bump of the same
//! count (`net6.0;net7.0` → `net8.0;net9.0`) still runs every test as often, and is not
//! a finding.
//!
//! The file is read as MSBuild evaluates its own properties, as far as one file allows:
//! assignments in document order, `$(Name)` expanded from earlier assignments in the
//! file (`$(TargetFrameworks);net481` appends), `TargetFramework` winning over
//! `TargetFrameworks` when both are set (the SDK then builds the single one). A
//! condition (`Condition="…"` on the property, its `<PropertyGroup>`, or a
//! `<Choose>`/`<When>`) is not evaluated: the frameworks are compared across all
//! conditions together, with no condition holding, and with each condition of the new
//! file (by its text, case and white space aside) holding alone; so a framework dropped
//! everywhere, dropped from a conditional list, or kept only under a new condition
//! (tests on `net472` now only on Windows) is found, and a condition reworded around the
//! same lists is not. A value taken from outside the file (a
//! property of `Directory.Build.props`, a property function) cannot be counted: a new
//! side that holds one the old side did not is not judged.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;
use regex::Regex;

/// Whether a path names an MSBuild project file.
pub(super) fn is_project_path(path: &[u8]) -> bool {
    let name = file_name(path).to_ascii_lowercase();
    [b".csproj".as_slice(), b".fsproj", b".vbproj"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

fn file_name(path: &[u8]) -> &[u8] {
    path.rsplit(|b| *b == b'/').next().unwrap_or(path)
}

/// Whether a project file (`text` with its XML comments blanked) is a test project, one
/// `dotnet test` runs: it uses the MSTest SDK, sets `<IsTestProject>true`, or references
/// a package that makes it runnable as tests: the test SDK (`Microsoft.NET.Test.Sdk`,
/// which sets `IsTestProject`), an adapter or runner (`xunit.runner.visualstudio`,
/// `NUnit3TestAdapter`, `MSTest.TestAdapter`, `YoloDev.Expecto.TestSdk`), or a package
/// that brings one (`MSTest`, `xunit.v3`, `TUnit`, `NUnitLite`). A bare framework
/// (`xunit`, `NUnit`, `MSTest.TestFramework`) is not enough: helper libraries and
/// documentation snippets reference one and hold no tests. Or its name's last dotted
/// part says so (`Foo.Tests`, `Foo.UnitTests`, `Foo.Specs`, `FooTest`; not
/// `Foo.Tests.Benchmarks` or `Foo.TestUtils`): a repository may add the test packages
/// to every test project from a shared `.props`/`.targets` file.
pub(super) fn is_test_project(path: &[u8], text: &str) -> bool {
    static CONTENT: OnceLock<Regex> = OnceLock::new();
    static NAME: OnceLock<Regex> = OnceLock::new();
    let content = CONTENT.get_or_init(|| {
        Regex::new(concat!(
            r#"(?i)\bSdk\s*=\s*"[^"]*\bMSTest\.Sdk\b"#,
            r#"|<Sdk\s+Name\s*=\s*"MSTest\.Sdk""#,
            r#"|<IsTestProject\b[^>]*>\s*true\s*<"#,
            r#"|<PackageReference\b[^>]*\b(?:Include|Update)\s*=\s*"\s*(?:"#,
            r"Microsoft\.NET\.Test\.Sdk|xunit\.runner\.visualstudio|NUnit3TestAdapter",
            r"|MSTest\.TestAdapter|YoloDev\.Expecto\.TestSdk",
            r"|MSTest|xunit\.v3(?:\.mtp-v\d)?|TUnit|NUnitLite",
            r#")\s*""#,
        ))
        .expect("test project pattern")
    });
    let name = NAME.get_or_init(|| {
        Regex::new(r"^(?i:tests?|specs?)$|[a-z0-9](?:Tests?|Specs?)$").expect("test name pattern")
    });
    let file = String::from_utf8_lossy(file_name(path));
    let stem = file.rsplit_once('.').map_or(&*file, |(stem, _)| stem);
    let last = stem.rsplit('.').next().unwrap_or(stem);
    name.is_match(last) || content.is_match(text)
}

/// A test project that runs on fewer target frameworks: the line in the new file, what
/// happened, and that line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Narrowed {
    /// The 1-based line of the `TargetFramework(s)` assignment the change made.
    pub line: u32,
    /// `targets fewer frameworks (net6.0;net7.0;net8.0 → net8.0)`.
    pub what: String,
    /// The assignment's text, whitespace collapsed.
    pub text: String,
}

/// Whether `new` targets fewer frameworks than `old` (both with XML comments blanked):
/// under all conditions together, with none holding, or with one of the new file's
/// holding alone.
/// Nothing when either side is not well-formed XML (the build would fail on it) or the
/// new side declares no framework of its own (they come from elsewhere).
pub(super) fn narrowed(old: &str, new: &str) -> Option<Narrowed> {
    let (old_set, new_set) = (assignments(old)?, assignments(new)?);
    // Frameworks anywhere: under no condition and under each of the side's own.
    let everywhere = |set: &[Assignment]| {
        let mut all: Vec<String> = Vec::new();
        for condition in conditions(set) {
            merge(&mut all, &frameworks(set, condition));
        }
        all
    };
    let (old_all, new_all) = (everywhere(&old_set), everywhere(&new_set));
    // Per condition, only the new side's: a condition that is gone or reworded leaves
    // the old side's frameworks either somewhere in the new file (no narrowing) or
    // nowhere (the comparison of all frameworks finds it).
    let first_fewer = conditions(&new_set).into_iter().find_map(|condition| {
        let (before, after) = (
            frameworks(&old_set, condition),
            frameworks(&new_set, condition),
        );
        fewer(&before, &after).then_some((condition, before, after))
    });
    let what = if fewer(&old_all, &new_all) {
        format!(
            "targets fewer frameworks ({} → {})",
            old_all.join(";"),
            new_all.join(";")
        )
    } else {
        let (condition, before, after) = first_fewer?;
        let when = match condition {
            None => "where no condition holds".to_string(),
            Some(c) => format!("when `{c}`"),
        };
        format!(
            "targets fewer frameworks {when} ({} → {})",
            before.join(";"),
            after.join(";")
        )
    };
    let old_texts: Vec<&str> = old_set
        .iter()
        .filter(|a| a.is_framework())
        .map(|a| a.text.as_str())
        .collect();
    let framework_lines: Vec<&Assignment> = new_set.iter().filter(|a| a.is_framework()).collect();
    let at = framework_lines
        .iter()
        .find(|a| !old_texts.contains(&a.text.as_str()))
        .or(framework_lines.first())?;
    Some(Narrowed {
        line: at.line,
        what,
        text: at.text.clone(),
    })
}

/// No condition, then each distinct condition of `set`, in document order.
fn conditions(set: &[Assignment]) -> Vec<Option<&str>> {
    let mut out: Vec<Option<&str>> = vec![None];
    for a in set {
        if let Some(c) = a.condition.as_deref()
            && !out.iter().any(|o| same(*o, Some(c)))
        {
            out.push(Some(c));
        }
    }
    out
}

/// Whether two conditions are the same text, but for case and white space.
fn same(a: Option<&str>, b: Option<&str>) -> bool {
    let key = |c: &str| {
        c.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    a.map(key) == b.map(key)
}

/// Whether `after` is a countable, smaller set of frameworks than `before`.
fn fewer(before: &[String], after: &[String]) -> bool {
    !after.is_empty()
        && after.len() < before.len()
        && after.iter().all(|f| !opaque(f) || before.contains(f))
}

/// A framework token still holding an expression this file cannot resolve.
fn opaque(token: &str) -> bool {
    token.contains("$(") || token.contains("@(") || token.contains("%(")
}

fn merge(all: &mut Vec<String>, more: &[String]) {
    for f in more {
        if !all.contains(f) {
            all.push(f.clone());
        }
    }
}

/// One property assignment of the file, in document order.
#[derive(Debug)]
struct Assignment {
    /// The property's name, lower-cased (MSBuild names are case-insensitive).
    name: String,
    /// Its value as written (entities resolved, not yet expanded).
    value: String,
    /// The conditions it sits under, white space collapsed, joined with `and` (`None`
    /// when there is none).
    condition: Option<String>,
    /// The 1-based line it starts on.
    line: u32,
    /// Its source text, whitespace collapsed.
    text: String,
}

impl Assignment {
    fn is_framework(&self) -> bool {
        self.name == "targetframework" || self.name == "targetframeworks"
    }
}

/// The frameworks a project builds when `condition` (by its text) holds and no other
/// does: the properties assigned in order, each value expanded from the earlier ones.
fn frameworks(assignments: &[Assignment], condition: Option<&str>) -> Vec<String> {
    let mut properties: BTreeMap<&str, String> = BTreeMap::new();
    for a in assignments {
        if a.condition.is_none() || same(a.condition.as_deref(), condition) {
            let value = expand(&a.value, &properties);
            properties.insert(&a.name, value);
        }
    }
    let single = properties.get("targetframework").map_or("", |v| v.trim());
    let list = if single.is_empty() {
        properties
            .get("targetframeworks")
            .map_or("", String::as_str)
    } else {
        single
    };
    let mut out: Vec<String> = Vec::new();
    for token in list.split(';') {
        let token = token.trim().to_ascii_lowercase();
        if !token.is_empty() && !out.contains(&token) {
            out.push(token);
        }
    }
    out
}

/// `value` with each `$(Name)` the file assigned earlier replaced by its value. The
/// frameworks' own names read as empty before the file sets them (`$(TargetFrameworks);x`
/// appends); any other unknown name is left as written (it comes from elsewhere).
fn expand(value: &str, properties: &BTreeMap<&str, String>) -> String {
    static REFERENCE: OnceLock<Regex> = OnceLock::new();
    let reference = REFERENCE
        .get_or_init(|| Regex::new(r"\$\(\s*([A-Za-z_][\w-]*)\s*\)").expect("property reference"));
    reference
        .replace_all(value, |c: &regex::Captures<'_>| {
            let name = c[1].to_ascii_lowercase();
            match properties.get(name.as_str()) {
                Some(v) => v.clone(),
                None if name == "targetframework" || name == "targetframeworks" => String::new(),
                None => c[0].to_string(),
            }
        })
        .into_owned()
}

/// An open element: its lower-cased name, the condition it adds (already joined with its
/// parents'), and for a property, where it starts and the text read so far.
struct Frame {
    name: String,
    condition: Option<String>,
    property: Option<(usize, String)>,
    /// For a `<Choose>`: the conditions of its `<When>`s so far (an `<Otherwise>` holds
    /// when none of them does).
    whens: Vec<String>,
}

/// Every property assignment of a project file (XML comments blanked), or `None` when it
/// is not well-formed XML. Properties inside a `<Target>` are set when that target runs,
/// not when the project is evaluated, and are not read.
fn assignments(text: &str) -> Option<Vec<Assignment>> {
    // The reader skips a byte-order mark and counts positions after it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut out = Vec::new();
    loop {
        let start = usize::try_from(reader.buffer_position()).ok()?;
        match reader.read_event().ok()? {
            Event::Eof => break,
            Event::Start(e) => {
                let frame = open(&e, &mut stack, start);
                stack.push(frame);
            }
            Event::Empty(e) => {
                let frame = open(&e, &mut stack, start);
                let end = usize::try_from(reader.buffer_position()).ok()?;
                close(frame, end, text, &mut out);
            }
            Event::End(_) => {
                let frame = stack.pop()?;
                let end = usize::try_from(reader.buffer_position()).ok()?;
                close(frame, end, text, &mut out);
            }
            Event::Text(t) => push_text(&mut stack, &t.xml_content(XmlVersion::Implicit1_0)),
            Event::CData(t) => push_text(&mut stack, &t.xml_content(XmlVersion::Implicit1_0)),
            Event::GeneralRef(r) => {
                let name = r.xml_content(XmlVersion::Implicit1_0);
                let resolved = match &*name {
                    "lt" => "<".to_string(),
                    "gt" => ">".to_string(),
                    "amp" => "&".to_string(),
                    "quot" => "\"".to_string(),
                    "apos" => "'".to_string(),
                    _ => match r.resolve_char_ref() {
                        Ok(Some(c)) => c.to_string(),
                        _ => format!("&{name};"),
                    },
                };
                push_text(&mut stack, &resolved);
            }
            _ => {}
        }
    }
    stack.is_empty().then_some(out)
}

fn push_text(stack: &mut [Frame], text: &str) {
    if let Some(Frame {
        property: Some((_, value)),
        ..
    }) = stack.last_mut()
    {
        value.push_str(text);
    }
}

/// The frame for an element opening at byte `start`, under the open `stack`.
fn open(element: &BytesStart<'_>, stack: &mut [Frame], start: usize) -> Frame {
    let name = element.local_name().as_ref().to_ascii_lowercase();
    let own = element.attributes().flatten().find_map(|a| {
        a.key
            .as_ref()
            .eq_ignore_ascii_case("Condition")
            .then(|| a.normalized_value(XmlVersion::Implicit1_0).ok())
            .flatten()
            .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
    });
    let parent = stack.last().map(|f| f.name.clone());
    let own = match (name.as_str(), parent.as_deref()) {
        ("when", Some("choose")) => {
            if let (Some(choose), Some(c)) = (stack.last_mut(), own.as_ref()) {
                choose.whens.push(c.clone());
            }
            own
        }
        ("otherwise", Some("choose")) => stack
            .last()
            .map(|choose| format!("none of ({})", choose.whens.join(", "))),
        _ => own,
    };
    let inherited = stack.last().and_then(|f| f.condition.clone());
    let condition = match (inherited, own) {
        (Some(a), Some(b)) => Some(format!("{a} and {b}")),
        (a, b) => a.or(b),
    };
    let in_target = stack.iter().any(|f| f.name == "target");
    let property =
        (parent.as_deref() == Some("propertygroup") && !in_target).then(|| (start, String::new()));
    Frame {
        name,
        condition,
        property,
        whens: Vec::new(),
    }
}

/// Records a closed property element (ending at byte `end`) as an assignment.
fn close(frame: Frame, end: usize, text: &str, out: &mut Vec<Assignment>) {
    let Some((start, value)) = frame.property else {
        return;
    };
    let source = text.get(start..end).unwrap_or_default();
    out.push(Assignment {
        name: frame.name,
        value,
        condition: frame.condition,
        line: u32::try_from(text[..start].matches('\n').count() + 1).unwrap_or(u32::MAX),
        text: source.split_whitespace().collect::<Vec<_>>().join(" "),
    });
}
