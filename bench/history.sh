#!/usr/bin/env bash
# Replay real history through git-guard's weakening analysis (issue 16's evaluation).
#
#   bench/history.sh <git dir> [N]          default N=300
#
# Takes the last N first-parent commits of <git dir>'s HEAD (a bare snapshot or a
# clone; HISTORY_REV=<rev> picks another head) and the commits their merges bring in
# (every commit the range check judges; a merge counts as touching tests only where
# its result differs from git's own merge), and runs
# `git guard check --range <base>..<head> --format json` on them with nothing protected
# by path (`[protect] paths = []`), so only the analyser's blocking findings block. It
# prints: commits checked, commits touching test files, commits blocked, findings per
# kind, and every blocked commit with its findings (sha, subject, kind path:line
# detail), for a person to read and label.
#
# The repository is never written to. The replay runs in a scratch repository outside
# it (${HISTORY_SCRATCH:-${TMPDIR:-/tmp}/git-guard-history/<name>}, recreated each run)
# that borrows its objects through git's alternates and holds the guard.toml above in
# its work tree (the policy git-guard uses when a commit carries no guard.toml of its
# own; a project whose history carries one is refused, since that policy would apply).
#
# Environment:
#   GIT_GUARD=/path/to/git-guard   the binary (default: a release build of this checkout,
#                                  built with cargo if needed)
#   HISTORY_REV=<rev>              the head to replay back from (default HEAD)
#   HISTORY_SCRATCH=<dir>          the scratch repository (deleted and recreated)
#   HISTORY_JSON=<file>            also write git-guard's raw JSON there
#   HISTORY_LABELS=<file>          labels of blocked commits (bench/history-labels.tsv):
#                                  print each one's label, and the precision
#   HISTORY_NAME=<name>            the project's name in the labels file (default: the
#                                  repository directory's name)
#
# bench/history-all.sh replays every project of bench/history-projects.tsv this way.
#
# Needs git (2.31+) and python3. Exit 0 when the replay ran (blocked commits are the
# output, not a failure), 2 when it could not run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: bench/history.sh <git dir> [N]" >&2
  exit 2
fi
if [ -z "${GIT_GUARD:-}" ]; then
  cargo build --release --locked --quiet --manifest-path "$here/../Cargo.toml"
  GIT_GUARD="${CARGO_TARGET_DIR:-$here/../target}/release/git-guard"
fi
export GIT_GUARD
exec python3 "$here/history.py" "$1" "${2:-300}"
