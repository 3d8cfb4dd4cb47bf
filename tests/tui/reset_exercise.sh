#!/usr/bin/env bash
# x resets the exercise to the stub tilecamp kept on its first run, but only after asking; the
# learner's version is kept.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
start_tilecamp watch
wait_for "NOT YET"
printf '// my attempt\n' >> "$WORK/$kernel"
sleep 0.3
keys x
wait_for_words "Reset exercises/01-vector-add/kernel.cu to the original stub\? .*Press y to reset"
keys n
wait_for_words "Nothing was reset."
grep -q "my attempt" "$WORK/$kernel" || fail "kernel.cu changed although the learner said no"
keys x
wait_for_words "Press y to reset"
keys y
wait_for_words "exercises/01-vector-add/kernel.cu is the original stub again; your version is kept in .tilecamp/reset/01-vector-add.cu"
cmp -s "$WORK/$kernel" "$SOURCE_DIR/$kernel" || fail "kernel.cu is not the stub"
grep -q "my attempt" "$WORK/.tilecamp/reset/01-vector-add.cu" || fail "the learner's version was not kept"
keys q
wait_exit 0
echo "reset: asks, keeps the learner's version, restores the stub"
