#!/usr/bin/env bash
# Fixing 01-vector-add while tilecamp watches: hints one at a time, a first edit (saved by rename,
# as vim does) that still fails, the fix (written in place), the pass, the list with the exercise
# done, then an edit that breaks it again and shows it pending.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
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
expect "1/12 done"

keys l
wait_for "^Progress  \[##-+\]  1/12 exercises done"
expect "^> done     01-vector-add +Vector add  <- you are here"
expect "^  pending  01-copy-coalesced"
keys q
wait_for "PASSED  n moves on"

# Passing, then an edit that fails: pending again.
sed -i 's/if (i < n) //' "$WORK/$kernel"
wait_for "NOT YET"
expect "0/12 done"
keys q
wait_exit 0
echo "fixing while watching: hints, a failing edit, the fix, the list, pending again after a bad edit"
