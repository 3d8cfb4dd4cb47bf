// pattern: cuda::pipeline<thread_scope_thread> double buffering (lowers to cp.async commit/wait_group only, no mbarrier: a control for the block-scope file): producer_acquire / memcpy_async / producer_commit, consumer_wait / consumer_release (CUDA Programming Guide "Asynchronous Data Copies using cuda::pipeline")
// issue-18 item: 3
// run: tilecamp profile tests/data/public/cuda_pipeline_thread_scope.cu --kernel pipelineSum --grid 1 --block 32 --arg f32[256]=iota --arg f32[32]=zeros
// diagnostics: none
// expect: out[t] == sum over k of in[32k + t] for k = 0..7 == 8t + 896; no diagnostic
#include <cuda/pipeline>

__global__ void pipelineSum(const float* in, float* out) {
  __shared__ float stage[2][32];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float acc = 0.0f;
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[0][t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  for (int k = 0; k < 8; ++k) {
    if (k + 1 < 8) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[(k + 1) % 2][t], &in[(k + 1) * 32 + t], sizeof(float), pipe);
      pipe.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<1>(pipe);  // stage k has landed (one newer may be in flight)
    if (k + 1 >= 8) pipe.consumer_wait();
    acc += stage[k % 2][t];
    pipe.consumer_release();
  }
  out[t] = acc;
}
