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

# The pid of tilecamp in the pane (a child of the pane's shell).
tilecamp_pid() { pgrep -P "$(tmux -L "$tui_server" display -p -t learner '#{pane_pid}')" | head -n 1; }

# A frame larger than the terminal: said in a sentence, the keys still at the bottom; a resize
# to a terminal large enough redraws the frame at once (while playing, a step every 100 s).
tui_rows=24
tui_cols=80
start_tilecamp viz sgemm --m 32 --n 32 --k 64 --tile 16 --speed 100000
wait_for "^terminal too small for this frame: [0-9]+x[0-9]+ shows it, this one is 80x24"
expect "^playing: space pauses  -> step  b next block  \+/- speed  t next thread  q quit$"
tmux -L "$tui_server" resize-window -t learner -x 400 -y 100
wait_for "^SGEMM tiling  M=32 N=32 K=64 TILE=16  block \(0,0\) of 2x2  tile 1/4  step 1/" 2
expect_not "terminal too small"
# At 60x20 the sentence wraps and the keys are shortened, not cut.
tmux -L "$tui_server" resize-window -t learner -x 60 -y 20
wait_for "^terminal too small for this frame" 2
expect "^playing: space  -> step  b block  \+/-  t thread  q quit$"

# SIGINT from outside (raw mode turns Ctrl-C into a key, so this is another program's kill):
# the terminal restored, and the exit status of a death by SIGINT.
kill -INT "$(tilecamp_pid)"
wait_exit 130

# - never speeds up and + never slows down, whatever --speed said.
tui_rows=40
tui_cols=100
start_tilecamp viz sgemm --speed 100000
wait_for "store C      100000 ms a step$"
keys -
sleep 0.3
expect "store C      100000 ms a step$"
keys +
wait_for "store C      50000 ms a step$"
keys q
wait_exit 0
start_tilecamp viz sgemm --speed 10
wait_for "store C      10 ms a step|store C      10 ms a step"
keys Space +
sleep 0.3
expect "store C      10 ms a step$"
keys q
wait_exit 0
echo "viz sgemm: the 80x24 frame as captured; b, t, +, space and q work; a larger terminal shows the source, NO_COLOR no colour; too small a terminal says so; resize and SIGINT handled; +/- go the right way"
