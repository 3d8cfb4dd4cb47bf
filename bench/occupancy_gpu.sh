#!/bin/bash
# Registers, shared memory and occupancy of every course kernel as the CUDA driver reports them,
# beside what tilecamp reads from NVRTC's cubin (tests/test_model_occupancy_h200.cpp holds tilecamp
# to the "cubin" rows), and the H200 figures of lesson 6. Run on the GPU machine from the
# repository root:
#   bench/occupancy_gpu.sh OUT_DIR [TILECAMP]
# Writes OUT_DIR/occupancy_gpu.tsv (bench/occupancy_gpu.cu: cuFuncGetAttribute and
# cuOccupancyMaxActiveBlocksPerMultiprocessor, for NVRTC's cubin and for the PTX through the
# driver's JIT), OUT_DIR/latency_hiding.txt (bench/latency_hiding_gpu.cu) and, given a tilecamp
# built for that machine, OUT_DIR/ncu_occupancy.txt: Nsight Compute's theoretical and achieved
# occupancy of three kernels run by `tilecamp profile --backend gpu`.
set -u
out=$1 tilecamp=${2:-}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH
nvcc --version | tail -1 >"$out/versions.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$out/versions.txt"

nvcc -std=c++17 -O2 bench/occupancy_gpu.cu -lcuda -lnvrtc -o "$out/occupancy_gpu"
files=()
for f in exercises/*/*.cu solutions/*/kernel.cu lessons/snippets/*.cu; do
  files+=("$f" "$(sha256sum "$f" | cut -c1-64)")
done
"$out/occupancy_gpu" "${files[@]}" >"$out/occupancy_gpu.tsv" 2>"$out/occupancy_gpu.err"
rm -f "$out/occupancy_gpu"

nvcc -std=c++17 -O2 -arch=sm_90 bench/latency_hiding_gpu.cu -o "$out/latency_hiding_gpu"
"$out/latency_hiding_gpu" >"$out/latency_hiding.txt" 2>&1
rm -f "$out/latency_hiding_gpu"

[[ -z "$tilecamp" ]] && exit 0
s=2048 se=$((2048 * 2048)) n=8192 e=$((8192 * 8192))
sgemm=(--arg "f32[$se]" --arg "f32[$se]" --arg "f32[$se]" --arg "i32:$s" --arg "i32:$s" --arg "i32:$s")
copy=(--arg "f32[$e]" --arg "f32[$e]" --arg "i32:$n" --arg "i32:$n")
metrics=launch__registers_per_thread,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active
: >"$out/ncu_occupancy.txt"
while IFS='|' read -r file kernel grid block args; do
  echo "== $file $kernel grid $grid block $block" >>"$out/ncu_occupancy.txt"
  # shellcheck disable=SC2086
  ncu --target-processes all --launch-count 1 --metrics "$metrics" \
    "$tilecamp" profile "$file" --kernel "$kernel" --grid "$grid" --block "$block" ${args} --backend gpu --no-sandbox \
    2>&1 | grep -E "launch__|sm__|==PROF==|rror" >>"$out/ncu_occupancy.txt"
done <<ROWS
solutions/05-sgemm-register-blocked/kernel.cu|sgemmRegisterBlocked|32,32|256|${sgemm[*]}
solutions/05-sgemm-tiled/kernel.cu|sgemmTiled|64,64|32,32|${sgemm[*]}
solutions/01-copy-coalesced/kernel.cu|copyMatrix|256,256|32,32|${copy[*]}
ROWS
