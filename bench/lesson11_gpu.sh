#!/bin/bash
# Lesson 11's GPU readings in one run (the device time is short): the tensor GEMM against the FP32
# rungs and the exercise's checks, the ldmatrix/WMMA wavefronts under Nsight Compute, and the
# accuracy table on the GPU (it must equal the emulator's). From the repository root:
#   bench/lesson11_gpu.sh TILECAMP OUT_DIR
# Results: bench/model/h200/tensor_gemm_gpu.txt, tensor_wavefronts/, tensor_accuracy_gpu.txt.
set -u
tilecamp=$(realpath "$1") out=${2:?usage: bench/lesson11_gpu.sh TILECAMP OUT_DIR}
mkdir -p "$out/tensor_wavefronts"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
timeout 150 bench/tensor_gemm_gpu.sh "$tilecamp" 4096 > "$out/tensor_gemm_gpu.txt" 2>&1
timeout 90 bench/tensor_wavefronts_gpu.sh "$out/tensor_wavefronts" > "$out/tensor_wavefronts.log" 2>&1
timeout 60 bench/tensor_accuracy.sh "$tilecamp" gpu > "$out/tensor_accuracy_gpu.txt" 2>&1
cat "$out/gpu.txt" "$out/tensor_gemm_gpu.txt" "$out/tensor_accuracy_gpu.txt"
tail -5 "$out/tensor_wavefronts.log"
