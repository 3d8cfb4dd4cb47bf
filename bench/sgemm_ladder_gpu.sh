#!/bin/bash
# The course's SGEMM ladder against cuBLAS on one GPU, in one process (bench/sgemm_ladder_gpu.cu):
# TFLOP/s and the share of cuBLAS's at 1024, 2048 and 4096. Run on the GPU machine from the
# repository root; writes OUT_DIR/sgemm_ladder.txt and prints it.
#   bench/sgemm_ladder_gpu.sh OUT_DIR
set -eu
out=${1:?usage: bench/sgemm_ladder_gpu.sh OUT_DIR}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/sgemm_ladder_gpu bench/sgemm_ladder_gpu.cu -lcublas
/tmp/sgemm_ladder_gpu | tee "$out/sgemm_ladder.txt"
