//! `git guard demo`: the incident replay is also the end-to-end smoke test.

use crate::common::TestRepo;

#[test]
fn demo_replays_the_incident_and_every_defence_holds() {
    let repo = TestRepo::new();
    let keep = repo.base().join("kept-demo");
    let run = repo.guard(&["demo", "--keep", keep.to_str().unwrap()]);
    run.expect(0);
    let text = &run.stdout;
    for step in ["== 0.", "== 1.", "== 2.", "== 3.", "== 4."] {
        assert!(text.contains(step), "{text}");
    }
    assert!(!text.contains('✗'), "{text}");
    // Steps 0 to 4 as before, plus the signature checks (the agent's own approval
    // refused, the human's verified, a forged note refused); step 5 is checked below.
    let (incident, reports) = text.split_at(text.find("== 5.").expect("step 5"));
    assert_eq!(incident.matches('✓').count(), 10, "{text}");
    assert!(
        incident.contains("the agent's own approval is refused"),
        "{text}"
    );
    assert!(
        incident.contains("signed by dana@example.invalid, ED25519 SHA256:"),
        "{text}"
    );
    assert!(
        incident.contains("a note the agent wrote itself does not count"),
        "{text}"
    );
    assert_eq!(reports.matches('✓').count(), 3, "{text}");
    // Step 5: a deselect in pyproject.toml passes the hook and the diff, and the two
    // JUnit reports written as CI would write them stop it.
    assert!(
        reports
            .contains("--results \"ci-reports/head/*.xml\" --baseline \"ci-reports/base/*.xml\""),
        "{reports}"
    );
    assert!(
        reports.contains(
            "! test-vanished tests.test_invoice_rounding.TestInvoiceRounding::test_rate_is_exact: passed at the base, absent at the head"
        ),
        "{reports}"
    );
    assert!(reports.contains("pytest --junitxml"), "{reports}");
    assert!(text.contains("Every defence held"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour when not a terminal: {text}"
    );
    // The kept repository carries the evidence.
    let demo_repo = keep.join("invoices");
    let note = repo
        .command_in("git", &demo_repo)
        .args(["notes", "--ref", "refs/notes/guard", "show", "HEAD~1"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&note.stdout).contains("Guard-Blocked-Attempts: 2"));
    // Step 5's branch changes pyproject.toml alone; the reports are left beside it.
    let changed = repo
        .command_in("git", &demo_repo)
        .args(["diff", "--name-only", "main~2...configure-pytest"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&changed.stdout), "pyproject.toml\n");
    assert!(demo_repo.join("ci-reports/base/junit.xml").is_file());
    assert!(demo_repo.join("ci-reports/head/junit.xml").is_file());
}

#[test]
fn demo_refuses_an_existing_keep_directory() {
    let repo = TestRepo::new();
    let run = repo.guard(&["demo", "--keep", repo.root.to_str().unwrap()]);
    run.expect(2);
    assert!(
        run.stderr.contains("already exists") && run.stderr.contains("hint: "),
        "{}",
        run.stderr
    );
}
