#!/bin/bash
# The GPU backend on a real GPU, as a learner and a grader use it:
#   every solution passes, every stub fails, a kernel that never ends is reported as a hang within
#   its limit and the next check still works, a wild store is reported as a fault, and a kernel
#   that keeps its output between launches fails, and a class graded on the GPU keeps each
#   student's hang or fault to that student.
# Exits 77 (CTest's skip code here) with a message where there is no usable GPU, as in CI.
#   gpu_checks.sh TILECAMP SOURCE_DIR WORK_DIR
set -u
tilecamp=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cp -r "$source/exercises" "$source/solutions" "$source/lessons" "$work/"
export TILECAMP_ROOT="$work" NO_COLOR=1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

probe=$("$tilecamp" check 01-vector-add --backend gpu --file "$source/solutions/01-vector-add/kernel.cu" --seed 1 2>&1)
if grep -q "no usable GPU" <<<"$probe"; then
  echo "SKIP: no usable GPU here, so the GPU backend's tests do not run: $(grep -o 'no usable GPU.*' <<<"$probe")"
  exit 77
fi

echo "== every solution passes on the GPU (the speedups are the H200 figures of docs/gpu-backend.md)"
for dir in "$source"/solutions/*/; do
  id=$(basename "$dir")
  start=$(date +%s.%N)
  out=$("$tilecamp" check "$id" --backend gpu --file "$dir/kernel.cu" --seed 1 --json 2>&1)
  status=$?
  seconds=$(awk "BEGIN { print $(date +%s.%N) - $start }")
  speed=$(python3 -c 'import json,sys
v = json.loads(sys.stdin.read())
for c in v["checks"]:
    if c.get("metric") == "speedup": print("threshold %g: %s" % (c["threshold"], c["message"].split(", at least")[0]))
' <<<"$(sed -n '/^{/,$p' <<<"$out")" 2>/dev/null)
  printf '%-28s exit %s  %5.1f s  %s\n' "$id" "$status" "$seconds" "$speed"
  [ $status -eq 0 ] || { echo "$out" | grep -B2 -A3 '"fail"\|"error"' | head -40; fail "the solution of $id does not pass on the GPU"; }
done

echo "== every stub fails on the GPU"
out=$("$tilecamp" check-all --backend gpu --seed 1 --json 2>&1)
status=$?
grep -E '^  \[' <<<"$out"
grep -q '"passed": 0,' <<<"$out" && [ $status -eq 1 ] || { grep -E '"(passed|failed|errors)"' <<<"$out"; fail "check-all of the stubs: exit $status"; }

echo "== a kernel that never ends is a hang, reported within its limit; the next check works"
start=$(date +%s)
out=$(TILECAMP_GPU_TIMEOUT=3 "$tilecamp" check 01-vector-add --backend gpu --file "$source/tests/fixtures/gpu/vector_add_spins.cu" --seed 1 2>&1)
status=$?
elapsed=$(($(date +%s) - start))
echo "$out" | grep -A2 "FAIL" | head -6
[ $status -eq 1 ] && grep -q "did not finish within 3 s on the GPU" <<<"$out" || { echo "$out"; fail "the hang was not reported"; }
[ $elapsed -lt 30 ] || fail "reporting the hang took $elapsed s"
"$tilecamp" check 01-vector-add --backend gpu --file "$source/solutions/01-vector-add/kernel.cu" --seed 2 >/dev/null 2>&1 \
  || fail "a check right after the hang did not pass"

echo "== a store far out of bounds is a fault"
out=$("$tilecamp" check 01-vector-add --backend gpu --file "$source/tests/fixtures/gpu/vector_add_wild_store.cu" --seed 1 2>&1)
status=$?
echo "$out" | grep -A2 "FAIL" | head -6
[ $status -eq 1 ] && grep -q "CUDA_ERROR_ILLEGAL_ADDRESS\|illegal" <<<"$out" || { echo "$out"; fail "the fault was not reported"; }

echo "== a kernel that keeps its output between launches fails the check after the timed runs"
out=$("$tilecamp" check 02-transpose-tiled --backend gpu --file "$source/tests/fixtures/gpu/transpose_remembers.cu" --seed 1 2>&1)
status=$?
echo "$out" | grep -A3 "after the timed runs" | head -6
[ $status -eq 1 ] && grep -q "FAIL  performance case, after the timed runs" <<<"$out" || { echo "$out"; fail "the cached output was not caught"; }

echo "== check --sanitize folds compute-sanitizer's findings in"
out=$("$tilecamp" check 03-missing-barrier --backend gpu --sanitize --seed 1 2>&1)
echo "status $?"; echo "$out" | tail -30
grep -q "compute-sanitizer memcheck" <<<"$out" || fail "no compute-sanitizer checks in the verdict"

echo "== profile --backend gpu prints the measured time next to the counters"
out=$("$tilecamp" profile "$source/solutions/02-transpose-tiled/kernel.cu" --kernel transposeTiled --grid 256,256 --block 32,32 \
      --arg 'f32[67108864]' --arg 'f32[67108864]=zeros' --arg i32:8192 --arg i32:8192 --backend gpu 2>&1)
grep "time_us" <<<"$out"
grep -q "measured_time_us" <<<"$out" || { echo "$out" | head -30; fail "profile printed no measured time"; }

echo "== grade --backend gpu: a class of three; one student's hang and another's fault stay theirs"
roster="$work/roster" reports="$work/reports"
for student in alice sam wil; do mkdir -p "$roster/$student/exercises/01-vector-add"; done
cp "$source/solutions/01-vector-add/kernel.cu" "$roster/alice/exercises/01-vector-add/kernel.cu"
cp "$source/tests/fixtures/gpu/vector_add_spins.cu" "$roster/sam/exercises/01-vector-add/kernel.cu"
cp "$source/tests/fixtures/gpu/vector_add_wild_store.cu" "$roster/wil/exercises/01-vector-add/kernel.cu"
start=$(date +%s)
out=$(TILECAMP_GPU_TIMEOUT=3 "$tilecamp" grade "$roster" --out "$reports" --backend gpu --exercises 01-vector-add --seed 1 2>&1)
status=$?
echo "$out" | grep -E '^  \[|^01-' ; echo "exit $status in $(($(date +%s) - start)) s"; cat "$reports/grades.csv"
[ $status -eq 0 ] || fail "grade --backend gpu exited $status"
grep -q '^alice,2,pass,2,2$' "$reports/grades.csv" || fail "alice's solution did not get 2 points on the GPU"
grep -q '^sam,0,fail,0,2$' "$reports/grades.csv" || fail "sam's hang is not a failure of his alone"
grep -q '^wil,0,fail,0,2$' "$reports/grades.csv" || fail "wil's fault is not a failure of his alone"
grep -q '"backend": "gpu"' "$reports/grades.json" || fail "grades.json does not say the GPU graded"
out=$("$tilecamp" check 02-transpose-tiled --backend gpu --file "$source/solutions/02-transpose-tiled/kernel.cu" --seed 1 --format gradescope 2>/dev/null)
grep -q '"score": 2,' <<<"$out" || { echo "$out" | head -20; fail "check --format gradescope on the GPU did not give 2 points"; }

echo
if [ $failures -eq 0 ]; then echo "GPU checks: all passed"; else echo "GPU checks: $failures failure(s)"; fi
[ $failures -eq 0 ]
