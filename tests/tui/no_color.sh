#!/usr/bin/env bash
# NO_COLOR on a terminal: the lesson and the watch screen carry no colour or style at all; the
# pager still pages.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
TUI_ENV="NO_COLOR=1" start_tilecamp lesson 1
wait_for "^lesson 1: Coalescing  lines 1-39 of"
expect "^Lesson 1: Coalescing$"
expect "^====================$"
if matches screen_with_escapes $'\e\\['; then fail "escape sequences on the screen despite NO_COLOR"; fi
keys q
wait_exit 0
TUI_ENV="NO_COLOR=1" start_tilecamp watch
wait_for "NOT YET"
if matches screen_with_escapes $'\e\\['; then fail "escape sequences on the watch screen despite NO_COLOR"; fi
keys q
wait_exit 0
echo "NO_COLOR: no escape sequences on a terminal"
