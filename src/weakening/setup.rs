//! Checks of a test's own setup: an error check on a standard-library call that
//! prepares a temporary directory or the environment (`require.NoError(t,
//! os.Chdir(t.TempDir()))`, `root, err := os.MkdirTemp("", "x")` then `assert.Nil(t,
//! err)`).
//! They check the machine, not the code under test: a setup rewritten (`t.TempDir()`,
//! which fails the test itself) drops them without testing less.

/// Go standard-library calls that only prepare a test's files, directories or
/// environment and fail only for reasons of the machine (a temporary directory, the
/// working directory, the environment; `MkdirAll` and `RemoveAll` succeed whatever
/// exists). Calls that fail on what exists are left out: `os.Remove(out)`,
/// `os.Chdir(dir)`, `os.WriteFile(dir/x)` or `os.ReadFile(out)` check what the code
/// under test made.
const GO_SETUP: &[&str] = &[
    "os.Getwd(",
    "os.MkdirAll(",
    "os.MkdirTemp(",
    "os.CreateTemp(",
    "os.RemoveAll(",
    "os.Setenv(",
    "os.Unsetenv(",
    "os.Chdir(t.TempDir())",
    "ioutil.TempDir(",
    "ioutil.TempFile(",
    "filepath.Abs(",
];

/// Whether the Go check `key` (canonical) only says that a setup call succeeded: its
/// error is a [`GO_SETUP`] call's, called in the check (`assert.NoError(t,
/// os.Setenv(k, v))`, `if err := os.MkdirAll(d, 0o755); err != nil {`) or assigned last before it
/// in `before` (the test's text up to the check).
pub(super) fn go_setup_error(key: &str, before: &str) -> bool {
    let Some(arg) = ["assert.NoError(", "assert.Nil("]
        .iter()
        .find_map(|p| key.strip_prefix(p))
        .and_then(|rest| rest.split_once(',').map(|(_, a)| a))
        .and_then(|a| a.strip_suffix(')'))
    else {
        return false;
    };
    let setup = |call: &str| GO_SETUP.iter().any(|s| call.starts_with(s));
    // `err:=os.MkdirAll(d,0o755);err`: the call in the check's own `if`.
    let call = arg
        .split_once(":=")
        .map_or(arg, |(_, rest)| rest.split(';').next().unwrap_or(rest));
    if setup(call) {
        return true;
    }
    let name = arg;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return false;
    }
    // The last line before the check that assigns the name (`x, err := f()`,
    // `err = f()`).
    before
        .lines()
        .rev()
        .find_map(|line| {
            let (targets, value) = line
                .split_once(":=")
                .or_else(|| line.split_once('=').filter(|(_, v)| !v.starts_with('=')))?;
            targets
                .split(',')
                .any(|t| t.trim().trim_start_matches("var ").trim() == name)
                .then(|| setup(value.trim()))
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::go_setup_error;

    #[test]
    fn an_error_check_of_a_setup_call_is_setup() {
        assert!(go_setup_error("assert.Nil(r,os.Chdir(t.TempDir()))", ""));
        assert!(go_setup_error(
            "assert.NoError(t,err:=os.MkdirAll(dir,0o755);err)",
            ""
        ));
        assert!(go_setup_error(
            "assert.NoError(t,err)",
            "\tdir, err := os.MkdirTemp(\"\", \"x\")\n"
        ));
        assert!(go_setup_error(
            "assert.Nil(r,err)",
            "\tcurDir, err := os.Getwd()\n"
        ));
    }

    #[test]
    fn an_error_check_of_the_code_under_test_is_not() {
        assert!(!go_setup_error("assert.NoError(t,cmd.Run(ctx,args))", ""));
        assert!(!go_setup_error(
            "assert.NoError(t,err)",
            "\tdir, err := os.MkdirTemp(\"\", \"x\")\n\terr = cmd.Run(ctx, args)\n"
        ));
        assert!(!go_setup_error(
            "assert.NoError(t,err)",
            "\tdata, err := os.ReadFile(out)\n"
        ));
        assert!(!go_setup_error("assert.Equal(t,os.Getwd(),dir)", ""));
        // What the code under test made: removing it, entering it, writing into it.
        assert!(!go_setup_error("assert.NoError(t,os.Remove(out))", ""));
        assert!(!go_setup_error("assert.NoError(t,os.Chdir(dir))", ""));
        assert!(!go_setup_error(
            "assert.NoError(t,os.WriteFile(filepath.Join(dir,\"x\"),b,0o644))",
            ""
        ));
    }
}
