#!/usr/bin/env bash
# tilecamp viz sgemm in an 80x24 terminal: a frame stepped to with -> compared line for line with
# a captured one (viz_sgemm_80x24.txt: M=N=4, K=8, TILE=2, seed 1, frame 4, the second product of
# the first tile step); then b, t, +, space and q as a learner presses them; and a 100x40
# terminal with NO_COLOR, which has room for the kernel's source below the frame and no colour.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
expected="${BASH_SOURCE[0]%/*}/viz_sgemm_80x24.txt"

tui_rows=24
tui_cols=80
# A step every 100 s: nothing moves unless a key says so.
start_tilecamp viz sgemm --m 4 --n 4 --k 8 --tile 2 --seed 1 --speed 100000
wait_for "^SGEMM tiling  M=4 N=4 K=8 TILE=2  block \(0,0\) of 2x2  tile 1/4  step 1/84$"
expect "^playing: space pauses"
expect "^\[load\] > barrier > compute > barrier > store C      100000 ms a step$"
keys Right Right Right
wait_for "step 4/84$"
expect "^paused: space plays"
if ! diff -u "$expected" <(screen); then fail "the 80x24 frame differs from $expected (diff above)"; fi

keys b
wait_for "block \(1,0\) of 2x2  tile 1/4  step 22/84$"
keys t
wait_for "^thread \(0,1\) computes C\[0\]\[3\]$"
keys +
wait_for "store C      50000 ms a step$"
keys Space
wait_for "^playing: space pauses"
keys q
wait_exit 0

tui_rows=40
tui_cols=100
TUI_ENV="NO_COLOR=1" start_tilecamp viz sgemm --speed 100000
wait_for "the kernel \(sgemmTiled<2>\), this phase's lines marked"
if matches screen_with_escapes $'\e\\['; then fail "escape sequences on the screen despite NO_COLOR"; fi
expect ">  9     tileA\[ty\]\[tx\] = \(row < M"
keys Right Right
wait_for "step 3/84$"
expect "> 13       sum \+= tileA\[ty\]\[k\] \* tileB\[k\]\[tx\];"
keys q
wait_exit 0
echo "viz sgemm: the 80x24 frame as captured; b, t, +, space and q work; a larger terminal shows the source, NO_COLOR no colour"
