#!/bin/bash
# The course's SGEMM ladder against cuBLAS on one GPU, in one process (bench/sgemm_ladder_gpu.cu):
# TFLOP/s and the share of cuBLAS's at 1024, 2048 and 4096, lesson 9's autotuning sweep and its
# wave-quantization table. With a tilecamp binary, also checks lesson 9's exercises on the GPU
# (stub, solution and wrong solutions: status, measured speedup, failed checks). Run on the GPU
# machine from the repository root; writes OUT_DIR/sgemm_ladder.txt (and sgemm_ladder_checks.txt)
# and prints them.
#   bench/sgemm_ladder_gpu.sh OUT_DIR [TILECAMP]
set -eu
out=${1:?usage: bench/sgemm_ladder_gpu.sh OUT_DIR [TILECAMP]}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/sgemm_ladder_gpu bench/sgemm_ladder_gpu.cu -lcublas
/tmp/sgemm_ladder_gpu | tee "$out/sgemm_ladder.txt"
[ $# -ge 2 ] || exit 0
tilecamp=$(realpath "$2") course=$(pwd)
export TILECAMP_ROOT="$course" NO_COLOR=1
for id in 09-sgemm-vectorized 09-sgemm-warptiled; do
  for file in "exercises/$id/kernel.cu" "solutions/$id/kernel.cu" tests/data/wrong/$id/*.cu; do
    json=$("$tilecamp" check "$id" --backend gpu --file "$file" --seed 1 --json 2>/dev/null | sed -n '/^{/,$p') || true
    REPORT="$json" python3 - "$id" "$file" <<'PY'
import json, os, sys
try:
    v = json.loads(os.environ["REPORT"])
except ValueError:
    sys.exit(print(f"{sys.argv[1]:<20} {sys.argv[2]:<60} no verdict"))
failed = [c["name"] for c in v["checks"] if c["status"] == "fail"]
speed = [c["message"] for c in v["checks"] if c.get("metric") == "speedup"]
print(f"{sys.argv[1]:<20} {sys.argv[2]:<60} {v['status']:<5} {(speed or [''])[0][:90]}  failed: {'; '.join(failed)[:80]}")
PY
  done
done | tee "$out/sgemm_ladder_checks.txt"
