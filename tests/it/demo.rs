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
    assert_eq!(text.matches('✓').count(), 7, "{text}");
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
