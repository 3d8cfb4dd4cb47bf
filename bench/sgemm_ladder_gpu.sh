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
bench/exercises_gpu.sh "$tilecamp" 09-sgemm-vectorized 09-sgemm-warptiled | tee "$out/sgemm_ladder_checks.txt"
