//! A small JUnit XML reader: every `<testcase>` of one report, with its id and outcome.
//!
//! JUnit XML has no single schema; each tool writes its own dialect. What is read, and
//! all that is read, is what they share:
//!
//! - the root is `<testsuites>` (pytest, jest-junit, gotestsum, nextest) or a single
//!   `<testsuite>` (Surefire's and Gradle's `TEST-*.xml`); any other root is refused;
//! - `<testcase>` elements at any depth under nested `<testsuite>` elements;
//! - of a `<testcase>`, the attributes `name` (required) and `classname` (when absent,
//!   the innermost enclosing `<testsuite>`'s `name`);
//! - its direct children `<error>`, `<failure>` and `<skipped>` give its outcome, in that
//!   order of precedence; without any of them it passed.
//!
//! Everything else — properties, `system-out`, timestamps and times in whatever format,
//! counts in attributes (which the tools do not always keep consistent), flaky and rerun
//! children, namespaces — is ignored. A file that is not well-formed XML, or ends before
//! its elements are closed, is an error naming the file, line and column.

use std::path::Path;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use super::{Status, TestCase, TestId};
use crate::exit::hinted;

const MALFORMED_HINT: &str = "the file is not complete JUnit XML: an interrupted test run, a full \
     disk or an incomplete artifact download leave such files; produce the report again (a report \
     that cannot be read never counts as a pass)";

const NOT_JUNIT_HINT: &str = "point the pattern at the JUnit XML files the test runner writes: \
     pytest --junitxml, jest-junit, gotestsum --junitfile, nextest's [profile.<name>.junit], \
     Surefire's and Gradle's TEST-*.xml";

/// What an open element is, for the elements that matter.
enum Open {
    /// A `<testsuite>` and its name.
    Suite(String),
    /// A `<testcase>`: its index in the output.
    Case(usize),
    /// Anything else, by name (for the message when the file ends inside it).
    Other,
}

/// An open element and the byte offset where it started.
struct Frame {
    open: Open,
    name: String,
    at: u64,
}

/// Parses one report. `path` only names the file in errors.
///
/// # Errors
///
/// With a hint: not well-formed XML, a file that ends inside an element, an empty file,
/// a root other than `<testsuites>`/`<testsuite>`, a `<testcase>` without `name`.
pub fn parse(path: &Path, text: &str) -> anyhow::Result<Vec<TestCase>> {
    let mut reader = Reader::from_str(text);
    let mut cases: Vec<TestCase> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut root_seen = false;
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            let (line, col) = line_col(text, reader.error_position());
            hinted(
                format!(
                    "{}:{line}:{col}: malformed test report: {e}",
                    path.display()
                ),
                MALFORMED_HINT,
            )
        })?;
        let (element, empty) = match event {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = element.local_name().as_ref().to_owned();
        if !root_seen {
            root_seen = true;
            if name != "testsuites" && name != "testsuite" {
                let (line, col) = line_col(text, at);
                return Err(hinted(
                    format!(
                        "{}:{line}:{col}: not a JUnit XML report: the root element is <{name}>, \
                         not <testsuites> or <testsuite>",
                        path.display()
                    ),
                    NOT_JUNIT_HINT,
                ));
            }
        }
        let open = match name.as_str() {
            "testsuite" => {
                Open::Suite(attribute(&element, "name", path, text, at)?.unwrap_or_default())
            }
            "testcase" => {
                let Some(test) = attribute(&element, "name", path, text, at)? else {
                    let (line, col) = line_col(text, at);
                    return Err(hinted(
                        format!(
                            "{}:{line}:{col}: malformed test report: a <testcase> without a name",
                            path.display()
                        ),
                        NOT_JUNIT_HINT,
                    ));
                };
                let classname = match attribute(&element, "classname", path, text, at)? {
                    Some(classname) => classname,
                    None => innermost_suite(&stack),
                };
                cases.push(TestCase {
                    id: TestId::new(classname, test),
                    status: Status::Passed,
                });
                Open::Case(cases.len() - 1)
            }
            outcome @ ("error" | "failure" | "skipped") => {
                if let Some(Frame {
                    open: Open::Case(index),
                    ..
                }) = stack.last()
                {
                    let status = match outcome {
                        "error" => Status::Error,
                        "failure" => Status::Failed,
                        _ => Status::Skipped,
                    };
                    let case = &mut cases[*index];
                    case.status = case.status.max(status);
                }
                Open::Other
            }
            _ => Open::Other,
        };
        if !empty {
            stack.push(Frame { open, name, at });
        }
    }
    if let Some(frame) = stack.last() {
        let (line, col) = line_col(text, text.len() as u64);
        let (open_line, _) = line_col(text, frame.at);
        return Err(hinted(
            format!(
                "{}:{line}:{col}: truncated test report: the file ends before <{}> (line {open_line}) is closed",
                path.display(),
                frame.name
            ),
            MALFORMED_HINT,
        ));
    }
    if !root_seen {
        return Err(hinted(
            format!(
                "{}: malformed test report: the file holds no XML element{}",
                path.display(),
                if text.trim().is_empty() {
                    " (it is empty)"
                } else {
                    ""
                }
            ),
            MALFORMED_HINT,
        ));
    }
    Ok(cases)
}

/// The innermost enclosing `<testsuite>`'s name, or "" outside any.
fn innermost_suite(stack: &[Frame]) -> String {
    stack
        .iter()
        .rev()
        .find_map(|frame| match &frame.open {
            Open::Suite(name) => Some(name.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The value of attribute `key` of `element`, entities resolved, or `None` when absent.
fn attribute(
    element: &BytesStart<'_>,
    key: &str,
    path: &Path,
    text: &str,
    at: u64,
) -> anyhow::Result<Option<String>> {
    let bad = |what: String| {
        let (line, col) = line_col(text, at);
        hinted(
            format!(
                "{}:{line}:{col}: malformed test report: {what}",
                path.display()
            ),
            MALFORMED_HINT,
        )
    };
    for attr in element.attributes() {
        let attr = attr.map_err(|e| bad(e.to_string()))?;
        if attr.key.as_ref() == key {
            let value = attr
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|e| bad(e.to_string()))?;
            return Ok(Some(value.into_owned()));
        }
    }
    Ok(None)
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: u64) -> (usize, usize) {
    let bytes = text.as_bytes();
    let offset = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    let before = &bytes[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, col)
}
