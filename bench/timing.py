"""Times git-guard against git's own floor, in alternation, and prints medians and ratios.

Every measurement is a whole process, started the way git starts a hook (a new session,
no terminal, stdin /dev/null). Each pair runs alternately (floor, candidate, floor, ...)
so drift on the machine hits both sides alike.

Usage: python3 bench/timing.py REPOS_DIR GIT_GUARD [RUNS]
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

REPOS, GUARD = sys.argv[1], os.path.abspath(sys.argv[2])
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 21
ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
ENV.update(GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1", GIT_AUTHOR_NAME="Bench",
           GIT_AUTHOR_EMAIL="bench@example.invalid", GIT_COMMITTER_NAME="Bench",
           GIT_COMMITTER_EMAIL="bench@example.invalid")


def run(cmd, cwd, after=None):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, start_new_session=True)
    elapsed = time.perf_counter() - start
    if after:
        subprocess.run(after, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return elapsed


def pair(name, cwd, floor, candidate, floor_after=None, candidate_after=None, target=None):
    a, b = [], []
    run(floor, cwd, floor_after)            # warm the page cache
    run(candidate, cwd, candidate_after)
    for _ in range(RUNS):
        a.append(run(floor, cwd, floor_after))
        b.append(run(candidate, cwd, candidate_after))
    fa, fb = statistics.median(a) * 1000, statistics.median(b) * 1000
    verdict = "" if target is None else ("  ok" if fb / fa <= target else f"  MISSES {target}x")
    print(f"| {name} | {fa:7.1f} ms | {fb:7.1f} ms | {fb / fa:5.2f}x |{verdict}")
    return fa, fb


def peak_rss(cmd, cwd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    return int(out.stderr.decode().strip().splitlines()[-1])


def repo(name):
    return os.path.join(REPOS, name)


def main():
    hook = [GUARD, "hook", "pre-commit"]
    floor = ["git", "diff", "--cached", "--name-only", "-M"]
    print(f"git-guard {subprocess.run([GUARD, '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"{subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"{os.cpu_count()} cores, {RUNS} alternating runs, medians")
    print()
    print("| measurement | floor | git-guard | ratio |")
    print("|---|---|---|---|")
    for name in ["small", "mid", "wide", "large"]:
        if os.path.isdir(repo(name)):
            shutil.rmtree(os.path.join(repo(name), ".git", "guard"), ignore_errors=True)
            target = 1.5 if name == "large" else 2.0
            pair(f"pre-commit hook, {name} (`git diff --cached --name-only -M` floor)", repo(name),
                 floor, hook, target=target)

    # Peers on the small repository, when installed (this script installs nothing):
    # PREK=/path/to/prek LEFTHOOK=/path/to/lefthook bench/run.sh. Each runs the no-op
    # hook from the repository's .pre-commit-config.yaml / lefthook.yml, in alternation
    # with git-guard's pre-commit hook.
    peers = [("prek", ["run"]), ("lefthook", ["run", "pre-commit"])]
    for peer, args in peers:
        exe = os.environ.get(peer.upper()) or shutil.which(peer)
        if not exe or not os.path.isdir(repo("small")):
            print(f"| {peer}: not installed (set {peer.upper()}=path), skipped | | | |")
            continue
        os.environ.setdefault("PREK_HOME", os.path.join(REPOS, "prek-home"))
        ENV["PREK_HOME"] = os.environ["PREK_HOME"]
        run([exe] + args, repo("small"))  # first run may set up its cache
        fa, fb = pair(f"pre-commit, small: {peer} (floor column) vs git-guard", repo("small"),
                      [exe] + args, hook)
        verdict = "  ok" if fa / fb >= 3 else "  MISSES 3x"
        print(f"| git-guard is {fa / fb:.1f}x faster than {peer} | | | |{verdict if peer == 'prek' else ''}")

    # A whole `git commit` of one unprotected change, with no hooks vs git-guard's hooks.
    small = repo("small")
    if os.path.isdir(small):
        for variant in ["commit-plain", "commit-guard"]:
            d = repo(variant)
            shutil.rmtree(d, ignore_errors=True)
            subprocess.run(["git", "clone", "-q", small, d], env=ENV, check=True)
            # The peers' configs would make `install` defer to lefthook: drop them (in
            # both clones alike) so that git-guard's own hooks are measured.
            subprocess.run(["git", "rm", "-q", "lefthook.yml", ".pre-commit-config.yaml"], cwd=d, env=ENV,
                           check=True)
            subprocess.run(["git", "commit", "-q", "--no-verify", "-m", "no peer configs"], cwd=d, env=ENV,
                           check=True)
            with open(os.path.join(d, "src", "bench_change.py"), "a") as f:
                f.write("value = 1\n")
            subprocess.run(["git", "add", "-A"], cwd=d, env=ENV, check=True)
        subprocess.run([GUARD, "install"], cwd=repo("commit-guard"), env=ENV, check=True,
                       stdout=subprocess.DEVNULL)
        commit = ["git", "commit", "-q", "-m", "bench"]
        undo = ["git", "reset", "-q", "--soft", "HEAD~1"]
        a, b = [], []
        for _ in range(RUNS):
            a.append(run(commit, repo("commit-plain"), undo))
            b.append(run(commit, repo("commit-guard"), undo))
        fa, fb = statistics.median(a) * 1000, statistics.median(b) * 1000
        verdict = "  ok" if fb / fa <= 1.5 else "  MISSES 1.5x"
        print(f"| `git commit`, small: no hooks vs pre-commit + post-commit installed | {fa:7.1f} ms | {fb:7.1f} ms | {fb / fa:5.2f}x |{verdict}")

    history = repo("history")
    if os.path.isdir(history):
        ensure_notes(history)
        pair("`git guard ci` over 1,000 commits, notes on 100 (`git log --name-only main..feature` floor)",
             history, ["git", "log", "--name-only", "main..feature"],
             [GUARD, "ci", "--base", "main", "--head", "feature", "--no-fetch", "--format", "json"], target=2.0)

    large = repo("large")
    if os.path.isdir(large):
        git_kb = peak_rss(floor, large)
        ours_kb = peak_rss(hook, large)
        verdict = "  ok" if ours_kb / git_kb <= 1.5 else "  MISSES 1.5x"
        print(f"| peak RSS, pre-commit hook, large | {git_kb / 1024:7.1f} MiB | {ours_kb / 1024:7.1f} MiB | {ours_kb / git_kb:5.2f}x |{verdict}")


def ensure_notes(history):
    """Approval notes on every tenth commit of main..feature (100 notes), made once."""
    done = subprocess.run(["git", "notes", "--ref", "refs/notes/guard", "list"], cwd=history, env=ENV,
                          capture_output=True, text=True).stdout
    if done.strip():
        return
    commits = subprocess.run(["git", "rev-list", "--reverse", "main..feature"], cwd=history, env=ENV,
                             capture_output=True, text=True, check=True).stdout.split()
    for c in commits[::10]:
        subprocess.run([GUARD, "override", c, "--reason", "Benchmark approval for a generated commit"],
                       cwd=history, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
