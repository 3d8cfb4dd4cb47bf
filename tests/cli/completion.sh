#!/usr/bin/env bash
# Shell completion as bash runs it: the script from `tilecamp completion bash`, sourced, offers
# the commands, the course's exercise ids after `check`, lesson numbers after `lesson`, and a
# command's options after a dash.
#   completion.sh TILECAMP COURSE_ROOT
set -euo pipefail
tilecamp=$1
export TILECAMP_ROOT=$2 NO_COLOR=1
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$(realpath "$tilecamp")" "$bin/tilecamp"
export PATH="$bin:$PATH"
eval "$(tilecamp completion bash)"
complete_line() {  # complete_line WORD...: the last word is the one being completed
  COMP_WORDS=(tilecamp "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _tilecamp_complete
  printf '%s\n' "${COMPREPLY[@]}"
}
fail() { echo "FAILED: $*" >&2; exit 1; }
# offered WORD LINE...: the completion of LINE offers WORD (output captured whole: no early close).
offered() {
  local word=$1 out
  shift
  out=$(complete_line "$@")
  grep -qx -- "$word" <<<"$out"
}
offered check ch || fail "check is not offered for ch"
offered check-all ch || fail "check-all is not offered for ch"
offered 02-transpose-tiled check 02- || fail "02-transpose-tiled is not offered after check"
[ "$(complete_line check 02- | wc -l)" = 2 ] || fail "02- should offer the two exercises of lesson 2"
offered 5 lesson "" || fail "lesson 5 is not offered"
offered --seed check --se || fail "--seed is not offered for check"
zsh_script=$(tilecamp completion zsh)
grep -q "bashcompinit" <<<"$zsh_script" || fail "the zsh script does not load bashcompinit"
status=0
refused=$(tilecamp completion fish 2>&1) || status=$?
[ "$status" = 2 ] && grep -q "no completion for \`fish\`: bash or zsh" <<<"$refused" || fail "an unknown shell is not refused"
echo "completion: commands, exercise ids, lessons and options complete in bash"
