#!/bin/bash
# Lesson 7's figures on a GPU, in one run: the kernels of lessons/snippets/07-warp-primitives.cu
# timed by bench/warp_reductions_gpu.cu (built with nvcc), the broken ones run once and under
# compute-sanitizer, and the lesson's exercises graded with `tilecamp check --backend gpu`: each
# solution, each stub and each wrong solution, with the speedup the check measured. Prints
# everything; asserts nothing. Run from the repository root on the GPU machine:
#   bench/warp_reductions_gpu.sh TILECAMP [OUT_FILE]
# The results of a run on the H200 are in bench/model/h200/warp_reductions.txt.
set -u
tilecamp=$(realpath "$1")
out=${2:-/dev/stdout}
work=$(mktemp -d /tmp/tilecamp-bench-warp.XXXXXX)
trap 'rm -rf "$work"' EXIT
{
  echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "== nvcc -O3 -arch=sm_90 -o warp_reductions bench/warp_reductions_gpu.cu && ./warp_reductions"
  nvcc --version | tail -2
  if nvcc -O3 -arch=sm_90 -o "$work/warp_reductions" bench/warp_reductions_gpu.cu; then
    "$work/warp_reductions"
    echo "== ./warp_reductions wrong  (n = 1000: 4 blocks of 256, the last with 232 threads; every input 1)"
    "$work/warp_reductions" wrong
    for tool in synccheck racecheck; do
      echo "== compute-sanitizer --tool $tool ./warp_reductions wrong"
      compute-sanitizer --tool "$tool" "$work/warp_reductions" wrong 2>&1 | grep -v "^=========     \|^========= *$" | head -40
    done
  fi
  echo "== cuobjdump -sass: what ptxas made of compactAtomicEach's one atomicAdd per kept element"
  cuobjdump -sass "$work/warp_reductions" | awk '/Function : /{p = /compactAtomicEach/} p' |
    grep -E "VOTE|POPC|FLO|ATOM|RED|SHFL|MATCH" | sed 's|/\*[0-9a-f]*\*/||; s/ *;.*//'
  export TILECAMP_ROOT="$PWD" NO_COLOR=1
  for id in 07-block-sum 07-compact; do
    for file in solutions/$id/kernel.cu exercises/$id/kernel.cu tests/data/wrong/$id/*.cu \
                $(ls tests/data/wrong-undetected/$id/*.cu 2>/dev/null); do
      echo "== tilecamp check $id --backend gpu --seed 1 --file $file"
      "$tilecamp" check "$id" --backend gpu --seed 1 --file "$file" 2>&1 | grep -E "FAIL|ERROR|speedup|barriers_per|verdict|passed|failed|^  [a-z]|elements of" | head -14
    done
  done
} > "$out" 2>&1
