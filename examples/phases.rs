use std::time::Instant;
fn main() {
    let t = Instant::now();
    let repo = git_guard::repo::Repo::open().unwrap();
    eprintln!("open {:?}", t.elapsed());
    let t = Instant::now();
    let index = repo.git.index().unwrap();
    eprintln!("index read {:?} ({} entries)", t.elapsed(), index.len());
    let t = Instant::now();
    let head = repo.head_commit().unwrap().unwrap();
    let tree = head.tree().unwrap();
    let diff = repo
        .git
        .diff_tree_to_index(Some(&tree), Some(&index), None)
        .unwrap();
    eprintln!("diff {:?} ({} deltas)", t.elapsed(), diff.deltas().len());
    let t = Instant::now();
    let changes = git_guard::changes::staged(&repo).unwrap();
    eprintln!(
        "changes::staged (incl. renames) {:?} ({})",
        t.elapsed(),
        changes.len()
    );
    let t = Instant::now();
    let (config, _) = repo.policy().unwrap();
    let policy = git_guard::policy::Policy::new(&config.protect.paths).unwrap();
    eprintln!("policy {:?}", t.elapsed());
    let t = Instant::now();
    let r = git_guard::check::Report::evaluate(
        &changes,
        &config,
        &policy,
        &git_guard::weakening::NoBlobs,
    );
    eprintln!(
        "evaluate paths only {:?} ({} protected)",
        t.elapsed(),
        r.protected.len()
    );
    let t = Instant::now();
    let r = git_guard::check::Report::evaluate(&changes, &config, &policy, &repo);
    eprintln!(
        "evaluate with content {:?} ({} findings)",
        t.elapsed(),
        r.findings.len()
    );
    let t = Instant::now();
    let tree = repo.index_tree().unwrap();
    eprintln!("write_tree {:?} {tree}", t.elapsed());
}
