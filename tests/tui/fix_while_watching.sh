#!/usr/bin/env bash
# Fixing 01-vector-add while tilecamp watches: hints one at a time, a first edit (saved by rename,
# as vim does) that still fails, the fix (written in place), the pass, the list with the exercise
# done, then an edit that breaks it again and shows it pending.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
exercises=$(grep -c '^id = ' "$WORK/exercises/course.toml")  # as many as the course's index holds
start_tilecamp watch

wait_for "NOT YET"
expect "out-of-bounds"
keys h
wait_for "^Hint 1 of 3: A thread's element is its number in the whole grid"
expect_not "Hint 2 of 3"
keys h
wait_for "^Hint 2 of 3: "
expect "^Hint 1 of 3: "

# The grid index, saved through a temporary file renamed over kernel.cu: still no bounds test.
sed -i 's/int i = threadIdx.x;/int i = blockIdx.x * blockDim.x + threadIdx.x;/' "$WORK/$kernel"
wait_for_words "out-of-bounds global load of 4 bytes at element 1000 of \`a\` .* by thread \(232,0,0\) of block \(3,0,0\)"
expect "^    > +[0-9]+ \|   c\[i\] = a\[i\] \+ b\[i\];"
expect "FAIL  public case n=1000"
expect_words "NOT YET the emulator caught an error"

# The bounds test, written in place.
source_text=$(<"$WORK/$kernel")
printf '%s\n' "${source_text/'  c[i] = a[i] + b[i];'/'  if (i < n) c[i] = a[i] + b[i];'}" > "$WORK/$kernel"
wait_for "PASSED  n moves on to 01-copy-coalesced; s compares yours with the solution"
expect "PASS  no races, deadlocks or invalid memory accesses"
expect "1/$exercises done"

# l: the exercises to move through, the current one selected.
keys l
wait_for "1/$exercises done   j/k or arrows move   Enter go to it   x reset it   q back"
expect "^>   done     01-vector-add +Vector add"
expect "^    pending  01-copy-coalesced"
expect "^  Lesson 2  Shared-memory tiling"
keys q
wait_for "PASSED  n moves on"
# j twice skips the lesson heading to 02-transpose-tiled; Enter goes there.
keys l
wait_for "^>   done     01-vector-add"
keys j
wait_for "^>   pending  01-copy-coalesced"
keys j
wait_for "^>   pending  02-transpose-tiled"
keys Enter
wait_for "^tilecamp  lesson 2: .*02-transpose-tiled"
wait_for_words "On 02-transpose-tiled: open exercises/02-transpose-tiled/kernel.cu in your editor."
grep -q '"current": "02-transpose-tiled"' "$WORK/.tilecamp/progress.json" || fail "the jump is not recorded"
# k twice and Enter go back; x in the list offers to reset the selected exercise, asking first.
keys l
wait_for "^>   pending  02-transpose-tiled"
keys k k Enter
wait_for "^tilecamp  lesson 1: .*01-vector-add"
wait_for "PASSED  n moves on"
keys l
wait_for "^>   done     01-vector-add"
keys x
wait_for_words "Reset exercises/01-vector-add/kernel.cu to the original stub\? .*Press y to reset"
keys n
wait_for_words "Nothing was reset."

# Passing, then an edit that fails: pending again.
sed -i 's/if (i < n) //' "$WORK/$kernel"
wait_for "NOT YET"
expect "0/$exercises done"
keys q
wait_exit 0
echo "fixing while watching: hints, a failing edit, the fix, the list, pending again after a bad edit"
