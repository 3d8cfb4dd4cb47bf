// pattern: cg::reduce(tile, float, cg::plus<float>()) then cg::reduce(tile, float, cg::greater<float>()) over thread_block_tile<32>: shuffles, no redux (cooperative_groups/reduce.h; llm.c dev kernels use this for softmax/layernorm)
// issue-18 item: 1
// run: tilecamp profile tests/data/public/cg_reduce_float.cu --kernel warpSumMax --grid 1 --block 64 --arg f32[64]=iota --arg f32[4]=zeros
// diagnostics: none
// expect: out = {496, 31, 1520, 63} (warp 0: sum 0..31, max 31; warp 1: sum 32..63, max 63), exact in f32; no diagnostic
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void warpSumMax(const float* in, float* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const float v = in[threadIdx.x];
  const float sum = cg::reduce(tile, v, cg::plus<float>());
  const float biggest = cg::reduce(tile, v, cg::greater<float>());
  if (tile.thread_rank() == 0) {
    out[2 * tile.meta_group_rank()] = sum;
    out[2 * tile.meta_group_rank() + 1] = biggest;
  }
}
