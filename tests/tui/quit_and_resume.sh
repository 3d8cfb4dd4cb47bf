#!/usr/bin/env bash
# Quitting and resuming: a learner who passed 01-vector-add quits; the next `tilecamp` skips the
# welcome and resumes on it, passed; n moves on (never by itself), and the run after that resumes
# on 01-copy-coalesced.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
start_tilecamp
wait_for "Welcome to tilecamp"
keys Enter
wait_for "^lesson 1: Coalescing  lines"
keys q
wait_for "NOT YET"
cp "$WORK/solutions/01-vector-add/kernel.cu" "$WORK/$kernel"
wait_for "PASSED  n moves on to 01-copy-coalesced"
keys q
wait_exit 0

start_tilecamp
wait_for_words "Welcome back: you are on 01-vector-add \(lesson 1\). v shows the lesson again."
expect_not "Welcome to tilecamp"
wait_for "PASSED  n moves on to 01-copy-coalesced"
sleep 0.5
expect "01-vector-add: Vector add"  # a pass is never followed by a move on its own
keys n
wait_for "01-copy-coalesced: Coalesced matrix copy"
wait_for_words "On to 01-copy-coalesced: open exercises/01-copy-coalesced/kernel.cu in your editor."
wait_for_words "NOT YET correct on every case, but not yet fast enough"
keys q
wait_exit 0

start_tilecamp
wait_for_words "Welcome back: you are on 01-copy-coalesced \(lesson 1\)"
keys v
wait_for "^lesson 1: Coalescing  lines 1-"
keys q
wait_for "01-copy-coalesced: Coalesced matrix copy"
keys q
wait_exit 0
echo "quit and resume: resumed on the passed exercise, moved on only with n, resumed there"
