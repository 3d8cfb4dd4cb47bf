// pattern: 3-stage cp.async pipeline (cuda_pipeline.h __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior(stages-1)) then __syncthreads and a read of other threads' copied elements (cuda-samples MatrixMulAsyncCopyMultiStage, SGEMM double buffering): the correct control for cp_async_missing_wait.cu
// issue-18 item: 6
// run: tilecamp profile tests/data/public/cp_async_multistage_ok.cu --kernel stagedSum --grid 1 --block 64 --arg f32[512]=iota --arg f32[64]=zeros --arg i32:8
// diagnostics: none
// expect: out[t] == sum over k=0..7 of in[64k + 63 - t] == 2296 - 8t; no diagnostic
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
    __pipeline_wait_prior(kStages - 1);  // tile k has landed
    __syncthreads();
    acc += buf[k % kStages][kN - 1 - t];  // another thread's element of tile k
    __syncthreads();
  }
  out[t] = acc;
}
