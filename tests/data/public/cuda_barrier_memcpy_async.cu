// pattern: cuda::barrier<thread_scope_block> in shared memory, init by one thread, cuda::memcpy_async of a tile completed on the barrier, then arrive_and_wait (CUDA Programming Guide "Asynchronous Barrier", SGEMM_CUDA kernel 12)
// issue-18 item: 1, 3
// run: tilecamp profile tests/data/public/cuda_barrier_memcpy_async.cu --kernel barrierCopy --grid 2 --block 64 --arg f32[128]=iota --arg f32[128]=zeros
// diagnostics: none
// expect: out[i] == in[blockStart + 63 - (i % 64)] + 1, i.e. each block reverses its 64 values and adds 1; no diagnostic
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void barrierCopy(const float* in, float* out) {
  __shared__ float tile[64];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const float* src = in + blockIdx.x * 64;
  cuda::memcpy_async(block, tile, src, sizeof(float) * 64, bar);
  bar.arrive_and_wait();  // the copy has landed for every thread
  out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x] + 1.0f;
}
