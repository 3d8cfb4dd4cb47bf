// pattern: thread_block_tile<16>: the two half-warps of one warp each sync and shuffle within their own tile (masks 0x0000ffff and 0xffff0000 in the same instruction) (CG docs, cuda-samples reductions using tile sizes < 32)
// issue-18 item: 1, 5
// run: tilecamp profile tests/data/public/two_tiles16_sync.cu --kernel halfWarpSums --grid 1 --block 64 --arg i32[64]=iota --arg i32[4]=zeros
// diagnostics: none
// expect: out[t] == sum of in[16t .. 16t+15] == 256t + 120: out = {120, 376, 632, 888}; no diagnostic
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void halfWarpSums(const int* in, int* out) {
  __shared__ int staged[64];
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  staged[threadIdx.x] = in[threadIdx.x];
  tile.sync();  // each half-warp only reads what its own tile wrote
  int v = staged[tile.meta_group_rank() * 16 + (tile.thread_rank() + 1) % 16];
  for (int offset = 8; offset > 0; offset /= 2) v += tile.shfl_xor(v, offset);
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = v;
}
