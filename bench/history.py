#!/usr/bin/env python3
"""The body of bench/history.sh: replay the last N first-parent commits of a repository
(and the commits their merges bring in) through `git guard check --range` with nothing
protected by path, and report.

usage: GIT_GUARD=/path/to/git-guard python3 bench/history.py <git dir> [N]
(see bench/history.sh for the environment it reads).
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

POLICY = """\
# Written by bench/history.sh: analysis only, nothing protected by path or by key
# (runner configuration by key is evaluated separately: README, "Runner configuration").
[protect]
paths = []

[protect.keys]
"""

# A file is a test file when its path says so ...
TEST_DIRS = {
    "test", "tests", "testing", "spec", "specs", "__tests__", "__test__", "testdata",
    "test-data", "e2e", "__snapshots__", "fixtures", "unittest", "unittests",
}
TEST_NAME = re.compile(
    r"""(
        ^test_.*\.py$ | _test\.py$ | ^conftest\.py$
      | _test\.go$
      | \.(test|spec)\.[cm]?[jt]sx?$
      | (Test|Tests|TestCase|IT|Spec)\.(java|kt|kts|groovy|scala)$
      | (Test|Tests)\.(cs|fs|vb)$
      | _(spec|test)\.rb$ | ^test_.*\.rb$
      | _test\.(rs|exs|dart|cpp|cc|c)$ | ^test_.*\.(rs|c|cpp)$
    )""",
    re.X,
)
# ... or, for a source file, when its old or new content holds a test marker.
MARKERS = {
    ".rs": re.compile(rb"#\[(tokio::)?test\b|#\[cfg\(test\)\]"),
    ".py": re.compile(rb"^\s*(async\s+)?def test_|^\s*class Test\w*\b", re.M),
    ".go": re.compile(rb"^func (Test|Benchmark|Example|Fuzz)\w*\(", re.M),
    ".java": re.compile(rb"@Test\b|extends TestCase\b"),
    ".kt": re.compile(rb"@Test\b"),
    ".cs": re.compile(rb"\[(Fact|Theory|Test|TestCase|TestMethod)\b"),
    ".rb": re.compile(rb"^\s*(def test_|it\s*[\"'(]|describe\s)", re.M),
}
for ext in (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"):
    MARKERS[ext] = re.compile(rb"^\s*(describe|it|test)(\.\w+)*\s*\(", re.M)


def die(message, hint=None):
    print(f"error: {message}", file=sys.stderr)
    if hint:
        print(f"hint: {hint}", file=sys.stderr)
    sys.exit(2)


def git(cwd, *args, text=True, check=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    out = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=text
    )
    if check and out.returncode != 0:
        err = out.stderr if text else out.stderr.decode(errors="replace")
        die(f"git {' '.join(args)} failed in {cwd}: {err.strip()}")
    return out.stdout


# A directory such as `Foo.Tests`, `Foo.UnitTests` (.NET), `typing_tests`.
TEST_DIR_SUFFIX = re.compile(r"[._](unit|integration|functional)?(tests?|specs?)$", re.I)


def is_test_path(path):
    parts = path.split("/")
    for p in parts[:-1]:
        if p.lower() in TEST_DIRS or TEST_DIR_SUFFIX.search(p):
            return True
    return bool(TEST_NAME.search(parts[-1]))


HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)


def first_marker_line(marker, data):
    m = marker.search(data)
    return None if m is None else data.count(b"\n", 0, m.start()) + 1


def edits_test_code(cwd, marker, old_oid, new_oid, old, new):
    """Whether a change to a source file that holds tests edits them: some changed line
    lies at or below the first test marker of its side (inline test modules such as
    Rust's `#[cfg(test)] mod tests` sit at the end of the file)."""
    old_at = first_marker_line(marker, old)
    new_at = first_marker_line(marker, new)
    diff = git(cwd, "diff", "-U0", "--no-color", old_oid, new_oid, text=False, check=False)
    for m in HUNK.finditer(diff):
        a, b = int(m.group(1)), int(m.group(2) or 1)
        c, d = int(m.group(3)), int(m.group(4) or 1)
        if old_at is not None and b and a + b - 1 >= old_at:
            return True
        if new_at is not None and d and c + d - 1 >= new_at:
            return True
    return False


class Blobs:
    """Reads blobs through one `git cat-file --batch`."""

    def __init__(self, cwd):
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self.proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )

    def read(self, oid):
        self.proc.stdin.write(oid.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3:
            return b""
        size = int(header[2])
        data = self.proc.stdout.read(size + 1)[:-1]
        return data

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def touched_tests(scratch, base, head):
    """For each commit of base..head, the test files of the change git-guard judges: a
    commit against its parent; a merge only where its result differs from git's own
    merge of its parents (a clean merge is judged as nothing, so it touches nothing)."""
    result = collections.OrderedDict()
    blobs = Blobs(scratch)
    raw = git(
        scratch, "log", "--no-merges", "-M", "--raw", "-z", "--no-abbrev",
        "--format=%x01%H", f"{base}..{head}", text=False,
    )
    read_raw(raw, blobs, scratch, result)
    for rec in git(scratch, "rev-list", "--merges", "--parents", f"{base}..{head}").splitlines():
        merge, *parents = rec.split()
        result[merge] = []
        if len(parents) != 2:
            continue  # an octopus: git-guard judges it against its first parent
        auto = git(scratch, "merge-tree", "--write-tree", "--no-messages", *parents,
                   check=False).split("\n")[0].strip()
        if not auto:
            continue
        raw = git(scratch, "diff-tree", "-r", "-M", "--raw", "-z", "--no-abbrev",
                  auto, merge, text=False)
        read_raw(b"\x01" + merge.encode() + b"\0" + raw, blobs, scratch, result)
    blobs.close()
    return result


def read_raw(raw, blobs, scratch, result):
    """Adds the test files of `--raw -z` records (each commit's introduced by
    `\\x01<sha>`) to `result`."""
    zero = "0" * 40
    tokens = raw.split(b"\0")
    current = None
    i = 0
    while i < len(tokens):
        tok = tokens[i].lstrip(b"\n")
        i += 1
        if tok.startswith(b"\x01"):
            current = tok[1:].strip().decode()
            result.setdefault(current, [])
            continue
        if not tok.startswith(b":") or current is None:
            continue
        meta = tok[1:].decode().split()
        old_oid, new_oid, status = meta[2], meta[3], meta[4]
        paths = [tokens[i].decode(errors="replace")]
        i += 1
        if status[0] in "RC":
            paths.append(tokens[i].decode(errors="replace"))
            i += 1
        hit = None
        for p in paths:
            if is_test_path(p):
                hit = p
                break
        if hit is None:
            ext = os.path.splitext(paths[-1])[1].lower()
            marker = MARKERS.get(ext)
            if marker is not None:
                old = blobs.read(old_oid) if old_oid != zero else b""
                new = blobs.read(new_oid) if new_oid != zero else b""
                if marker.search(old) or marker.search(new):
                    if old_oid == zero or new_oid == zero or edits_test_code(
                        scratch, marker, old_oid, new_oid, old, new
                    ):
                        hit = paths[-1]
        if hit is not None:
            result[current].append(hit)


def load_labels(path, project):
    """`project<TAB>commit<TAB>label<TAB>shape` lines (bench/history-labels.tsv): the
    labels a person gave to blocked commits, keyed by commit-id prefix."""
    labels = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                die(f"{path}: expected project, commit, label, shape: {line.strip()}")
            if fields[0] == project:
                labels[fields[1]] = (fields[2], fields[3] if len(fields) > 3 else "")
    return labels


def label_of(labels, sha):
    for prefix, value in labels.items():
        if sha.startswith(prefix):
            return value
    return None


def main():
    if len(sys.argv) != 3:
        die("usage: bench/history.sh <git dir> [N]")
    src = os.path.abspath(sys.argv[1])
    try:
        n = int(sys.argv[2])
        assert n > 0
    except (ValueError, AssertionError):
        die(f"N must be a positive number, not `{sys.argv[2]}`")
    guard = os.environ.get("GIT_GUARD")
    if not guard or not os.access(guard, os.X_OK):
        die(f"no git-guard binary at `{guard}`", "set GIT_GUARD=/path/to/git-guard")
    guard = os.path.abspath(guard)
    rev = os.environ.get("HISTORY_REV", "HEAD")

    if not os.path.isdir(src):
        die(f"`{src}` is not a directory")
    common = git(src, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
    objects = os.path.join(common, "objects")
    top = git(src, "rev-parse", "--show-toplevel", check=False).strip()
    name = os.path.basename(top) if top else os.path.basename(
        os.path.dirname(common) if os.path.basename(common) in ("repo", ".git") else common
    )
    if name.endswith(".git"):
        name = name[:-4]
    name = re.sub(r"[^\w.+-]", "_", name) or "repo"
    name = os.environ.get("HISTORY_NAME") or name

    head = git(src, "rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    line = git(src, "rev-list", "--first-parent", "-n", str(n + 1), head).split()
    note = ""
    if len(line) <= n:
        note = (f" (history has only {len(line)} first-parent commits; the root is the "
                f"base, so {len(line) - 1} are checked)")
        n = len(line) - 1
    if n < 1:
        die("the history has no commit to check after its root")
    base = line[n]
    # Every commit the range check judges: the first-parent line and what its merges
    # bring in (a pull request's own commits), newest first.
    commits = git(src, "rev-list", f"{base}..{head}").split()
    merged_in = len(commits) - n

    scratch = os.environ.get("HISTORY_SCRATCH") or os.path.join(
        os.environ.get("TMPDIR", "/tmp"), "git-guard-history", name
    )
    scratch = os.path.abspath(scratch)
    for inside in filter(None, [top, common]):
        real = os.path.realpath(inside)
        if os.path.realpath(scratch) == real or os.path.realpath(scratch).startswith(real + os.sep):
            die(f"the scratch repository `{scratch}` is inside `{inside}`",
                "set HISTORY_SCRATCH to a directory outside the repository")
    if os.path.exists(scratch) and os.listdir(scratch):
        ours = os.path.join(scratch, "guard.toml")
        try:
            with open(ours, encoding="utf-8") as f:
                mine = f.read() == POLICY
        except OSError:
            mine = False
        if not mine:
            die(f"`{scratch}` exists and is not a scratch repository of bench/history.sh",
                "set HISTORY_SCRATCH to a new or empty directory; it is deleted on each run")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    git(scratch, "init", "-q")
    with open(os.path.join(scratch, ".git", "objects", "info", "alternates"), "w") as f:
        f.write(objects + "\n")
    git(scratch, "update-ref", "refs/heads/replay", head)
    git(scratch, "symbolic-ref", "HEAD", "refs/heads/replay")
    with open(os.path.join(scratch, "guard.toml"), "w") as f:
        f.write(POLICY)
    if git(scratch, "ls-tree", "--name-only", base, "--", "guard.toml").strip():
        die(f"the base commit {base[:12]} carries its own guard.toml, which would be the "
            "policy instead of `paths = []`",
            "replay a range before guard.toml was added (HISTORY_REV), or edit it out")

    started = time.monotonic()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["NO_COLOR"] = "1"
    env["XDG_CONFIG_HOME"] = os.path.join(scratch, ".git", "no-personal-config")
    run = subprocess.run(
        [guard, "check", "--range", f"{base}..{head}", "--format", "json"],
        cwd=scratch, env=env, capture_output=True, text=True,
    )
    elapsed = time.monotonic() - started
    if run.returncode not in (0, 1):
        die(f"git-guard exited {run.returncode}: {run.stderr.strip()}")
    if os.environ.get("HISTORY_JSON"):
        with open(os.environ["HISTORY_JSON"], "w") as f:
            f.write(run.stdout)
    doc = json.loads(run.stdout)
    version = subprocess.run([guard, "--version"], capture_output=True, text=True).stdout.strip()

    # git-guard reports short ids; map them back to the commits.
    by_short = {}
    for entry in doc.get("checked", []):
        target = entry.get("target", "")
        for c in commits:
            if c.startswith(target):
                by_short[c] = entry
                break
    tests = touched_tests(scratch, base, head)

    checked = len(commits)
    touching = [c for c in commits if tests.get(c) or (by_short.get(c) or {}).get("findings")]
    blocked = [c for c in commits if (by_short.get(c) or {}).get("verdict") == "needs-approval"]
    kinds_all = collections.Counter()
    kinds_blocking = collections.Counter()
    for c in commits:
        for f in (by_short.get(c) or {}).get("findings", []):
            kinds_all[f["kind"]] += 1
            if f.get("blocking"):
                kinds_blocking[f["kind"]] += 1

    subjects = {}
    for rec in git(scratch, "log", "--format=%H%x00%cs%x00%s",
                   f"{base}..{head}").splitlines():
        sha, date, subject = rec.split("\0", 2)
        subjects[sha] = (date, subject)

    def pct(a, b):
        return f"{100.0 * a / b:.1f}%" if b else "-"

    print(f"repository:             {src}")
    print(f"range:                  {base[:12]}..{head[:12]} ({rev}, last {n} first-parent commits"
          f" and the {merged_in} their merges bring in){note}")
    print(f"git-guard:              {version} ({guard}); policy: {doc.get('policy')}, paths = []")
    print(f"commits checked:        {checked}")
    print(f"commits touching tests: {len(touching)} ({pct(len(touching), checked)} of checked)")
    print(f"commits blocked:        {len(blocked)} ({pct(len(blocked), checked)} of checked, "
          f"{pct(len(blocked), len(touching))} of test-touching)")
    print("findings per kind (blocking / all):")
    if not kinds_all:
        print("  none")
    for kind in sorted(kinds_all):
        print(f"  {kind:<24} {kinds_blocking[kind]:>4} / {kinds_all[kind]}")
    labels = None
    if os.environ.get("HISTORY_LABELS"):
        labels = load_labels(os.environ["HISTORY_LABELS"], name)
        tally = collections.Counter(
            (label_of(labels, c) or ("unlabelled", ""))[0] for c in blocked
        )
        real = tally["real"] + tally["borderline"]
        print(f"labelled blocked:       real {tally['real']}, borderline {tally['borderline']}, "
              f"false {tally['false']}, unlabelled {tally['unlabelled']} (labels for `{name}`)")
        print(f"precision:              {pct(real, len(blocked))} real or borderline, "
              f"{pct(tally['real'], len(blocked))} real"
              + (" (unlabelled commits count as not real)" if tally["unlabelled"] else ""))
        print(f"false alarms:           {tally['false']} ({pct(tally['false'], len(touching))} "
              f"of test-touching)")
    print(f"replayed in {elapsed:.1f}s")
    print()
    print(f"blocked commits ({len(blocked)}), newest first:")
    for c in blocked:
        date, subject = subjects.get(c, ("?", by_short[c].get("subject", "")))
        print(f"{c[:12]} {date} {subject}")
        if labels is not None:
            label, shape = label_of(labels, c) or ("UNLABELLED", "read `git show` and label it")
            print(f"  [{label}] {shape}")
        for f in by_short[c].get("findings", []):
            where = f["path"] + (f":{f['line']}" if f.get("line") is not None else "")
            flag = "" if f.get("blocking") else " (not blocking)"
            print(f"    {f['kind']} {where} {f.get('detail', '')}{flag}")
    quiet = [c for c in commits if c not in blocked and (by_short.get(c) or {}).get("findings")]
    if quiet:
        print()
        print(f"commits with only non-blocking findings ({len(quiet)}):")
        for c in quiet:
            date, subject = subjects.get(c, ("?", ""))
            print(f"{c[:12]} {date} {subject}")
            for f in by_short[c]["findings"]:
                where = f["path"] + (f":{f['line']}" if f.get("line") is not None else "")
                print(f"    {f['kind']} {where} {f.get('detail', '')}")


if __name__ == "__main__":
    main()
