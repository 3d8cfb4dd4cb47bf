#!/bin/bash
# Atomics on the H200, in one go (run on the GPU machine from the repository root):
#   bench/atomics_gpu.sh TILECAMP OUT
# 1. builds bench/atomics_gpu.cu and lists each kernel's atomic SASS instructions;
# 2. times the access patterns of tests/data/h200-atomics.cu and 10-histogram's kernels on
#    uniform, skewed and half-and-half data (OUT/atomics_time.txt);
# 3. reads Nsight Compute's atomic counters on the small launches that
#    tests/test_emu_atomics.cpp emulates (OUT/atomics_ncu.csv);
# 4. checks lesson 10's stubs and solutions with --backend gpu (OUT/checks.txt: status and
#    measured speedup), and their wrong solutions (bench/exercises_gpu.sh).
set -u
tilecamp=$(realpath "$1") out=$2 course=$(pwd)
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export TILECAMP_ROOT="$course" NO_COLOR=1
nvcc -O3 -std=c++17 -arch=sm_90 -o "$out/atomics_gpu" bench/atomics_gpu.cu || exit 1
cuobjdump -sass "$out/atomics_gpu" | awk '/Function :/ {f=$3} /ATOM|RED|ATOMS|MATCH|CAS/ {print f, $2, $3}' |
  sort | uniq -c > "$out/atomics_sass.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$out/gpu.txt"
"$out/atomics_gpu" time | tee "$out/atomics_time.txt"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
metrics=$metrics,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
metrics=$metrics,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
timeout 100 ncu --clock-control none --metrics "$metrics" --csv "$out/atomics_gpu" counts > "$out/atomics_ncu.csv" 2> "$out/ncu_stderr.txt"
# What L2 receives (requests and sectors from L1) and the SASS instructions, for the record.
extra=smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum
extra=$extra,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum
extra=$extra,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum
timeout 60 ncu --clock-control none --metrics "$extra" --csv "$out/atomics_gpu" counts > "$out/atomics_ncu_l2.csv" 2>> "$out/ncu_stderr.txt"
ncu --query-metrics 2>/dev/null | grep -iE "atom|_red" > "$out/ncu_atom_metric_names.txt"
bench/exercises_gpu.sh "$tilecamp" 10-histogram 10-scan | tee "$out/checks.txt"
