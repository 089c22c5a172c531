//! Golden files and snapshots told to rewrite themselves. A test that compares its
//! output with a recorded file passes whatever the output once the switch that
//! records the output instead of comparing it is on: Go's `flag.Bool("update", false,
//! …)` → `true` (or `*update = true`, `flag.Set("update", "true")`), and from the
//! test's own code `INSTA_UPDATE=always`, `INSTA_FORCE_PASS`, `UPDATE_EXPECT=1`,
//! `TRYBUILD=overwrite`, `UPDATE_GOLDEN=1`, `UPDATE_SNAPSHOTS=1`, or such a variable
//! read with a default that turns it on. Nobody commits the switch on: it is for one local run, then the recorded files are reviewed.

use std::sync::OnceLock;

use regex::Regex;

use super::model::{Model, Role};
use super::{File, finding};
use crate::finding::{Finding, FindingKind};

/// A flag or variable named for recording output (`update`, `update-golden`,
/// `regen`, `record`, `bless`, `overwrite`).
const RECORDING: &str = r"(?i)^(?:[\w.-]*[._-])?(?:update|golden|regen(?:erate)?|record|rewrite|overwrite|bless)(?:[._-][\w.-]*)?$";

/// Words without which no switch can be written (the file is read only when one is in it).
const MARKERS: &[&str] = &[
    "flag.Bool",
    "flag.Set",
    "INSTA_",
    "UPDATE",
    "TRYBUILD",
    "GOLDEN",
    "REGEN",
    "BLESS",
];

struct Patterns {
    recording: Regex,
    /// Go: `name := flag.Bool("update", true, …)` (the variable in 1, the flag in 2, the default in 3).
    flag: Regex,
    /// Go: `flag.Set("update", "true")`.
    flag_set: Regex,
    /// Go: `*update = true`.
    deref: Regex,
    /// An environment variable set from the test, or read with a default
    /// (`environ.get("UPDATE_GOLDEN", "1")`, `ENV.fetch("UPDATE_SNAPSHOTS", "1")`): the
    /// name in 1, the value in 2.
    env: Regex,
}

fn patterns() -> &'static Patterns {
    static ONCE: OnceLock<Patterns> = OnceLock::new();
    ONCE.get_or_init(|| Patterns {
        recording: Regex::new(RECORDING).expect("recording"),
        flag: Regex::new(r#"(?:\b(\w+)[ \t]*(?::=|=)[ \t]*)?\bflag\.Bool\([ \t]*"([^"]*)"[ \t]*,[ \t]*(true|false)\b"#)
            .expect("flag"),
        flag_set: Regex::new(r#"\bflag\.Set\([ \t]*"([^"]*)"[ \t]*,[ \t]*"(?i:true|1)"[ \t]*\)"#)
            .expect("flag_set"),
        deref: Regex::new(r"\*(\w+)[ \t]*=[ \t]*true\b").expect("deref"),
        // (In `(?x)` a space in a class is ignored too: `[\ \t]`.)
        env: Regex::new(
            r#"(?x)
            (?: \b(?:Setenv|set_var|setenv|putenv|setdefault|get|getenv|fetch) [\ \t]*\( [\ \t]* (?:[\w.]+[\ \t]*,[\ \t]*)?
              | \benviron[\ \t]*\[ | \bprocess\.env(?:\.|\[) | \bENV[\ \t]*\[ | \bEnvironment\.SetEnvironmentVariable\( )
            [\ \t]*["']?
            ( INSTA_UPDATE | INSTA_FORCE_PASS | UPDATE_EXPECT | TRYBUILD | SNAPSHOT_UPDATE
            | UPDATE_SNAPSHOTS? | UPDATE_GOLDENS? | GOLDEN_UPDATE | REGENERATE_GOLDENS?
            | \w*_REGEN | BLESS | UPDATE_EXPECTED )
            ["']? [\ \t]* (?:\]|\)|,)? [\ \t]* (?:=|,)? [\ \t]* ["']([^"'()=,]*)["']"#,
        )
        .expect("env"),
    })
}

/// Whether an environment variable's value turns recording on (`INSTA_UPDATE=new`
/// only writes `.snap.new` files beside, and the check still fails).
fn records(name: &str, value: &str) -> bool {
    let value = value.trim().to_ascii_lowercase();
    match name {
        "INSTA_UPDATE" => matches!(value.as_str(), "always" | "force"),
        "TRYBUILD" => value == "overwrite",
        _ => !matches!(value.as_str(), "" | "0" | "false" | "no" | "off" | "never"),
    }
}

const REWRITTEN: &str = "the recorded output is rewritten on every run";

/// One switch turned on: what it is (to compare old with new) and its line.
struct Switch {
    key: String,
    line: usize,
    why: &'static str,
}

fn switches(model: &Model) -> Vec<Switch> {
    let raw = model.src.raw;
    if !MARKERS
        .iter()
        .any(|m| memchr::memmem::find(raw, m.as_bytes()).is_some())
    {
        return Vec::new();
    }
    let p = patterns();
    let mut out = Vec::new();
    // Go flags named for recording, by variable: their default and where it is set.
    let mut recording_vars: Vec<String> = Vec::new();
    for line in 0..model.src.line_count() {
        let (start, end) = (model.src.line_start(line), model.src.line_end(line));
        // (Only lines with a marker are read; a comment or a blank line never is.)
        let bytes = &raw[start..end.max(start)];
        if !MARKERS
            .iter()
            .any(|m| memchr::memmem::find(bytes, m.as_bytes()).is_some())
            || model.src.line_text(line).trim().is_empty()
        {
            continue;
        }
        let text = model.src.text(start..end);
        for caps in p.flag.captures_iter(&text) {
            let name = &caps[2];
            if !p.recording.is_match(name) {
                continue;
            }
            if let Some(var) = caps.get(1) {
                recording_vars.push(var.as_str().to_string());
            }
            if &caps[3] == "true" {
                out.push(Switch {
                    key: format!("flag {name}"),
                    line,
                    why: REWRITTEN,
                });
            }
        }
        for caps in p.flag_set.captures_iter(&text) {
            if p.recording.is_match(&caps[1]) {
                out.push(Switch {
                    key: format!("flag {}", &caps[1]),
                    line,
                    why: REWRITTEN,
                });
            }
        }
        for caps in p.env.captures_iter(&text) {
            if records(&caps[1], &caps[2]) {
                out.push(Switch {
                    key: format!("env {}", &caps[1]),
                    line,
                    why: if &caps[1] == "INSTA_FORCE_PASS" {
                        "a snapshot that differs passes"
                    } else {
                        REWRITTEN
                    },
                });
            }
        }
    }
    if !recording_vars.is_empty() {
        for line in 0..model.src.line_count() {
            let code = model.src.line_text(line);
            for caps in p.deref.captures_iter(code) {
                if recording_vars.iter().any(|v| v == &caps[1]) {
                    out.push(Switch {
                        key: format!("var {}", &caps[1]),
                        line,
                        why: REWRITTEN,
                    });
                }
            }
        }
    }
    out
}

/// Findings for each recording switch on in the new content that was not on in the old.
pub(super) fn recording_switched_on(file: &File, old: &Model, new: &Model) -> Vec<Finding> {
    let now = switches(new);
    if now.is_empty() {
        return Vec::new();
    }
    let was = switches(old);
    let mut out = Vec::new();
    for s in now {
        if was.iter().any(|w| w.key == s.key)
            || out
                .iter()
                .any(|f: &Finding| f.line == Some(s.line as u32 + 1))
        {
            continue;
        }
        let test = new
            .unit_at(new.src.line_start(s.line))
            .map(|u| &new.units[u])
            .filter(|u| u.role == Role::Test)
            .map(|u| u.name.as_str());
        out.push(finding(
            file.path,
            FindingKind::AssertionLoosened,
            Some(s.line),
            format!(
                "`{}`: {}, so comparing with it always passes",
                new.src.shown(s.line),
                s.why
            ),
            test,
        ));
    }
    out
}
