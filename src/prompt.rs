//! The only code that asks a human: a reason, typed on the terminal (and the same
//! length rule for a reason given on the command line).
//!
//! git gives hooks no stdin, so the prompt opens `/dev/tty` itself. When there is no
//! controlling terminal (an agent, CI, a GUI) the open fails and the caller blocks.

use std::fs::{File, OpenOptions};
use std::io::Write;

use dialoguer::Input;
use dialoguer::console::Term;
use dialoguer::theme::ColorfulTheme;

use crate::exit::hinted;
use crate::notes::reason_length;
use crate::ui::Ui;

/// The controlling terminal, opened read+write; `None` when there is none.
pub fn open_terminal() -> Option<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()
}

/// What the human answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A reason at least `min_chars` long.
    Reason(String),
    /// Empty input, Ctrl-C or a terminal error: the caller aborts.
    Aborted,
}

/// Shows `intro` on the terminal and asks for a reason of at least `min_chars`
/// characters, asking again while it is shorter. Empty input aborts.
pub fn ask_reason(ui: &Ui, tty: File, intro: &str, prompt: &str, min_chars: usize) -> Answer {
    let Ok(reader) = tty.try_clone() else {
        return Answer::Aborted;
    };
    let mut writer = match tty.try_clone() {
        Ok(w) => w,
        Err(_) => return Answer::Aborted,
    };
    if writer.write_all(intro.as_bytes()).is_err() {
        return Answer::Aborted;
    }
    let term = Term::read_write_pair(reader, tty);
    // The colourful theme is a personal choice (settings.rs) and never beats NO_COLOR.
    let colourful = ui.colourful_prompt();
    let colorful_theme = ColorfulTheme::default();
    let input = if colourful {
        Input::<String>::with_theme(&colorful_theme)
    } else {
        Input::<String>::new()
    };
    let answer = input
        .with_prompt(prompt)
        .allow_empty(true)
        .validate_with(|input: &String| -> Result<(), String> {
            let length = reason_length(input);
            if length == 0 || length >= min_chars {
                Ok(())
            } else {
                Err(crate::render::reason_too_short(length, min_chars))
            }
        })
        .interact_text_on(&term);
    match answer {
        Ok(text) if reason_length(&text) >= min_chars.max(1) => Answer::Reason(text.trim().into()),
        _ => {
            let _ = writeln!(writer);
            Answer::Aborted
        }
    }
}

/// Refuses a reason shorter than the policy's minimum (exit 2, with an example).
pub fn check_reason(reason: &str, min: usize) -> anyhow::Result<()> {
    let length = reason_length(reason);
    if length < min || length == 0 {
        return Err(hinted(
            format!(
                "the reason is too short: {}",
                crate::render::reason_too_short(length, min)
            ),
            "say in one sentence why the test itself must change, e.g. \
             --reason \"Rounding rule changed by finance ticket FIN-12\"",
        ));
    }
    Ok(())
}
