#!/bin/bash
# Where a tensor-core GEMM's time goes on a GPU: Nsight Compute's speed of light, compute workload
# and warp stall sections for one launch of each file's tensorGemm at M = N = K = SIZE, run through
# `tilecamp profile --backend gpu`. Run on the GPU machine from the repository root:
#   bench/tensor_gemm_ncu.sh TILECAMP SIZE FILE...
set -u
tilecamp=$(realpath "$1") n=$2
shift 2
export TILECAMP_ROOT=$PWD NO_COLOR=1 LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for file in "$@"; do
  threads=$(python3 -c "
import re,sys
d=dict(re.findall(r'^#define\s+(\w+)\s+(\S+)', open('$file').read(), re.M))
print(32*(int(d['BM'])//int(d['WM']))*(int(d['BN'])//int(d['WN'])))")
  grid=$(( (n + 127) / 128 ))
  echo "== $file (block $threads, grid $grid,$grid)"
  timeout 300 /usr/local/cuda/bin/ncu --clock-control none --launch-count 1 -k tensorGemm \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy \
    "$tilecamp" profile "$file" --kernel tensorGemm --grid "$grid,$grid" --block "$threads" --backend gpu --sample \
    --arg "f32[$((n * n))]" --arg "f32[$((n * n))]" --arg "f32[$((n * n))]=zeros" --arg "i32:$n" --arg "i32:$n" --arg "i32:$n" \
    2>&1 | grep -vE '^==PROF==|^\s*$' | sed -n '/Section: GPU Speed Of Light/,$p' | head -120
done
