//! `git guard agent-hook <agent>`: answers a coding agent's pre-edit hook.

use std::io::{Read, Write};

use crate::agent::{self, PAYLOAD_HINT};
use crate::exit::{Outcome, hinted};
use crate::render;

/// Claude Code: reads the `PreToolUse` payload on stdin, writes the decision.
pub fn claude_code(out: &mut dyn Write) -> anyhow::Result<Outcome> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| hinted(format!("cannot read the hook payload: {e}"), PAYLOAD_HINT))?;
    let decision = agent::judge_claude_code(&input)?;
    render::claude_code_decision(out, &decision)?;
    Ok(Outcome::Allowed)
}
