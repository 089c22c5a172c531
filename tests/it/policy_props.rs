//! The path matcher agrees with `git check-ignore` on generated patterns and paths, for
//! the subset of gitignore that `[protect].paths` promises (one pattern; `*`, `?`, `**`,
//! anchoring by `/`, trailing `/`).

use std::io::Write;
use std::process::Stdio;

use git_guard::policy::Policy;
use proptest::prelude::*;

use crate::common::TestRepo;

fn segment() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "ab", "*", "?", "a*", "*b", "**", "[ab]"])
        .prop_map(String::from)
}

fn pattern() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(segment(), 1..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(segs, lead, trail)| {
            let mut p = segs.join("/");
            if lead {
                p.insert(0, '/');
            }
            if trail && !p.ends_with("**") {
                p.push('/');
            }
            p
        })
}

fn paths() -> impl Strategy<Value = Vec<String>> {
    let component = prop::sample::select(vec!["a", "b", "ab", "ba", "x", "aab"]);
    prop::collection::vec(
        prop::collection::vec(component, 1..5).prop_map(|c| c.join("/")),
        1..12,
    )
}

/// The paths among `paths` that git ignores with `pattern` as the only rule.
fn git_ignored(repo: &TestRepo, pattern: &str, paths: &[String]) -> Vec<String> {
    std::fs::write(repo.root.join(".gitignore"), format!("{pattern}\n")).unwrap();
    let mut child = repo
        .command_in("git", &repo.root)
        .args(["check-ignore", "--no-index", "--stdin", "-v", "-n"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{}\n", paths.join("\n")).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("::"))
        .filter_map(|l| l.split('\t').nth(1).map(String::from))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn matcher_agrees_with_git_check_ignore(pattern in pattern(), paths in paths()) {
        let repo = TestRepo::new();
        let policy = Policy::new(std::slice::from_ref(&pattern)).unwrap();
        let ours: Vec<String> = paths.iter().filter(|p| policy.is_protected(p.as_bytes())).cloned().collect();
        let git = git_ignored(&repo, &pattern, &paths);
        prop_assert_eq!(ours, git, "pattern {:?}", pattern);
    }
}

#[test]
fn the_oracle_itself_sees_parent_directories_and_anchoring() {
    let repo = TestRepo::new();
    let paths: Vec<String> = ["a/b", "x/a/b", "b"].map(String::from).to_vec();
    assert_eq!(git_ignored(&repo, "a", &paths), vec!["a/b", "x/a/b"]);
    assert_eq!(git_ignored(&repo, "/a", &paths), vec!["a/b"]);
    assert_eq!(git_ignored(&repo, "c", &paths), Vec::<String>::new());
}
