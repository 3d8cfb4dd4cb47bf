// pattern: two-phase reduction across the whole grid with cg::this_grid().sync() between the phases; needs a cooperative launch (cuda-samples reductionMultiBlockCG, conjugateGradientMultiBlockCG)
// issue-18 item: 1, 2, 3
// run: tilecamp profile tests/data/public/cg_grid_sync.cu --kernel gridSum --grid 4 --block 64 --arg i32[256]=iota --arg i32[4]=zeros --arg i32[1]=zeros --cooperative
// diagnostics: none
// expect: partial = {2016, 6112, 10208, 14304}, out[0] == 32640 (sum of 0..255); no diagnostic
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void gridSum(const int* in, int* partial, int* out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[64];
  s[threadIdx.x] = in[grid.thread_rank()];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();  // every block's partial is visible after this
  if (grid.thread_rank() == 0) {
    int total = 0;
    for (int b = 0; b < (int)gridDim.x; ++b) total += partial[b];
    out[0] = total;
  }
}
