//! The two ways the commit hook reads the staged change (libgit2 in-process for a small
//! index, `git diff --cached` for a large one) must agree, change for change.

use git_guard::changes::{Change, staged_in_process, staged_via_git};
use git_guard::repo::Repo;

use crate::common::TestRepo;

fn sorted(mut changes: Vec<Change>) -> Vec<String> {
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    changes.iter().map(|c| format!("{c:?}")).collect()
}

/// Both readings of `repo`'s staged change, which must be equal and not empty.
#[track_caller]
fn assert_agree(repo: &TestRepo) -> Vec<String> {
    let git = Repo::open_at(&repo.root).unwrap();
    let ours = sorted(staged_in_process(&git).unwrap());
    let theirs = sorted(staged_via_git(&git).unwrap());
    assert_eq!(ours, theirs);
    assert!(!ours.is_empty());
    ours
}

#[test]
fn libgit2_and_git_diff_cached_agree_on_every_kind_of_change() {
    // First commit: everything added, against the empty tree.
    let repo = TestRepo::new();
    repo.write("tests/test_a.py", "def test_a():\n    assert 1 == 1\n");
    repo.write("src/a.py", "A = 1\n");
    repo.git(&["add", "-A"]);
    assert_agree(&repo);
    repo.commit_all("first");

    // Modified, added, deleted, mode change, exact rename, rename with an edit,
    // a symlink replacing a file, odd bytes in names.
    let body: String = (0..40).map(|i| format!("line {i}\n")).collect();
    repo.write("tests/test_long.py", &body);
    repo.write("docs/moved.md", "# title\nsome words\n");
    repo.write("keep.txt", "x\n");
    repo.commit_all("more");
    repo.write("src/a.py", "A = 2\n");
    repo.write("src/b.py", "B = 1\n");
    std::fs::remove_file(repo.root.join("keep.txt")).unwrap();
    std::fs::set_permissions(
        repo.root.join("tests/test_a.py"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    repo.git(&["mv", "docs/moved.md", "docs/renamed.md"]);
    std::fs::create_dir_all(repo.root.join("lib")).unwrap();
    repo.git(&["mv", "tests/test_long.py", "lib/long.py"]);
    repo.write("lib/long.py", format!("{body}line 40\n"));
    std::os::unix::fs::symlink("src/a.py", repo.root.join("link")).unwrap();
    repo.write("tests/with space é.py", "x = 1\n");
    repo.git(&["add", "-A"]);
    let changes = assert_agree(&repo).join("\n");
    assert!(changes.contains("Renamed"), "{changes}");
    repo.commit_all("mixed");

    // A file turned into a symlink (typechange) and a deletion beside a near copy.
    std::fs::remove_file(repo.root.join("src/b.py")).unwrap();
    std::os::unix::fs::symlink("a.py", repo.root.join("src/b.py")).unwrap();
    repo.git(&["rm", "-q", "lib/long.py"]);
    repo.write("lib/copy1.py", format!("{body}line 40\nline 41\n"));
    repo.git(&["add", "-A"]);
    assert_agree(&repo);
}
