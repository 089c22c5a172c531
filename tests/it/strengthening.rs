//! `[protect] additions = "allow"` (the default): a change that only adds tests and
//! checks passes without a reason, even under protected paths, and reports say so.

use crate::common::{TestRepo, WEAKENED};

const ADDED: &str = "def test_rate():\n    assert RATE == 0.075\n\n\ndef test_rate_is_positive():\n    assert RATE > 0\n";

#[test]
fn a_new_test_with_a_check_passes_without_a_reason_and_ci_lists_it() {
    let repo = TestRepo::with_origin();
    repo.guard(&["install"]).expect(0);
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", ADDED);
    repo.git(&["add", "-A"]);
    repo.commit("one more check", &[]).expect(0);
    let run = repo.guard(&["ci", "--no-fetch", "--base", "main"]);
    run.expect(0);
    assert!(
        run.stdout
            .contains("only adds tests and checks: tests/test_invoice.py"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_new_test_that_cannot_fail_or_a_weakening_beside_it_is_no_strengthening() {
    let repo = TestRepo::installed();
    repo.write(
        "tests/test_other.py",
        "def test_nothing():\n    assert 1 == 1\n",
    );
    repo.git(&["add", "-A"]);
    repo.commit("a test that cannot fail", &[]).expect(1);
    repo.git(&["reset", "-q", "--hard"]);
    repo.write(
        "tests/test_invoice.py",
        format!("{WEAKENED}\n\ndef test_new():\n    assert RATE > 0\n"),
    );
    repo.git(&["add", "-A"]);
    repo.commit("a new test and a loosened one", &[]).expect(1);
}

#[test]
fn additions_ask_keeps_them_protected() {
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[protect]\nadditions = \"ask\"\n");
    repo.commit_all("policy");
    repo.guard(&["install"]).expect(0);
    repo.write("tests/test_invoice.py", ADDED);
    repo.git(&["add", "-A"]);
    let run = repo.commit("one more check", &[]);
    run.expect(1);
    assert!(run.stderr.contains("commit blocked"), "{}", run.stderr);
}
