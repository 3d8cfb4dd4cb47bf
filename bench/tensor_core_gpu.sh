#!/bin/bash
# The tensor-core reference outputs: tests/data/h200-tensor-core.cu's kernels run on a GPU (mma.sync
# in seven shapes and types, ldmatrix, movmatrix, WMMA), written as raw 32-bit words. The files in
# tests/data/h200-tensor-core-{mma,wmma}.bin came from an H200 (driver 580.159.04, nvcc 13.0) by:
#   bench/tensor_core_gpu.sh OUT_DIR      (on the GPU machine, from the repository root)
set -eu
out=${1:?usage: bench/tensor_core_gpu.sh OUT_DIR}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -arch=sm_90 -O2 -o /tmp/tensor_core_gpu tests/data/h200-tensor-core.cu
/tmp/tensor_core_gpu "$out"
mv "$out/mma_forms.bin" "$out/h200-tensor-core-mma.bin"
mv "$out/wmma_forms.bin" "$out/h200-tensor-core-wmma.bin"
