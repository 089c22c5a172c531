//! `bench/history.sh`, the real-history replay (docs/evaluation.md):
//! on a small repository built with real git, it counts, blocks and lists what it should.

use crate::common::{GUARD, TestRepo, WEAKENED};

/// The script, run hermetically with the binary under test; `None` (and SKIPPED) when
/// python3 is missing, which the script needs.
fn history(repo: &TestRepo, args: &[&str], env: &[(&str, &str)]) -> Option<crate::common::Run> {
    let python = repo
        .command_in("python3", &repo.root)
        .arg("--version")
        .output();
    if !matches!(python, Ok(ref out) if out.status.success()) {
        eprintln!("SKIPPED: bench/history.sh needs python3, which is not on PATH");
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/history.sh");
    let out = repo
        .command_in("bash", &repo.root)
        .arg(script)
        .args(args)
        .env("GIT_GUARD", GUARD)
        .env("HISTORY_SCRATCH", repo.base().join("replay"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    Some(out.into())
}

#[test]
fn replays_history_and_lists_the_blocked_commit() {
    let repo = TestRepo::with_history(); // the root: src/invoice.py, tests/test_invoice.py
    repo.write(
        "tests/test_total.py",
        "def test_total():\n    assert total(2) == 2.15\n",
    );
    repo.commit_all("add a test for total");
    repo.write(
        "src/invoice.py",
        "RATE = 0.075\n\ndef total(x):\n    return x * (1 + RATE)\n",
    );
    repo.commit_all("implement total");
    repo.write("tests/test_invoice.py", WEAKENED);
    repo.commit_all("make CI green");

    // Default N (300) is more than the history: the root is the base, 3 commits checked.
    let Some(run) = history(&repo, &[repo.root.to_str().unwrap()], &[]) else {
        return;
    };
    run.expect(0);
    let out = &run.stdout;
    assert!(out.contains("only 4 first-parent commits"), "{out}");
    assert!(out.contains("commits checked:        3\n"), "{out}");
    assert!(out.contains("commits touching tests: 2 "), "{out}");
    assert!(out.contains("commits blocked:        1 "), "{out}");
    assert!(
        out.contains("  assertion-loosened          1 / 1\n"),
        "{out}"
    );
    let blocked = out.split("blocked commits (1)").nth(1).unwrap();
    assert!(blocked.contains(" make CI green\n"), "{out}");
    assert!(
        blocked.contains("    assertion-loosened tests/test_invoice.py:2 "),
        "{out}"
    );
    assert!(!blocked.contains("add a test for total"), "{out}");

    // N=1: only the last commit, labelled; and the repository was never written to.
    let labels = repo.base().join("labels.tsv");
    let head = repo.git(&["rev-parse", "--short=12", "HEAD"]);
    std::fs::write(
        &labels,
        format!(
            "# project\tcommit\tlabel\tshape\nrepo\t{}\treal\tloosened to >=\n",
            head.trim()
        ),
    )
    .unwrap();
    let Some(run) = history(
        &repo,
        &[repo.root.to_str().unwrap(), "1"],
        &[("HISTORY_LABELS", labels.to_str().unwrap())],
    ) else {
        return;
    };
    assert!(
        run.stdout
            .contains("real 1, borderline 0, false 0, unlabelled 0"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("  [real] loosened to >=\n"),
        "{}",
        run.stdout
    );
    run.expect(0);
    assert!(
        run.stdout.contains("commits checked:        1\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("commits blocked:        1 "),
        "{}",
        run.stdout
    );
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert!(!repo.root.join("guard.toml").exists());
}
