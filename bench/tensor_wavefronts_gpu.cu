// The host side of the ldmatrix/WMMA wavefront readings: tests/data/h200-tensor-wavefronts.cu
// holds the kernels and the list of cases (its main() launches each once and prints the case);
// this file only includes it, so that nvcc builds the same kernels the emulator's test runs.
//   nvcc -arch=sm_90 -O2 -I. -o tensor_wavefronts bench/tensor_wavefronts_gpu.cu
// bench/tensor_wavefronts_gpu.sh runs it under Nsight Compute.
#include "tests/data/h200-tensor-wavefronts.cu"
