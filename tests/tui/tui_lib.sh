# Drives tilecamp as a learner would, in a terminal: a tmux session of its own (a private server,
# never the user's), keys sent with send-keys, the screen read with capture-pane. Each test script
# sources this file; CTest gives them:
#   TILECAMP    the tilecamp program
#   SOURCE_DIR  the repository (the course is copied from it; nothing is written there)
#   WORK        a folder of the build tree for this test's copy of the course
# A test exits 0 when it passes, 1 when it fails (printing the screen), 125 when tmux is missing.
set -euo pipefail

if ! command -v tmux >/dev/null 2>&1; then
  echo "tmux is not installed: skipping this terminal test (Debian: apt-get install tmux)"
  exit 125
fi
: "${TILECAMP:?set TILECAMP to the tilecamp program}" "${SOURCE_DIR:?set SOURCE_DIR}" "${WORK:?set WORK}"

unset TMUX NO_COLOR TILECAMP_NO_PAGER
# The servers' sockets go to a folder of this test's own, removed at the end.
TMUX_TMPDIR=$(mktemp -d)
export TMUX_TMPDIR
# One tmux server per start: a new server under the name of one that is still shutting down
# would die with it ("server exited unexpectedly").
tui_starts=0
tui_server="learner-0"
tui_rows=40
tui_cols=100
trap 'tmux -L "$tui_server" kill-server >/dev/null 2>&1 || true; rm -rf "$TMUX_TMPDIR"' EXIT

# A fresh copy of the course in $WORK: exercises, solutions, lessons, no progress.
fresh_course() {
  rm -rf "$WORK"
  mkdir -p "$WORK"
  cp -R "$SOURCE_DIR/exercises" "$SOURCE_DIR/solutions" "$SOURCE_DIR/lessons" "$WORK/"
}

# Starts `tilecamp ARGS...` in the course folder in a 100x40 terminal (extra environment through
# TUI_ENV). When it exits the pane stays, showing its exit status and whether the terminal was
# given back in its usual mode (icanon echo), not left raw.
start_tilecamp() {
  tmux -L "$tui_server" kill-server >/dev/null 2>&1 || true
  tui_starts=$((tui_starts + 1))
  tui_server="learner-$tui_starts"
  cat >"$TMUX_TMPDIR/run.sh" <<'SH'
"$@"
status=$?
modes=$(stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(icanon|echo)' | tr '\n' ' ')
echo "[tilecamp exited with status $status; terminal: ${modes% }]"
exec sleep 600
SH
  local command="env TERM=xterm-256color TILECAMP_ROOT='$WORK' TILECAMP_DEBOUNCE_MS=50 ${TUI_ENV:-} bash '$TMUX_TMPDIR/run.sh' '$TILECAMP' $*"
  tmux -L "$tui_server" -u new-session -d -s learner -x "$tui_cols" -y "$tui_rows" -c "$WORK" "$command"
}

keys() { tmux -L "$tui_server" send-keys -t learner "$@"; }
screen() { tmux -L "$tui_server" capture-pane -p -t learner; }
screen_with_escapes() { tmux -L "$tui_server" capture-pane -p -e -t learner; }

fail() {
  echo "FAILED: $*" >&2
  echo "---- the screen ----" >&2
  screen >&2 || true
  echo "--------------------" >&2
  exit 1
}

# The screen as one line, for prose that may wrap anywhere: lines joined, runs of spaces as one.
screen_words() { screen | tr '\n' ' ' | tr -s ' '; }

# Waits until the output of $1 (screen or screen_words) matches the extended regular expression
# $2, at most ${3:-15} seconds.
# (The screen is read whole before grep -q looks at it: with pipefail, a reader that grep leaves
# early would fail the pipeline.)
matches() { local text; text=$("$1"); grep -Eq -- "$2" <<<"$text"; }
wait_until() {
  local source="$1" pattern="$2" limit="${3:-15}" waited=0
  until matches "$source" "$pattern"; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt $((limit * 10)) ] || fail "waited ${limit}s for ($source): $pattern"
  done
}
wait_for() { wait_until screen "$@"; }
wait_for_words() { wait_until screen_words "$@"; }

# The screen matches / does not match now.
expect() { matches screen "$1" || fail "expected on the screen: $1"; }
expect_not() { ! matches screen "$1" || fail "not expected on the screen: $1"; }
expect_words() { matches screen_words "$1" || fail "expected on the screen (as words): $1"; }

# Waits until tilecamp has exited with status $1, leaving the terminal as it found it.
wait_exit() { wait_for "\[tilecamp exited with status $1; terminal: icanon echo\]"; }

kernel="exercises/01-vector-add/kernel.cu"
