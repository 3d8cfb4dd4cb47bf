// pattern: cg::tiled_partition<32>(this_thread_block()) then tile.shfl_down tree reduction, one atomicAdd per tile (cuda-samples reduction kernels, NVIDIA blog "Cooperative Groups")
// issue-18 item: 1
// run: tilecamp profile tests/data/public/cg_tiled_partition_shfl.cu --kernel tileSum --grid 4 --block 128 --arg i32[512]=iota --arg i32[1]=zeros
// diagnostics: none
// expect: out[0] == 130816 (sum of 0..511); no diagnostic
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tileSum(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
    v += tile.shfl_down(v, offset);
  }
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}
