#!/usr/bin/env bash
# s after a pass, on a terminal 160 columns or wider: the solution beside the learner's file, line
# by line; a line that differs only in spaces and a comment sits beside its match, and a line the
# learner's file lacks sits across from a blank (marked + unless it is only a comment).
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
tui_cols=170
# The solution, with one line spaced out and commented, and its comment block removed.
sed -e 's|    c\[i\] = a\[i\] + b\[i\];|    c[i]  =  a[i] + b[i];   // mine|' "$WORK/solutions/01-vector-add/kernel.cu" |
  grep -v '^//' >"$WORK/$kernel"
start_tilecamp watch
wait_for "PASSED  n moves on"
keys s
wait_for "\(yours\) +\| solutions/01-vector-add/kernel.cu"
expect "c\[i\]  =  a\[i\] \+ b\[i\];   // mine +\|   +c\[i\] = a\[i\] \+ b\[i\];"
expect "^ +\|   // Solution 01-vector-add"  # a comment the learner's file lacks: across from a blank, unmarked
keys q
wait_for "PASSED  n moves on"
keys q
wait_exit 0
echo "solution side by side: aligned on what the code says, spaces and comments aside"
