// pattern: cg::reduce(tile, int, cg::plus<int>()) over thread_block_tile<32>; on sm_80+ it lowers to redux.sync (cuda-samples reductionMultiBlockCG, cooperative_groups/reduce.h)
// issue-18 item: 1, 3
// run: tilecamp profile tests/data/public/cg_reduce_int.cu --kernel warpReduceInt --grid 2 --block 128 --arg i32[256]=iota --arg i32[8]=zeros
// diagnostics: none
// expect: out[w] == sum of in[32w .. 32w+31] == 1024*w + 496, i.e. out = 496, 1520, ..., 7664; no diagnostic
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void warpReduceInt(const int* in, int* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int total = cg::reduce(tile, in[i], cg::plus<int>());
  if (tile.thread_rank() == 0) out[i / 32] = total;
}
