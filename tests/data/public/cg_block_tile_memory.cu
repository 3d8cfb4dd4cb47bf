// pattern: thread_block_tile<64> (a tile larger than a warp) built from this_thread_block(block_tile_memory<N>&), reduced with cg::reduce on floats; on sm_80+ the header reads %reserved_smem_offset_1 (cuda-samples / CG docs "block_tile_memory")
// issue-18 item: 1, 2
// run: tilecamp profile tests/data/public/cg_block_tile_memory.cu --kernel bigTileSum --grid 2 --block 128 --arg f32[256]=iota --arg f32[4]=zeros
// diagnostics: none
// expect: out[t] == sum of in[64t .. 64t+63] == 4096*t + 2016, i.e. out = {2016, 6112, 10208, 14304}; no diagnostic
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void bigTileSum(const float* in, float* out) {
  __shared__ cg::block_tile_memory<128> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float total = cg::reduce(tile, in[i], cg::plus<float>());  // float: shuffles, not redux
  tile.sync();
  if (tile.thread_rank() == 0) out[i / 64] = total;
}
