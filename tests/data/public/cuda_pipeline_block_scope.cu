// pattern: block-scoped cuda::pipeline (pipeline_shared_state<thread_scope_block, 2>, make_pipeline(block, &state)) streaming 4 tiles through 2 stages with collective cuda::memcpy_async (CUDA Programming Guide "cuda::pipeline", multi-stage GEMMs)
// issue-18 item: 1, 3
// run: tilecamp profile tests/data/public/cuda_pipeline_block_scope.cu --kernel blockPipeline --grid 1 --block 64 --arg f32[256]=iota --arg f32[64]=zeros
// diagnostics: none
// expect: out[t] == sum over k=0..3 of in[64k + 63 - t] == 636 - 4t; no diagnostic
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blockPipeline(const float* in, float* out) {
  constexpr int stages = 2, tiles = 4, n = 64;
  __shared__ float buf[stages][n];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0.0f;
  int fetched = 0;
  for (int t = 0; t < tiles; ++t) {
    for (; fetched < tiles && fetched < t + stages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetched % stages], in + fetched * n, sizeof(float) * n, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[t % stages][n - 1 - threadIdx.x];  // another thread's element
    pipe.consumer_release();
  }
  out[threadIdx.x] = acc;
}
