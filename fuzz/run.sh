#!/usr/bin/env bash
# Fuzz every target for a bounded time (default 60 s each); not part of CI.
#   fuzz/run.sh [SECONDS]
# Needs cargo-fuzz (`cargo install cargo-fuzz`); on a stable toolchain RUSTC_BOOTSTRAP=1
# lets it use the sanitizer flags it needs. A crash leaves its input in
# fuzz/artifacts/<target>/: turn it into a named regression test, then fix.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
export RUSTC_BOOTSTRAP=1
for target in guard_toml pre_push note weakening; do
  mkdir -p "corpus/$target" && cp -n seeds/"$target"/* "corpus/$target"/ 2>/dev/null || true
  echo "== $target (${seconds}s)"
  cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -print_final_stats=1 2>&1 \
    | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|panicked|SUMMARY" || true
done
