#!/usr/bin/env bash
# Packs one release archive and its SHA-256 checksum (README, "Install").
#
#   dist/archive.sh --target TRIPLE [--binary PATH] [--out DIR]
#
# Without --binary it builds `cargo build --release --locked --target TRIPLE` first.
# Writes DIR/git-guard-VERSION-TRIPLE.tar.gz (a folder of that name holding git-guard,
# README.md and guard.toml.example) and DIR/git-guard-VERSION-TRIPLE.tar.gz.sha256 in
# `sha256sum` format; VERSION is Cargo.toml's. The release workflow calls it once per
# target; tests/it/dist.rs runs it on the host.
set -euo pipefail

die() { # what, how to fix
  echo "error: $1" >&2
  echo "hint: $2" >&2
  exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
target="" binary="" out="$root/dist/out"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) [ $# -ge 2 ] || die "--target needs a value" "dist/archive.sh --target x86_64-unknown-linux-musl"; target=$2; shift 2 ;;
    --binary) [ $# -ge 2 ] || die "--binary needs a value" "--binary target/release/git-guard"; binary=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value" "--out dist/out"; out=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unexpected argument '$1'" "dist/archive.sh --target TRIPLE [--binary PATH] [--out DIR]" ;;
  esac
done
[ -n "$target" ] || die "no --target given" "dist/archive.sh --target x86_64-unknown-linux-musl (a Rust target triple)"
case "$target" in
  *[!A-Za-z0-9_.-]*) die "'$target' is not a target triple" "e.g. x86_64-unknown-linux-musl, aarch64-apple-darwin" ;;
  *windows*) die "no Windows build: git-guard uses Unix APIs (nix, std::os::unix) and POSIX sh hooks" \
                 "on Windows run the Linux build under WSL (README, \"Install\")" ;;
esac

version=$(sed -n '/^\[package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
[ -n "$version" ] || die "no version in $root/Cargo.toml" "the [package] table needs version = \"X.Y.Z\""

if [ -z "$binary" ]; then
  cargo build --release --locked --target "$target" --manifest-path "$root/Cargo.toml"
  binary="${CARGO_TARGET_DIR:-$root/target}/$target/release/git-guard"
fi
[ -f "$binary" ] || die "no binary at $binary" "build it first, or leave out --binary to build it here"

# A binary that runs here must say the version it is packed as (a cross-built one cannot run).
if said=$("$binary" --version 2>/dev/null); then
  [ "$said" = "git-guard $version" ] \
    || die "$binary says '$said', the archive would say $version" "rebuild the binary from this checkout"
fi

sha256() { # prints the hex digest of $1
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

name="git-guard-$version-$target"
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/git-guard"
chmod 755 "$stage/$name/git-guard"
cp "$root/README.md" "$root/guard.toml.example" "$stage/$name/"

# Same inputs, same bytes: fixed order, owner and times where GNU tar allows it.
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
flags=()
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  flags=(--sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch")
fi
tar -C "$stage" ${flags[@]+"${flags[@]}"} -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"
(cd "$out" && printf '%s  %s\n' "$(sha256 "$name.tar.gz")" "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
