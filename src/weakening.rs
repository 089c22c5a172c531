//! Weakening findings: what a change did to the tests, beyond which paths it touched.
//!
//! Today this reports what the paths alone reveal (`protected-moved`); the content
//! analysis of test code per language builds on the same [`Finding`] type.

use serde::Serialize;

use crate::changes::{Change, Status};
use crate::policy::Policy;

/// A file moved from a protected path to an unprotected one.
pub const PROTECTED_MOVED: &str = "protected-moved";

/// One thing a change did that weakens the tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The finding's name, as listed in `[weakening].block`.
    pub kind: &'static str,
    /// The file it is in (the new path when the file still exists).
    #[serde(serialize_with = "crate::render::serialize_path")]
    pub path: Vec<u8>,
    /// The 1-based line in the new (or, for removals, old) content, when it has one.
    pub line: Option<u32>,
    /// A short human description.
    pub detail: String,
    /// Whether the policy makes this finding need an override.
    pub blocking: bool,
}

/// Findings that follow from the change list alone.
pub fn path_findings(changes: &[Change], policy: &Policy) -> Vec<Finding> {
    changes
        .iter()
        .filter(|c| c.status == Status::Renamed)
        .filter_map(|c| {
            let old = c.old_path.as_deref()?;
            let new = c.new_path.as_deref()?;
            let from = policy.protecting_pattern(old)?;
            if policy.is_protected(new) {
                return None;
            }
            Some(Finding {
                kind: PROTECTED_MOVED,
                path: new.to_vec(),
                line: None,
                detail: format!(
                    "moved out of protected `{}` (pattern `{from}`)",
                    String::from_utf8_lossy(old)
                ),
                blocking: false,
            })
        })
        .collect()
}
