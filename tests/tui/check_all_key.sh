#!/usr/bin/env bash
# c checks every exercise beside the screen, which keeps answering keys meanwhile, and says how
# many pass and which do not yet; the results are recorded as checks record them.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
exercises=$(grep -c '^id = ' "$WORK/exercises/course.toml")  # as many as the course's index holds
cp "$WORK/solutions/01-vector-add/kernel.cu" "$WORK/$kernel"
cp "$WORK/solutions/02-stencil-1d/kernel.cu" "$WORK/exercises/02-stencil-1d/kernel.cu"
start_tilecamp watch
wait_for "PASSED  n moves on"
keys c
wait_for "checking every exercise\.\.\. [0-9]+ s"
keys h  # the screen answers while the check runs
wait_for "Hint 1 of 3"
wait_for_words "Checked every exercise: 2 of $exercises pass; not yet: 01-copy-coalesced, 02-transpose-tiled," 120
grep -q '"02-stencil-1d"' "$WORK/.tilecamp/progress.json" || fail "the stencil's pass is not recorded"
keys q
wait_exit 0
echo "check all: beside the screen, counted and recorded"
