#!/bin/bash
# Lesson 8's H200 figures in one run on the GPU machine, from the repository root:
#   bench/vector_access_gpu.sh TILECAMP OUT_DIR
# 1. bench/vector_access_gpu.cu's timings (scalar and float4, __restrict__, grid-stride SAXPY);
# 2. a float4 load from a 4-byte-aligned address, and what CUDA says;
# 3. the global loads and stores in every kernel's SASS;
# 4. Nsight Compute's speed-of-light section for two kernels of lesson 8;
# 5. lesson 8's exercises on the GPU backend: solutions, stubs and wrong solutions.
set -u
tilecamp=$1 out=$2
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64 NO_COLOR=1
nvcc -O3 -arch=sm_90 -o /tmp/vector_access bench/vector_access_gpu.cu || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/timings.txt"
/tmp/vector_access | tee -a "$out/timings.txt"
/tmp/vector_access misaligned | tee "$out/misaligned.txt"
cuobjdump -sass /tmp/vector_access | grep -E 'Function|LDG|STG' > "$out/sass.txt" 2>&1
ncu --section SpeedOfLight -k regex:'^(scaleFloat4Restrict|saxpyStride)$' -c 2 /tmp/vector_access once \
  > "$out/ncu_sol.txt" 2>&1
tail -60 "$out/ncu_sol.txt"
for id in 08-vector-scale 08-saxpy-latency; do
  [ -d "exercises/$id" ] || continue
  for file in "solutions/$id/kernel.cu" "exercises/$id/kernel.cu" tests/data/wrong/$id/*.cu; do
    echo "== $id $file"
    "$tilecamp" check "$id" --backend gpu --file "$file" --seed 1 2>&1 | grep -E 'FAIL|speedup|error|wrong|PASSED|FAILED' | cut -c1-300 | head -12
  done
done 2>&1 | tee "$out/checks.txt"
