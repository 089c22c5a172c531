#!/usr/bin/env bash
# Reproduce the README's Performance table: build the synthetic repositories (once; they
# are deterministic), build git-guard in release mode, and time it against git's floor.
#
#   bench/run.sh [REPOS_DIR] [RUNS]      default: ${TMPDIR:-/tmp}/git-guard-bench, 21 runs
#
# Needs git, python3 and /usr/bin/time. The criterion benches are separate:
#   cargo bench --bench analysis   (weakening throughput, MB/s)
#   cargo bench --bench matcher    (path matcher)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TMPDIR:-/tmp}/git-guard-bench}
runs=${2:-21}
if [ ! -d "$out/history" ]; then
  bash "$here/make_repos.sh" "$out"
fi
cargo build --release --locked --quiet --manifest-path "$here/../Cargo.toml"
python3 "$here/timing.py" "$out" "$here/../target/release/git-guard" "$runs"
