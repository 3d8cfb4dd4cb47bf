// pattern: the same 3-stage cp.async pipeline with the wait one stage short (__pipeline_wait_prior(stages) instead of stages-1, i.e. tile k's wait is missing): tile k's copies are still in flight when it is read after __syncthreads (the MatrixMulAsyncCopyMultiStage bug: wrong on the H200 and flagged by racecheck)
// issue-18 item: 6
// run: tilecamp profile tests/data/public/cp_async_missing_wait.cu --kernel stagedSum --grid 1 --block 64 --arg f32[512]=iota --arg f32[64]=zeros --arg i32:8
// diagnostics: error race at line 25
// expect: error race at line 25 (the read of buf[k % kStages] overlaps the in-flight cp.async of line 20 / line 14 into the same bytes); exit 1
#include <cuda_pipeline.h>
constexpr int kStages = 3, kN = 64;

__global__ void stagedSum(const float* in, float* out, int tiles) {
  __shared__ float buf[kStages][kN];
  const int t = threadIdx.x;
  for (int s = 0; s < kStages; ++s) buf[s][t] = 0.0f;  // initialised: a stale read is not an uninitialised one
  __syncthreads();
  for (int s = 0; s < kStages - 1; ++s) {  // prefetch tiles 0 and 1
    __pipeline_memcpy_async(&buf[s][t], &in[s * kN + t], sizeof(float));
    __pipeline_commit();
  }
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int next = k + kStages - 1;
    if (next < tiles) __pipeline_memcpy_async(&buf[next % kStages][t], &in[next * kN + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(kStages);  // BUG: leaves tile k in flight
    __syncthreads();
    acc += buf[k % kStages][kN - 1 - t];  // another thread's element of tile k
    __syncthreads();
  }
  out[t] = acc;
}
