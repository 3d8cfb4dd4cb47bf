#!/usr/bin/env bash
# A long check never freezes the screen: while a slow kernel is being graded the screen counts
# the seconds; a new save cancels it and the fixed kernel's verdict comes at once; q during a
# check quits within a second, the terminal given back.
source "${BASH_SOURCE[0]%/*}/tui_lib.sh"
fresh_course
slow() {  # a correct vector add that idles through a million trips first: about a minute to emulate
  cat >"$WORK/$kernel" <<'CU'
__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float idle = 0.0f;
  for (int k = 0; k < 900000; ++k) idle += 1e-30f * k;
  if (i < n) c[i] = a[i] + b[i] + idle * 0.0f;
}
CU
}

start_tilecamp watch
wait_for "NOT YET"
slow
wait_for "checking exercises/01-vector-add/kernel.cu\.\.\. [0-9]+ s"
wait_for "checking exercises/01-vector-add/kernel.cu\.\.\. [2-9] s"  # the counter moves: the screen lives
# A save of the fix cancels the slow check; its verdict arrives long before the slow one could.
cp "$WORK/solutions/01-vector-add/kernel.cu" "$WORK/$kernel"
wait_for "PASSED  n moves on to 01-copy-coalesced" 10
expect_not "checking exercises"

slow
wait_for "checking exercises/01-vector-add/kernel.cu\.\.\. [0-9]+ s"
started=$(date +%s%N)
keys q
wait_exit 0
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
[ "$elapsed_ms" -lt 1500 ] || fail "q took ${elapsed_ms} ms to quit during a check"
pgrep -f "__sandbox" -u "$(id -u)" -a | grep -q "$WORK" && fail "the cancelled check left a sandbox running"
echo "long check: the screen counts, a save cancels and re-checks, q quits at once (${elapsed_ms} ms)"
