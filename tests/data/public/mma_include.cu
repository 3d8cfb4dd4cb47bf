// pattern: a file that includes <mma.h> (for nvcuda::wmma fragments) but whose launched kernel is plain SIMT code (SGEMM_CUDA, cuda-samples cudaTensorCoreGemm keep both in one file)
// issue-18 item: 1
// run: tilecamp profile tests/data/public/mma_include.cu --kernel scale --grid 1 --block 64 --arg f32[64]=iota --arg f32[64]=zeros
// diagnostics: none
// expect: compiles; out[i] == 2*i; no diagnostic
#include <mma.h>
using namespace nvcuda;

__global__ void scale(const float* in, float* out) {
  out[threadIdx.x] = 2.0f * in[threadIdx.x];
}
