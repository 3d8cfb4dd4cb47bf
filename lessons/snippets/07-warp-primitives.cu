// Lesson 07, warp-level primitives and reductions: the kernels the lesson shows and its "Try it"
// commands profile, including the broken ones, whose diagnostics the lesson quotes. Device code
// only (compiled with NVRTC); tests/test_lessons.cpp keeps lessons/07-warp-primitives.md
// identical to the marked regions.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define BLOCK 256
#define FULL_MASK 0xffffffffu

// example-begin warp-sum
// The sum of `v` over the 32 lanes of a warp arrives in lane 0 (the other
// lanes end with partial sums). All 32 lanes must call it together.
__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(FULL_MASK, v, offset);  // lane k adds lane k+offset
  }
  return v;
}
// example-end warp-sum

// example-begin warp-sum-all
// The same with a butterfly: lane k adds lane k ^ offset, so every lane
// ends with the whole sum.
__device__ float warpSumAll(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(FULL_MASK, v, offset);
  }
  return v;
}
// example-end warp-sum-all

// One warp (launch 32 threads): out[lane] = the sum of in[0..31], through the butterfly.
__global__ void warpSumDemo(const float* in, float* out) {
  out[threadIdx.x] = warpSumAll(in[threadIdx.x]);
}

// example-begin block-tree
// Lesson 3's tree: out[b] = the sum of block b's BLOCK floats (launch
// BLOCK threads per block). 1 + log2(BLOCK) barriers: 9 for 256 threads.
__global__ void blockSumTree(const float* in, float* out, int n) {
  __shared__ float partial[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
// example-end block-tree

// example-begin block-shuffle
// The same sum with one barrier: each warp adds its 32 values with
// shuffles, lane 0 of each warp leaves the warp's sum in shared memory,
// and warp 0 adds those BLOCK / 32 sums with shuffles again.
__global__ void blockSumShuffle(const float* in, float* out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float v = i < n ? in[i] : 0.0f;  // past n: stay, and add 0
  v = warpSum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // every warp's sum is in shared memory
  if (warp == 0) {  // a whole warp: all 32 lanes take this branch
    v = lane < BLOCK / 32 ? warp_sums[lane] : 0.0f;
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
// example-end block-shuffle

// The whole array's sum in *total (which must start at 0): the block sum, then one atomicAdd per
// block.
__global__ void gridSumAtomic(const float* in, float* total, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(lane < BLOCK / 32 ? warp_sums[lane] : 0.0f);
    // example-begin grid-atomic
    if (lane == 0) atomicAdd(total, v);  // one atomic per block
    // example-end grid-atomic
  }
}

// example-begin early-return
// Wrong: the threads past n return, and the shuffles still name all 32.
__global__ void blockSumEarlyReturn(const float* in, float* out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  if (i >= n) return;
  float v = warpSum(in[i]);  // lane 0 reads lanes that have exited
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(lane < BLOCK / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
// example-end early-return

// example-begin branch-shuffle
// Wrong: only lanes 0-7 of warp 0 take the branch; the mask names 32.
__global__ void blockSumShuffleInBranch(const float* in, float* out,
                                        int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (t < BLOCK / 32) {
    v = warpSum(warp_sums[t]);
    if (t == 0) out[blockIdx.x] = v;
  }
}
// example-end branch-shuffle

// Right: the same branch, with a mask of the lanes in it and offsets that stay inside those 8 lanes.
__global__ void blockSumMasked(const float* in, float* out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  // example-begin masked
  unsigned mask = __ballot_sync(FULL_MASK, t < BLOCK / 32);  // 0x000000ff
  if (t < BLOCK / 32) {
    v = warp_sums[t];
    for (int offset = 4; offset > 0; offset /= 2) {
      v += __shfl_xor_sync(mask, v, offset);  // lane ^ 4, 2, 1: all < 8
    }
    if (t == 0) out[blockIdx.x] = v;
  }
  // example-end masked
}

// example-begin missing-barrier
// Wrong: warp 0 reads warp_sums before the other warps have written them.
__global__ void blockSumNoBarrier(const float* in, float* out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * BLOCK + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  if (warp == 0) {
    v = warpSum(lane < BLOCK / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
// example-end missing-barrier

// example-begin tiles
// blockSumShuffle in cooperative groups' names: a thread_block_tile<32> is
// a warp, and cg::reduce does the shuffles.
__global__ void blockSumTiles(const float* in, float* out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * BLOCK + block.thread_rank();
  float v = cg::reduce(warp, i < n ? in[i] : 0.0f, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = v;
  block.sync();  // __syncthreads()
  if (warp.meta_group_rank() == 0) {
    int k = warp.thread_rank();
    v = k < warp.meta_group_size() ? warp_sums[k] : 0.0f;
    v = cg::reduce(warp, v, cg::plus<float>());
    if (k == 0) out[blockIdx.x] = v;
  }
}
// example-end tiles

// example-begin warp-compact
// Each warp keeps the positive ones of its 32 floats, in order, at the
// front of its own 32 slots of `out`; counts[w] says how many it kept.
__global__ void compactWarps(const float* in, float* out, int* counts,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;  // false past n: those lanes take part, keep nothing
  unsigned kept = __ballot_sync(FULL_MASK, keep);  // bit k: lane k keeps
  unsigned below = kept & ((1u << lane) - 1);  // keepers before this lane
  if (keep) out[i - lane + __popc(below)] = x;
  if (lane == 0) counts[i / 32] = __popc(kept);
}
// example-end warp-compact

// example-begin vote
// How many warps of the grid hold a negative value? __any_sync gives every
// lane the same answer, so lane 0 alone can count its warp.
__global__ void countWarpsWithNegatives(const float* in, int* warps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool negative = in[i] < 0.0f;
  if (__any_sync(FULL_MASK, negative) && threadIdx.x % 32 == 0) {
    atomicAdd(warps, 1);
  }
}
// example-end vote

// A list of every positive element, in no particular order: one atomicAdd per kept element on
// the shared counter *total (which must start at 0).
__global__ void compactAtomicEach(const float* in, float* out, int* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < n ? in[i] : 0.0f;
  if (x > 0.0f) out[atomicAdd(total, 1)] = x;
}

// example-begin warp-aggregated
// The same list with one atomicAdd per warp: lane 0 reserves room for
// the whole warp's keepers and hands the first slot to the others.
__global__ void compactAtomicWarp(const float* in, float* out, int* total,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;
  unsigned kept = __ballot_sync(FULL_MASK, keep);
  int first = 0;
  if (lane == 0 && kept != 0) first = atomicAdd(total, __popc(kept));
  first = __shfl_sync(FULL_MASK, first, 0);  // lane 0's value, to all
  if (keep) out[first + __popc(kept & ((1u << lane) - 1))] = x;
}
// example-end warp-aggregated
