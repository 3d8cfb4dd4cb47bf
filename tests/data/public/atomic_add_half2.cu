// pattern: atomicAdd on __half2 (one 32-bit word holding two halves) accumulating per-channel sums from every thread (mixed-precision accumulation with cuda_fp16.h's packed atomicAdd, sm_60+)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/atomic_add_half2.cu --kernel accumulateHalf2 --grid 2 --block 64 --arg u32[4]=zeros
// diagnostics: none
// expect: viewing out as 8 halves: out[2c] == 32.0 and out[2c+1] == 64.0 for c = 0..3 (each of 4 words gets 32 adds of (1.0, 2.0), exact in fp16); no diagnostic
#include <cuda_fp16.h>

__global__ void accumulateHalf2(__half2* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[i % 4], __halves2half2(__float2half(1.0f), __float2half(2.0f)));
}
