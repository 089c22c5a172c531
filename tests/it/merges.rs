//! Merges judged against git's own automatic merge of their parents (issue 14): an old
//! parent cannot vouch for what the merge brings back, and main's approved history is
//! not re-flagged when it is merged into a branch.

use crate::common::{REASON, Run, TestRepo, WEAKENED};

const STRONG: &str = "def test_rate():\n    assert RATE == 0.075\n";

/// `git commit-tree` of the index with the given parents, then HEAD moved to it: a
/// merge recorded exactly as an agent can write one, no hook involved.
fn record_merge(repo: &TestRepo, parents: &[&str], msg: &str) -> String {
    let tree = repo.git(&["write-tree"]).trim().to_string();
    let mut args = vec!["commit-tree", tree.as_str(), "-m", msg];
    for parent in parents {
        args.extend(["-p", parent]);
    }
    let merge = repo.git(&args).trim().to_string();
    repo.git(&["reset", "-q", "--hard", &merge]);
    merge
}

fn rev(repo: &TestRepo, name: &str) -> String {
    repo.git(&["rev-parse", name]).trim().to_string()
}

fn ci_from(repo: &TestRepo, base: &str) -> Run {
    repo.guard(&["ci", "--base", base, "--no-fetch"])
}

#[test]
fn an_evil_merge_with_an_old_commit_bringing_back_a_weak_test_is_caught() {
    let repo = TestRepo::with_history();
    // The test was weakened once, then put back (both long ago, approved or not).
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("weaken");
    let old = rev(&repo, "HEAD");
    repo.write("tests/test_invoice.py", STRONG);
    repo.commit_all("restore the exact check");
    let base = rev(&repo, "HEAD");
    // A merge whose second parent is that old commit, recording the old weak test: the
    // old rule let the old parent vouch for it ("equal to a parent: unchanged").
    repo.git(&["checkout", &old, "--", "tests/test_invoice.py"]);
    record_merge(&repo, &[&base, &old], "merge old work");
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("tests/test_invoice.py"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("assertion-loosened"), "{}", run.stdout);
    let run = ci_from(&repo, &base);
    run.expect(1);
    assert!(run.stdout.contains("merge old work"), "{}", run.stdout);
}

#[test]
fn a_merge_with_an_old_ancestor_that_drops_tests_is_caught() {
    let repo = TestRepo::new();
    repo.write("src/invoice.py", "RATE = 0.075\n");
    repo.commit_all("root: code only");
    let root = rev(&repo, "HEAD");
    repo.write("tests/test_invoice.py", STRONG);
    repo.commit_all("tests");
    let base = rev(&repo, "HEAD");
    // The merge records the root's tree: tests/ is gone, and the root "vouched" for it.
    repo.git(&["rm", "-q", "-r", "tests"]);
    record_merge(&repo, &[&base, &root], "merge root");
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("D tests/test_invoice.py"),
        "{}",
        run.stdout
    );
    ci_from(&repo, &base).expect(1);
}

#[test]
fn a_merge_with_an_unrelated_empty_root_that_drops_tests_is_caught() {
    let repo = TestRepo::with_history();
    let base = rev(&repo, "HEAD");
    let empty = repo.git(&["mktree"]).trim().to_string();
    let orphan = repo
        .git(&["commit-tree", &empty, "-m", "orphan"])
        .trim()
        .to_string();
    repo.git(&["rm", "-q", "-r", "tests"]);
    record_merge(&repo, &[&base, &orphan], "merge orphan");
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("D tests/test_invoice.py"),
        "{}",
        run.stdout
    );
}

#[test]
fn merge_x_theirs_taking_the_old_file_then_amend_no_verify_is_caught() {
    let repo = TestRepo::installed();
    // An old branch weakened the test.
    repo.git(&["switch", "-q", "-c", "old"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit("make CI green", &["-a", "--no-verify"])
        .expect(0);
    // main strengthened the same line since (a strengthening passes on its own).
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075 and RATE < 1\n",
    );
    repo.commit("tighten", &["-a", "--no-verify"]).expect(0);
    let base = rev(&repo, "HEAD");
    // The porcelain: -X theirs settles the conflict with the old weak line; the merge
    // commit runs no pre-commit hook; the amend taking the old file skips it.
    repo.git(&["merge", "-q", "--no-edit", "-X", "theirs", "old"]);
    repo.git(&["checkout", "old", "--", "tests/test_invoice.py"]);
    repo.commit("merge", &["--amend", "--no-edit", "--no-verify"])
        .expect(0);
    assert_eq!(
        std::fs::read_to_string(repo.root.join("tests/test_invoice.py")).unwrap(),
        WEAKENED
    );
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("assertion-loosened"), "{}", run.stdout);
    let run = ci_from(&repo, &base);
    run.expect(1);
    assert!(run.stdout.contains("NEEDS APPROVAL"), "{}", run.stdout);
}

#[test]
fn merging_main_into_a_branch_does_not_reflag_mains_changes() {
    let repo = TestRepo::with_history();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/other.py", "x = 1\n");
    repo.commit_all("feature work");
    let branch_base = rev(&repo, "HEAD");
    // main gains a protected change, approved there (and one landed by label in CI,
    // which leaves no note: the merge must not need one either).
    repo.git(&["switch", "-q", "main"]);
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("rate is now a range");
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    repo.write(
        "tests/test_other.py",
        "def test_other():\n    assert 1 == 1\n",
    );
    repo.commit_all("labelled in CI");
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&["merge", "-q", "--no-edit", "main"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(0);
    assert!(!run.stdout.contains("tests/"), "{}", run.stdout);
    // The range from the branch's own base: main's commits are judged where they were
    // made (one approved, one not), never again as the merge's.
    let run = ci_from(&repo, &branch_base);
    assert!(
        run.stdout.contains("NEEDS APPROVAL") && run.stdout.contains("labelled in CI"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout
            .contains(&format!("NEEDS APPROVAL  {}", &rev(&repo, "HEAD")[..7])),
        "{}",
        run.stdout
    );
}

#[test]
fn a_clean_merge_of_two_branches_passes() {
    let repo = TestRepo::with_history();
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075\n\n\n\n\ndef test_b():\n    assert 1 == 1\n",
    );
    repo.commit_all("second test");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("src/other.py", "x = 1\n");
    repo.commit_all("feature work");
    repo.git(&["switch", "-q", "main"]);
    repo.write("src/invoice.py", "RATE = 0.08\n");
    repo.commit_all("main work");
    let base = rev(&repo, "HEAD");
    repo.git(&["merge", "-q", "--no-edit", "feature"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(0);
    ci_from(&repo, &base).expect(0);
}

#[test]
fn a_conflict_in_a_test_resolved_by_hand_is_the_merges_change() {
    let repo = TestRepo::with_history();
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075, 'feature'\n",
    );
    repo.commit_all("feature message");
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "tests/test_invoice.py",
        "def test_rate():\n    assert RATE == 0.075, 'main'\n",
    );
    repo.commit_all("main message");
    let out = repo.git_output(&["merge", "-q", "--no-edit", "feature"]);
    assert!(!out.status.success());
    repo.write("tests/test_invoice.py", STRONG);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("tests/test_invoice.py"),
        "{}",
        run.stdout
    );
}

/// Five tests far enough apart that each is its own hunk.
fn five_tests(first: &str, last: Option<&str>) -> String {
    let mut text = format!("def test_rate():\n    assert RATE == 0.075, '{first}'\n");
    for name in ["b", "c", "d"] {
        text.push_str(&format!(
            "\n\ndef test_{name}():\n    x = {{'{name}': 1}}\n    assert x['{name}'] == 1\n    assert len(x) == 1\n"
        ));
    }
    if let Some(last) = last {
        text.push_str(&format!(
            "\n\ndef test_last():\n    assert round(RATE, 2) == 0.08, '{last}'\n"
        ));
    }
    text
}

#[test]
fn a_test_the_other_side_deleted_cleanly_beside_a_conflict_is_not_the_merges_change() {
    let repo = TestRepo::with_history();
    repo.write("tests/test_invoice.py", five_tests("one", Some("kept")));
    repo.commit_all("five tests");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", five_tests("feature", Some("kept")));
    repo.commit_all("feature message");
    let branch_base = rev(&repo, "HEAD");
    // main deletes the last test (approved there) and edits the first one.
    repo.git(&["switch", "-q", "main"]);
    repo.write("tests/test_invoice.py", five_tests("main", None));
    repo.commit_all("drop the last test");
    repo.human(&["override", "HEAD", "--reason", REASON])
        .expect(0);
    // main merged into the branch: the first test conflicts, the deletion merges cleanly;
    // the conflict is resolved to the branch's side.
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    repo.write("tests/test_invoice.py", five_tests("feature", None));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    // The resolution keeps the branch's side of a protected file's conflicting hunk, so
    // against main's side it is a protected change (since session 13: a conflict is
    // judged against both sides); main's clean deletion is still not the merge's.
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("0 findings"), "{}", run.stdout);
    assert!(!run.stdout.contains("test_last"), "{}", run.stdout);
    // The range from the branch's base: main's deletion is judged where it was made.
    let run = ci_from(&repo, &branch_base);
    let merge = format!("NEEDS APPROVAL  {}", &rev(&repo, "HEAD")[..7]);
    let at = run.stdout.find(&merge).expect("the merge needs approval");
    let entry = run.stdout[at..].split("\n\n").next().unwrap_or_default();
    assert!(!entry.contains("test_last"), "{}", run.stdout);
    assert!(!entry.contains("test-removed"), "{}", run.stdout);
}

#[test]
fn a_test_dropped_inside_a_conflict_is_still_the_merges_change() {
    let repo = TestRepo::with_history();
    repo.write("tests/test_invoice.py", five_tests("one", Some("kept")));
    repo.commit_all("five tests");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_invoice.py", five_tests("one", Some("feature")));
    repo.commit_all("feature message");
    repo.git(&["switch", "-q", "main"]);
    repo.write("tests/test_invoice.py", five_tests("one", Some("main")));
    repo.commit_all("main message");
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    // Both sides kept the last test; the resolution drops it.
    repo.write("tests/test_invoice.py", five_tests("one", None));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("test-removed"), "{}", run.stdout);
    assert!(run.stdout.contains("test_last"), "{}", run.stdout);
}

/// A test file holding a line of seven `=` (a setext heading in a string) inside a
/// conflicting hunk: read as git resolves it (`-X ours`), not by parsing markers, so
/// the first parent's side is not cut short at that line (review bypass 09).
#[test]
fn a_separator_line_in_a_conflicting_hunk_does_not_hide_a_dropped_test() {
    let file = |title: &str, list: &str| {
        format!(
            "from md import render\n\n\ndef test_render_heading():\n    src = \"\"\"{title}\n=======\n\"\"\"\n    assert render(src) == \"<h1>{title}</h1>\"\n\n\ndef test_render_list():\n{list}"
        )
    };
    let repo = TestRepo::with_history();
    repo.write(
        "tests/test_render.py",
        file("Title", "    assert render(\"- a\") == \"a\"\n"),
    );
    repo.commit_all("render tests");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write(
        "tests/test_render.py",
        file(
            "Summary",
            "    assert render(\"- a\") == \"a\"\n    assert render(\"- b\") == \"b\"\n",
        ),
    );
    repo.commit_all("feature: more cases");
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "tests/test_render.py",
        file("Example", "    assert render(\"* a\") == \"a\"\n"),
    );
    repo.commit_all("main: other cases");
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    // The resolution keeps main's heading test and drops test_render_list.
    let kept = file("Example", "");
    let kept = &kept[..kept.find("\n\n\ndef test_render_list").unwrap() + 1];
    repo.write("tests/test_render.py", kept);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("test-removed"), "{}", run.stdout);
    assert!(run.stdout.contains("test_render_list"), "{}", run.stdout);
}

/// One side renames a test file, the other edits it: git reports the conflict under
/// the new name only, which the first parent never had. Its content is the first
/// parent's under the old name, so tests the resolution drops are the merge's change
/// (review bypass 10).
#[test]
fn a_rename_modify_conflict_resolved_by_dropping_tests_is_caught() {
    let tests = |ny: &str| {
        format!(
            "from app import rate\n\n\ndef test_rate_ca():\n    assert rate(\"CA\") == 0.075\n\n\ndef test_rate_ny():\n    assert rate(\"NY\") == {ny}\n\n\ndef test_rate_tx():\n    assert rate(\"TX\") == 0.0625\n"
        )
    };
    let repo = TestRepo::with_history();
    repo.write("tests/test_rate.py", tests("0.04"));
    repo.commit_all("rates");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_rate.py", tests("0.04000"));
    repo.commit_all("feature: edit");
    repo.git(&["switch", "-q", "main"]);
    repo.git(&["mv", "tests/test_rate.py", "tests/test_rates.py"]);
    repo.write("tests/test_rates.py", tests("0.040"));
    repo.commit_all("main: rename");
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    repo.write(
        "tests/test_rates.py",
        "from app import rate\n\n\ndef test_rate_ca():\n    assert rate(\"CA\") == 0.075\n",
    );
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("test-removed"), "{}", run.stdout);
    assert!(run.stdout.contains("test_rate_ny"), "{}", run.stdout);
}

/// A repository where `path` holds `base`, then `feature` on branch `feature` and `main`
/// on `main`; left on `main`. `analysis_only`: nothing protected by path (the findings
/// alone decide), else the default policy.
fn diverged(analysis_only: bool, path: &str, base: &str, feature: &str, main: &str) -> TestRepo {
    let repo = TestRepo::with_history();
    if analysis_only {
        repo.write("guard.toml", "[protect]\npaths = []\n");
    }
    repo.write(path, base);
    repo.commit_all("base");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write(path, feature);
    repo.commit_all("feature");
    repo.git(&["switch", "-q", "main"]);
    repo.write(path, main);
    repo.commit_all("main");
    repo
}

/// Merges `main` into `feature`, which conflicts in `path`, and records the resolution
/// without hooks: `content`, or the branch's side as `git checkout --ours` takes it.
fn merge_main_resolved(repo: &TestRepo, path: &str, content: Option<&str>) {
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success(), "the merge should conflict");
    match content {
        Some(content) => repo.write(path, content),
        None => {
            repo.git(&["checkout", "--ours", "--", path]);
        }
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
}

/// `test_rate_ca` with `body`, beside `test_rate_tx`.
fn rate_tests(body: &str) -> String {
    format!(
        "from app import rate\n\n\ndef test_rate_ca():\n{body}\n\n\ndef test_rate_tx():\n    assert rate(\"TX\") == 0.0625\n"
    )
}

/// The branch names the value `test_rate_ca` checks; main adds a check in the same hunk.
fn rate_conflict() -> TestRepo {
    diverged(
        false,
        "tests/test_rate.py",
        &rate_tests("    assert rate(\"CA\") == 0.075"),
        &rate_tests("    value = rate(\"CA\")\n    assert value == 0.075"),
        &rate_tests("    assert rate(\"CA\") == 0.075\n    assert rate(\"ca\") == 0.075"),
    )
}

/// main adds a check inside a hunk the branch also edited; the branch merges main and
/// resolves the conflict to its own side (`git checkout --ours`), dropping main's
/// check. Against the first parent's side (`-X ours`) that resolution looked unchanged;
/// judged against main's side too, it drops main's check (the `--ours` hole left open in
/// session 12).
#[test]
fn a_conflict_resolved_to_our_side_that_drops_mains_new_check_is_caught() {
    let repo = rate_conflict();
    let branch_base = rev(&repo, "feature");
    merge_main_resolved(&repo, "tests/test_rate.py", None);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("tests/test_rate.py"), "{}", run.stdout);
    assert!(run.stdout.contains("assertions-removed"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("`test_rate_ca`: 2 checks before, 1 after"),
        "{}",
        run.stdout
    );
    // In CI the merge itself needs approval (main's own commit in the range does too).
    let run = ci_from(&repo, &branch_base);
    run.expect(1);
    let merge = format!("NEEDS APPROVAL  {}", &rev(&repo, "HEAD")[..7]);
    let at = run.stdout.find(&merge).expect("the merge needs approval");
    let entry = run.stdout[at..].split("\n\n").next().unwrap_or_default();
    assert!(entry.contains("assertions-removed"), "{}", run.stdout);
}

/// The same conflict resolved by hand keeping both sides' work passes: judged against
/// either side, it only adds.
#[test]
fn a_conflict_resolved_keeping_both_sides_checks_passes() {
    let repo = rate_conflict();
    let both = rate_tests(
        "    value = rate(\"CA\")\n    assert value == 0.075\n    assert rate(\"ca\") == 0.075",
    );
    merge_main_resolved(&repo, "tests/test_rate.py", Some(&both));
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(0);
}

/// The branch deleted a test that main then edited; merging main, the conflict is
/// resolved by keeping the deletion. Against main's side the test is gone, but the
/// branch removed it in its own (already judged) commit, so that is not the merge's
/// finding; main's new test, dropped in the same conflict, is (and the finding names
/// both, as tests removed at one line are named together).
#[test]
fn a_test_the_branch_deleted_stays_deleted_but_mains_new_test_dropped_beside_it_is_caught() {
    let file = |tests: &[(&str, &str)]| {
        let mut text = String::from("from app import rate\n");
        for (name, body) in tests {
            text.push_str(&format!("\n\ndef test_{name}():\n{body}\n"));
        }
        text
    };
    let ca = ("rate_ca", "    assert rate(\"CA\") == 0.075");
    let ny = ("rate_ny", "    assert rate(\"NY\") == 0.04");
    let ny_main = (
        "rate_ny",
        "    assert rate(\"NY\") == 0.04\n    assert rate(\"ny\") == 0.04",
    );
    let tx = ("rate_tx", "    assert rate(\"TX\") == 0.0625");
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.write("tests/test_rate.py", file(&[ca, ny]));
    repo.commit_all("rates");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("tests/test_rate.py", file(&[ca]));
    repo.commit_all("feature: NY has no rate any more");
    let feature = rev(&repo, "HEAD");
    repo.git(&["switch", "-q", "main"]);
    repo.write("tests/test_rate.py", file(&[ca, ny_main]));
    repo.commit_all("main: lower-case NY");
    // Resolved by keeping the branch's deletion: not the merge's finding.
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    repo.git(&["checkout", "--ours", "--", "tests/test_rate.py"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(0);
    assert!(!run.stdout.contains("test_rate_ny"), "{}", run.stdout);
    // main also adds a test in the same hunk; the same resolution drops it too.
    repo.git(&["reset", "-q", "--hard", &feature]);
    repo.git(&["switch", "-q", "main"]);
    repo.write("tests/test_rate.py", file(&[ca, ny_main, tx]));
    repo.commit_all("main: TX");
    repo.git(&["switch", "-q", "feature"]);
    let out = repo.git_output(&["merge", "-q", "--no-edit", "main"]);
    assert!(!out.status.success());
    repo.git(&["checkout", "--ours", "--", "tests/test_rate.py"]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("test-removed"), "{}", run.stdout);
    assert!(
        run.stdout.contains("`test_rate_tx` removed"),
        "{}",
        run.stdout
    );
}

/// The branch renamed a test (paired by the analysis: no finding); main added checks to
/// it in the same hunk. The branch's rename does not excuse dropping them (review 14).
#[test]
fn checks_main_added_to_a_test_the_branch_renamed_are_not_excused() {
    let repo = diverged(
        true,
        "tests/test_x.py",
        "def test_a():\n    x = compute()\n    assert x == 3\n",
        "def test_a_fast():\n    x = compute(fast=True)\n    assert x == 3\n",
        "def test_a():\n    x = compute(strict=True)\n    assert x > 0\n    assert x.valid\n    assert x == 3\n",
    );
    repo.guard(&["check", "--commit", "feature"]).expect(0);
    merge_main_resolved(&repo, "tests/test_x.py", None);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("assertions-removed"), "{}", run.stdout);
}

/// The branch renamed `it('parses')`; main added, in the same hunk, a new
/// `describe('strict', () => it('parses', …))`. Dropping it is not excused by the
/// branch's `'parses'`: a name alone never stands for a suite's test (review 14).
#[test]
fn a_new_suite_test_named_like_one_the_branch_renamed_is_not_excused() {
    let repo = diverged(
        true,
        "test/a.test.js",
        "it('parses', () => {\n  const x = parse('1');\n  expect(x).toBe(1);\n});\n",
        "it('parses input', () => {\n  const x = parse('1', {fast: true});\n  expect(x).toBe(1);\n});\n",
        "describe('strict', () => {\n  it('parses', () => {\n    const y = parse('2', {strict: true});\n    expect(y).toBe(2);\n    expect(() => parse('x', {strict: true})).toThrow();\n  });\n});\nit('parses', () => {\n  const x = parse('1', {strict: true});\n  expect(x).toBe(1);\n});\n",
    );
    merge_main_resolved(&repo, "test/a.test.js", None);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("'strict' > 'parses'"), "{}", run.stdout);
}

/// A criss-cross history (two merge bases): git's virtual base holds both sides of an
/// earlier conflict, markers and all, so read against it the branch seems to have
/// removed a check it never touched. No first-parent excusal is read then, and main's
/// checks dropped by an `--ours` resolution are found (review 14).
#[test]
fn a_criss_cross_merge_dropping_mains_checks_is_caught() {
    let file = |arg: &str, checks: &str| {
        format!("it('t', () => {{\n  const x = compute({arg});\n{checks}}});\n")
    };
    let repo = TestRepo::with_history();
    repo.write("guard.toml", "[protect]\npaths = []\n");
    repo.write("test/a.test.js", file("", "  expect(x).toBe(3);\n"));
    repo.commit_all("base");
    let base = rev(&repo, "HEAD");
    repo.git(&["switch", "-q", "-c", "x"]);
    repo.write("test/a.test.js", file("", "  expect(x).toBe(3.0);\n"));
    repo.commit_all("x");
    repo.git(&["switch", "-q", "-c", "y", &base]);
    repo.write("test/a.test.js", file("", "  expect(x).toBe(1 + 2);\n"));
    repo.commit_all("y");
    // feature = x merged with y (keeping x's line); main = y merged with x (keeping y's).
    repo.git(&["switch", "-q", "-c", "feature", "x"]);
    let _ = repo.git_output(&["merge", "-q", "--no-edit", "y"]);
    repo.write("test/a.test.js", file("", "  expect(x).toBe(3.0);\n"));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    repo.git(&["switch", "-q", "main"]);
    repo.git(&["reset", "-q", "--hard", "y"]);
    let _ = repo.git_output(&["merge", "-q", "--no-edit", "x"]);
    repo.write("test/a.test.js", file("", "  expect(x).toBe(1 + 2);\n"));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "--no-edit"]);
    repo.write(
        "test/a.test.js",
        file(
            "{strict: true}",
            "  expect(x).toBe(1 + 2);\n  expect(x).toBeGreaterThan(0);\n  expect(() => compute({strict: 'no'})).toThrow();\n",
        ),
    );
    repo.commit_all("main: strict checks");
    repo.git(&["switch", "-q", "feature"]);
    repo.write(
        "test/a.test.js",
        file("{fast: true}", "  expect(x).toBe(3.0);\n"),
    );
    repo.commit_all("feature: fast");
    let bases = repo.git(&["merge-base", "--all", "feature", "main"]);
    assert_eq!(bases.lines().count(), 2, "a criss-cross history");
    merge_main_resolved(&repo, "test/a.test.js", None);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(run.stdout.contains("assertions-removed"), "{}", run.stdout);
}

/// The branch dropped one check from `test_a` (its own finding, approved there); main
/// added three more to it in the same hunk. Keeping the branch's side drops four: more
/// than the branch's own finding lost, so it is the merge's (review 14).
#[test]
fn checks_main_added_to_a_test_the_branch_weakened_still_count() {
    let repo = diverged(
        true,
        "tests/test_x.py",
        "def test_a():\n    x = compute()\n    assert x == 3\n    assert x.ok\n",
        "def test_a():\n    x = compute(fast=True)\n    assert x == 3\n",
        "def test_a():\n    x = compute(strict=True)\n    assert x > 0\n    assert x < 9\n    assert x.valid\n    assert x == 3\n    assert x.ok\n",
    );
    repo.guard(&["check", "--commit", "feature"]).expect(1);
    merge_main_resolved(&repo, "tests/test_x.py", None);
    let run = repo.guard(&["check", "--commit", "HEAD"]);
    run.expect(1);
    assert!(
        run.stdout.contains("`test_a`: 4 checks before, 1 after"),
        "{}",
        run.stdout
    );
}
