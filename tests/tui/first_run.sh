#!/usr/bin/env bash
# First run: the welcome (what the course is, which backend grades, how to quit), Enter opens
# lesson 1 in the pager, q leaves it for the watch screen on 01-vector-add, whose stub fails with
# its out-of-bounds line highlighted; n and s are refused until it passes; q quits.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
# With tilecamp on the PATH, the parting message names it so; without, its full path (below).
TUI_ENV="PATH=$(dirname "$TILECAMP"):$PATH" start_tilecamp

wait_for "Welcome to tilecamp"
# As many as the course holds: lesson files, and exercises in its index.
lessons=$(find "$WORK/lessons" -maxdepth 1 -name '[0-9][0-9]-*.md' | wc -l)
exercises=$(grep -c '^id = ' "$WORK/exercises/course.toml")
expect_words "$lessons lessons, $exercises exercises"
expect_words "graded on tilecamp's emulator: no GPU was found here"
expect_words "Quit any time with q"
expect_words "Press Enter to read lesson 1 \(Coalescing\), or q to quit"
matches screen_with_escapes $'\e\\[1m\e\\[36mWelcome' || fail "the welcome's title is not bold cyan"

keys Enter
wait_for "^lesson 1: Coalescing  lines 1-39 of [0-9]+"
expect "^Lesson 1: Coalescing$"
expect "^════"
expect "^    __global__ void "
expect_not '```|<!--'
matches screen_with_escapes $'\e\\[1m\e\\[33m__global__' || fail "CUDA code is not highlighted"
keys Space
wait_for "lines 40-78 of"
keys G
wait_for "lines [0-9]+-[0-9]+ of [0-9]+ \(100%\)  END"

keys q
wait_for "NOT YET"
expect "^tilecamp  lesson 1: Coalescing  >  01-vector-add: Vector add +\[-{10}\] 0/$exercises done"
expect "FAIL  public case n=1000"
expect "every wrong element was never written"
expect "error: exercises/01-vector-add/kernel.cu:[0-9]+: out-of-bounds"
expect_words "\(it has 100 elements of 4 bytes, indices 0 to 99\) by thread \(100,0,0\)"
expect "^    > +[0-9]+ \|   c\[i\] = a\[i\] \+ b\[i\];"
expect "^Edit exercises/01-vector-add/kernel.cu: every save is checked.$"
expect_words "Now open exercises/01-vector-add/kernel.cu in your editor and follow its TODOs."
expect "^n next  h hint  l list  c all  v lesson  r re-check  s solution  x reset  q quit$"

keys n
wait_for_words "Not yet: 01-vector-add has not passed with your current kernel.cu"
keys s
wait_for_words "Not yet: the solution opens once your kernel passes"

keys q
wait_for_words "Progress saved. Run tilecamp to carry on with 01-vector-add."
wait_exit 0
grep -q '"welcome_seen": true' "$WORK/.tilecamp/progress.json" || fail "the welcome is not recorded as seen"
grep -q '"current": "01-vector-add"' "$WORK/.tilecamp/progress.json" || fail "the current exercise is not recorded"
echo "first run: welcome, lesson 1 paged, the failing stub explained, quit"
