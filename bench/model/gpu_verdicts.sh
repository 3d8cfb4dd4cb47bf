#!/bin/bash
# The verdict corpus on a GPU, as fast as timings allow: the kernels of exercises with no GPU
# speed threshold (nothing timed) are checked JOBS at a time first; then those with one, one at a
# time, so that no other work runs beside a timed kernel. Writes OUT_DIR/gpu_verdicts.jsonl (the
# format of bench/verdicts.sh) and OUT_DIR/gpu_verdicts.log.
#   bench/model/gpu_verdicts.sh TILECAMP OUT_DIR [JOBS]
# Then, here: bench/verdicts.sh build/runner/tilecamp /tmp/emu.jsonl emulator and
#   bench/model/agreement.py /tmp/emu.jsonl OUT_DIR/gpu_verdicts.jsonl
set -u
tilecamp=$(realpath "$1")
out=$(realpath "$2")
jobs=${3:-8}
source=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ids=$(sed -n 's/^id = "\(.*\)"/\1/p' "$source/exercises/course.toml")
: >"$work/untimed"
: >"$work/timed"
for id in $ids; do
  list=$work/untimed
  grep -q '^\[thresholds.gpu\]' "$source/exercises/$id/exercise.toml" && list=$work/timed
  {
    echo "solutions/$id/kernel.cu"
    echo "exercises/$id/kernel.cu"
    for wrong in "$source/tests/data/wrong/$id"/*.cu; do [ -e "$wrong" ] && echo "${wrong#"$source"/}"; done
  } >>"$list"
done

# One file per run: verdicts.sh checks the kernels its ONLY list names.
n=0
while read -r path; do
  n=$((n + 1))
  echo "$path" >"$work/only.$n"
done <"$work/untimed"
seq 1 "$n" | xargs -P "$jobs" -I{} bash "$source/bench/verdicts.sh" "$tilecamp" "$work/verdict.{}" gpu "$work/only.{}" \
  >"$out/gpu_verdicts.log" 2>&1
cat "$work"/verdict.* >"$out/gpu_verdicts.jsonl" 2>/dev/null
# Written where it lands, line by line: a run cut short keeps what it timed.
bash "$source/bench/verdicts.sh" "$tilecamp" "$out/gpu_timed.jsonl" gpu "$work/timed" >>"$out/gpu_verdicts.log" 2>&1
cat "$out/gpu_timed.jsonl" >>"$out/gpu_verdicts.jsonl" && rm "$out/gpu_timed.jsonl"
wc -l <"$out/gpu_verdicts.jsonl"
