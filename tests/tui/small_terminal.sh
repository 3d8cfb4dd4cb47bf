#!/usr/bin/env bash
# A verdict taller than the terminal: the header stays at the top, NOT YET and the keys at the
# bottom, and the verdict between them scrolls with j/k; even a 40x10 terminal shows where the
# learner is and whether the kernel passes.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
tui_rows=24
tui_cols=80
start_tilecamp watch 01-copy-coalesced
wait_for "^NOT YET"
expect "^tilecamp  lesson 1: Coalescing"
wait_for "^-- lines 1-[0-9]+ of [0-9]+ of the verdict: j/k or arrows scroll"
expect "q quit"
keys j j
wait_for "^-- lines 3-[0-9]+ of [0-9]+ of the verdict"
expect "^tilecamp  lesson 1: Coalescing"
keys k
wait_for "^-- lines 2-[0-9]+ of [0-9]+ of the verdict"
keys q
wait_exit 0

tui_rows=10
tui_cols=40
start_tilecamp watch 01-copy-coalesced
wait_for "^NOT YET"
expect "^tilecamp  lesson 1"
expect "q quit"
[ "$(screen | wc -l)" -le 10 ] || fail "more lines than the terminal has"
tmux -L "$tui_server" resize-window -t learner -x 100 -y 40  # room for the exit line
keys q
wait_exit 0
echo "small terminal: header and status pinned, the verdict scrolls; 40x10 still shows NOT YET"
