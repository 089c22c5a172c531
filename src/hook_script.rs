//! The hook script git-guard installs: the embedded template, filled in, and the
//! marker that tells our hook files from anyone else's.

use std::path::Path;

/// The hook script template; `@HOOK@` and `@GUARD@` are filled in at install time.
pub const TEMPLATE: &str = include_str!("../hooks/hook.sh");

/// The line that marks a hook file as ours.
pub const MARKER: &str = "# git-guard-hook:";

/// The hooks git-guard installs.
pub const HOOKS: [&str; 3] = ["pre-commit", "post-commit", "pre-push"];

/// The suffix a foreign hook is kept under while ours runs it.
pub const CHAINED_SUFFIX: &str = ".guard-chained";

/// The script for one hook, calling the binary at `guard` (or `git-guard` on PATH).
pub fn script(hook: &str, guard: &Path) -> String {
    TEMPLATE
        .replace("@HOOK@", hook)
        .replace("@GUARD@", &shell_quote(&guard.to_string_lossy()))
}

/// Whether the file content is a hook git-guard wrote.
pub fn is_ours(content: &[u8]) -> bool {
    let head = &content[..content.len().min(512)];
    head.windows(MARKER.len()).any(|w| w == MARKER.as_bytes())
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_is_marked_and_quotes_the_binary_path() {
        let s = script("pre-commit", Path::new("/opt/it's here/git-guard"));
        assert!(is_ours(s.as_bytes()));
        assert!(s.starts_with("#!/bin/sh\n"));
        assert!(s.contains("hook=pre-commit\n"));
        assert!(s.contains(r"guard='/opt/it'\''s here/git-guard'"));
        assert!(!s.contains("@HOOK@") && !s.contains("@GUARD@"));
    }

    #[test]
    fn foreign_hooks_are_not_ours() {
        assert!(!is_ours(b"#!/bin/sh\necho lint\n"));
        assert!(!is_ours(&[0x7f, b'E', b'L', b'F', 0, 0]));
    }
}
