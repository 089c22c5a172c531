#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml), as a script that also runs outside Actions
# (tests/it/dist.rs runs it against a local bare remote and a recorded event file).
#
#   dist/action.sh install   download the pinned release archive, verify its SHA-256,
#                            unpack it and put git-guard on PATH (and on $GITHUB_PATH)
#   dist/action.sh check     git guard ci --format FORMAT [--labels …] [--results …]
#                            [--baseline …]; exits with its code (0 pass, 1 blocked, 2 error)
#
# Inputs come from the environment (action.yml maps its inputs onto these):
#   GUARD_VERSION      required, an exact release version such as 0.1.0 (or v0.1.0)
#   GUARD_SHA256       optional, the archive's expected SHA-256; without it the .sha256
#                      file published beside the archive is the reference
#   GUARD_RELEASE_URL  optional, the folder the archives are in (a mirror, or file:// in
#                      tests); default https://github.com/$GUARD_REPOSITORY/releases/download/vVERSION
#   GUARD_REPOSITORY   owner/name of the action's repository (github.action_repository)
#   GUARD_FORMAT       text | json | github (default github)
#   GUARD_LABELS, GUARD_RESULTS, GUARD_BASELINE   passed on when not empty
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH   set by GitHub Actions
set -euo pipefail

die() { # what, how to fix
  echo "error: $1" >&2
  echo "hint: $2" >&2
  exit 2
}

sha256() { # prints the hex digest of $1
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

version() {
  local v=${GUARD_VERSION:-}
  v=${v#v}
  [ -n "$v" ] || die "no version given" "pin one: with: { version: 0.1.0 } (an exact release, never a branch or 'latest')"
  [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] \
    || die "version '$GUARD_VERSION' is not an exact release version" "pin one such as 0.1.0; a moving name would run whatever was published last"
  echo "$v"
}

target() {
  case "${RUNNER_OS:-$(uname -s)}/${RUNNER_ARCH:-$(uname -m)}" in
    Linux/X64|Linux/x86_64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64|Linux/aarch64) echo aarch64-unknown-linux-musl ;;
    macOS/X64|Darwin/x86_64) echo x86_64-apple-darwin ;;
    macOS/ARM64|Darwin/arm64) echo aarch64-apple-darwin ;;
    Windows/*|MINGW*|MSYS*|CYGWIN*)
      die "git-guard has no Windows build" "run the job on ubuntu-latest (the check reads git objects only, any OS gives the same verdict)" ;;
    *) die "no git-guard build for ${RUNNER_OS:-$(uname -s)} ${RUNNER_ARCH:-$(uname -m)}" \
           "use a Linux (x64, arm64) or macOS runner" ;;
  esac
}

install() {
  local v t name url tmp expected actual dir
  v=$(version)
  t=$(target)
  name="git-guard-$v-$t"
  if [ -n "${GUARD_RELEASE_URL:-}" ]; then
    url=${GUARD_RELEASE_URL%/}
  else
    local repo=${GUARD_REPOSITORY:-}
    if [ -z "$repo" ] && [ -n "${GITHUB_ACTION_PATH:-}" ]; then
      # github.action_repository can be empty in composite steps; the action's own
      # folder is .../_actions/OWNER/NAME/REF.
      repo=${GITHUB_ACTION_PATH%/}
      repo=${repo%/*}
      repo=${repo#*/_actions/}
    fi
    [[ "$repo" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] \
      || die "no repository to download from" "set GUARD_REPOSITORY=owner/name or GUARD_RELEASE_URL"
    url="https://github.com/$repo/releases/download/v$v"
  fi
  tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/git-guard-action
  rm -rf "$tmp"
  mkdir -p "$tmp"
  echo "git-guard: downloading $url/$name.tar.gz"
  curl --fail --silent --show-error --location --retry 3 --proto '=https,file' \
    --output "$tmp/$name.tar.gz" "$url/$name.tar.gz" \
    || die "could not download $url/$name.tar.gz" "check that release v$v exists and has an archive for $t"
  if [ -n "${GUARD_SHA256:-}" ]; then
    expected=$(printf '%s' "$GUARD_SHA256" | tr 'A-F' 'a-f')
  else
    curl --fail --silent --show-error --location --retry 3 --proto '=https,file' \
      --output "$tmp/$name.tar.gz.sha256" "$url/$name.tar.gz.sha256" \
      || die "could not download $url/$name.tar.gz.sha256" "pass the checksum as the sha256 input instead"
    expected=$(cut -d' ' -f1 < "$tmp/$name.tar.gz.sha256")
  fi
  [[ "$expected" =~ ^[0-9a-f]{64}$ ]] || die "'$expected' is not a SHA-256" "64 hex digits, as in the release's .sha256 file"
  actual=$(sha256 "$tmp/$name.tar.gz")
  if [ "$actual" != "$expected" ]; then
    rm -f "$tmp/$name.tar.gz"
    die "checksum mismatch for $name.tar.gz: expected $expected, got $actual" \
        "the archive is not the one released; nothing was unpacked or run"
  fi
  echo "git-guard: SHA-256 $actual verified"
  tar -xzf "$tmp/$name.tar.gz" -C "$tmp"
  dir="$tmp/$name"
  [ -x "$dir/git-guard" ] || die "the archive holds no $name/git-guard" "the release is malformed; report it"
  [ "$("$dir/git-guard" --version)" = "git-guard $v" ] \
    || die "the archive's binary is not version $v" "the release is malformed; report it"
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >> "$GITHUB_PATH"; fi
  echo "git-guard: $v installed in $dir"
}

check() {
  local args=(guard ci --format "${GUARD_FORMAT:-github}")
  [ -z "${GUARD_LABELS:-}" ] || args+=(--labels "$GUARD_LABELS")
  [ -z "${GUARD_RESULTS:-}" ] || args+=(--results "$GUARD_RESULTS")
  [ -z "${GUARD_BASELINE:-}" ] || args+=(--baseline "$GUARD_BASELINE")
  echo "git-guard: git ${args[*]}"
  exec git "${args[@]}"
}

case "${1:-}" in
  install) install ;;
  check) check ;;
  *) die "unknown step '${1:-}'" "dist/action.sh install | check" ;;
esac
