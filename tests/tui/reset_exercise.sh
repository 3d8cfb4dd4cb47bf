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
wait_for_words "exercises/01-vector-add/kernel.cu is the original stub again; your version is kept in .tilecamp/reset/01-vector-add-[0-9]{8}-[0-9]{6}.cu"
cmp -s "$WORK/$kernel" "$SOURCE_DIR/$kernel" || fail "kernel.cu is not the stub"
grep -q "my attempt" "$WORK"/.tilecamp/reset/01-vector-add-*.cu || fail "the learner's version was not kept"
# A deleted kernel.cu is noticed, and x suggested; x then brings the stub back.
rm "$WORK/$kernel"
wait_for_words "exercises/01-vector-add/kernel.cu is gone \(deleted or renamed\): x brings back the stub"
keys x
wait_for_words "Press y to reset"
keys y
wait_for_words "exercises/01-vector-add/kernel.cu is the original stub again"
cmp -s "$WORK/$kernel" "$SOURCE_DIR/$kernel" || fail "kernel.cu is not the stub after a deletion"
keys q
wait_exit 0
echo "reset: asks, keeps the learner's version, restores the stub, also after a deletion"
