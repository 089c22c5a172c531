#!/bin/sh
# git-guard-hook: managed by git-guard (template v1). Do not edit: `git guard install`
# rewrites this file and `git guard uninstall` removes it, restoring any hook it replaced.
hook=@HOOK@
guard=@GUARD@
case "$0" in */*) here=${0%/*} ;; *) here=. ;; esac  # no `dirname`: one process less
chained="$here/$hook.guard-chained"

# post-commit has work only when an approval is pending. git hands hooks the index path
# ($GIT_DIR/index); when that is a real git directory without pending approvals, finish
# without starting git-guard (a chained hook still runs first).
fast_exit=
if [ "$hook" = post-commit ]; then
  case "${GIT_INDEX_FILE:-}" in
    */index)
      gitdir=${GIT_INDEX_FILE%/index}
      [ -f "$gitdir/HEAD" ] && [ ! -d "$gitdir/guard/pending" ] && fast_exit=1
      ;;
  esac
fi

if [ "$hook" = pre-push ]; then
  # git writes the ref lines once; keep them for the chained hook and for git-guard.
  stdin=$(cat)
fi

# A hook that was here before git-guard keeps running first; its failure still stops git.
if [ -x "$chained" ]; then
  if [ "$hook" = pre-push ]; then
    printf '%s\n' "$stdin" | "$chained" "$@" || exit $?
  else
    "$chained" "$@" || exit $?
  fi
fi

[ -n "$fast_exit" ] && exit 0

[ -x "$guard" ] || guard=$(command -v git-guard 2>/dev/null) || guard=
if [ -z "$guard" ]; then
  echo "error: git-guard is not installed or not on PATH, so the $hook hook cannot check this change" >&2
  echo "hint: install it (\`cargo install --locked git-guard\`), or remove this hook: $0" >&2
  exit 1
fi

if [ "$hook" = pre-push ]; then
  printf '%s\n' "$stdin" | "$guard" hook "$hook" "$@"
  exit $?
fi
exec "$guard" hook "$hook" "$@"
