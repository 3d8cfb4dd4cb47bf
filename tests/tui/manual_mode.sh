#!/usr/bin/env bash
# Manual mode, for folders where saves go unnoticed: nothing is checked until r is pressed.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
start_tilecamp watch --manual
wait_for "^Edit exercises/01-vector-add/kernel.cu: press r to check it after saving \(manual mode\).$"
wait_for "NOT YET"
cp "$WORK/solutions/01-vector-add/kernel.cu" "$WORK/$kernel"
sleep 1
expect "NOT YET"
keys r
wait_for "PASSED  n moves on to 01-copy-coalesced"
keys q
wait_exit 0
echo "manual mode: checked on r only"
