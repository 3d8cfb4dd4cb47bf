// Solution 07-block-sum: each warp adds its 32 values with shuffles, in registers; lane 0 of each
// warp leaves the warp's sum in shared memory; one __syncthreads(); warp 0 adds those sums with
// shuffles again. One barrier per warp, where the tree had 1 + log2(blockDim.x).
//
// The same with cooperative groups (#include <cooperative_groups.h> and
// <cooperative_groups/reduce.h>): `auto warp = cg::tiled_partition<32>(cg::this_thread_block());`
// then `v = cg::reduce(warp, v, cg::plus<float>());` for each loop below, and
// warp.thread_rank() / warp.meta_group_rank() for `lane` and `warp`.

#define FULL_MASK 0xffffffffu

// The sum of v over the warp's 32 lanes arrives in lane 0. Lane k adds lane k + offset; the
// lanes whose partner is past lane 31 get their own value back, and their sums are never read.
// All 32 lanes must execute every shuffle: the mask names them all.
__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];  // a block has at most 1024 / 32 warps
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * blockDim.x + t;

  // A thread past n stays and adds 0: a `return` here would leave lanes out of the shuffles.
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // warp 0 reads what the other warps' lane 0 wrote

  // `warp == 0` is the same for all 32 lanes of a warp, so warp 0 enters whole and its shuffles'
  // full mask is right. (`if (t < blockDim.x / 32)` would split warp 0: see lesson 7.)
  if (warp == 0) {
    v = warpSum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
