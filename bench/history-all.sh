#!/usr/bin/env bash
# Rerun the real-history evaluation (docs/evaluation.md) on every project of
# bench/history-projects.tsv, at its recorded head, with the labels of
# bench/history-labels.tsv, and print one summary table.
#
#   bench/history-all.sh <clones dir> [N]          default N=300
#
# HISTORY_SET=heldout, heldout2 … heldout8 reruns a held-out set instead
# (bench/history-<set>-projects.tsv with bench/history-<set>-labels.tsv).
#
# <clones dir>/<name>.git is used when present (any clone or bare mirror holding the
# recorded head; a symlink is fine), else cloned bare from the recorded URL. Each
# project's full output goes to <clones dir>/<name>.txt, git-guard's JSON to
# <clones dir>/<name>.json. GIT_GUARD as for bench/history.sh (default: a release build
# of this checkout). Keep <clones dir> outside this repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: bench/history-all.sh <clones dir> [N]" >&2
  exit 2
fi
dir=$(mkdir -p "$1" && cd "$1" && pwd)
n=${2:-300}
if [ -z "${GIT_GUARD:-}" ]; then
  cargo build --release --locked --quiet --manifest-path "$here/../Cargo.toml"
  GIT_GUARD="${CARGO_TARGET_DIR:-$here/../target}/release/git-guard"
fi
export GIT_GUARD
set_=${HISTORY_SET:+-$HISTORY_SET}
projects="$here/history$set_-projects.tsv"
labels="$here/history$set_-labels.tsv"
[ -f "$projects" ] || { echo "error: no $projects" >&2; echo "hint: HISTORY_SET is empty, heldout, heldout2 … heldout8" >&2; exit 2; }
grep -v '^#' "$projects" | while IFS=$'\t' read -r name lang url head; do
  [ -n "$name" ] || continue
  repo="$dir/$name.git"
  if [ ! -e "$repo" ]; then
    git clone --quiet --bare "$url" "$repo" >&2
  fi
  HISTORY_REV=$head HISTORY_NAME=$name HISTORY_LABELS="$labels" \
    HISTORY_JSON="$dir/$name.json" HISTORY_SCRATCH="$dir/.scratch/$name" \
    python3 "$here/history.py" "$repo" "$n" > "$dir/$name.txt"
done
python3 - "$dir" "$projects" <<'PY'
import re, sys
rows, total = [], [0] * 7
for line in open(sys.argv[2], encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    name, lang = line.split("\t")[:2]
    text = open(f"{sys.argv[1]}/{name}.txt", encoding="utf-8").read()
    num = lambda p: int(re.search(p, text).group(1))
    checked = num(r"commits checked:\s+(\d+)")
    touching = num(r"commits touching tests:\s+(\d+)")
    blocked = num(r"commits blocked:\s+(\d+)")
    m = re.search(r"real (\d+), borderline (\d+), false (\d+), unlabelled (\d+)", text)
    labels = [int(x) for x in m.groups()] if m else [0, 0, 0, blocked]
    row = [checked, touching, blocked, *labels]
    rows.append((name, lang, row))
    total = [a + b for a, b in zip(total, row)]
rows.append(("total", "", total))
pct = lambda a, b: f"{100.0 * a / b:.1f}%" if b else "-"
print(f"{'project':<18} {'language':<10} {'checked':>7} {'touching':>8} {'blocked':>7} {'real':>5} "
      f"{'borderline':>10} {'false':>5} {'unlabelled':>10} {'precision':>9} {'FA/touch':>8}")
for name, lang, (c, t, b, r, bo, f, u) in rows:
    print(f"{name:<18} {lang:<10} {c:>7} {t:>8} {b:>7} {r:>5} {bo:>10} {f:>5} {u:>10} "
          f"{pct(r + bo, b):>9} {pct(f, t):>8}")
print("precision = (real + borderline) / blocked, unlabelled counted as not real; "
      "FA/touch = false / commits touching tests")
PY
