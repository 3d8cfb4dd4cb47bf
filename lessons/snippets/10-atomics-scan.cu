// Lesson 10: atomics, histograms and scan.
#define FULL_MASK 0xffffffffu
#define BINS 256

// example-begin histogram-global
// Every element is one atomicAdd on its bin in global memory (all values
// are below BINS). Right, and as slow as the busiest bin.
__global__ void histogramGlobal(const unsigned* data, unsigned* bins, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&bins[data[i]], 1u);
  }
}
// example-end histogram-global

// Privatized: each block counts in its own bins in shared memory, then adds
// each of them to the global bins once. The lesson shows the counting loop;
// the zeroing, the merge and their barriers are exercise 10-histogram's.
__global__ void histogramShared(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  // example-begin histogram-shared
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[data[i]], 1u);  // done in the SM, on the block's bins
  }
  // example-end histogram-shared
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}

// example-begin histogram-aggregated
// Warp-aggregated: the lanes holding the same value find each other with
// __match_any_sync, and the lowest of them adds their count alone.
__global__ void histogramAggregated(const unsigned* data, unsigned* bins,
                                    int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int lane = threadIdx.x % 32;
  int stride = gridDim.x * blockDim.x;
  int rounds_end = (n + 31) / 32 * 32;  // the whole warp goes round together
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rounds_end;
       i += stride) {
    bool valid = i < n;
    unsigned value = valid ? data[i] : BINS + lane;  // no match if invalid
    unsigned peers = __match_any_sync(FULL_MASK, value);
    int leader = __ffs(peers) - 1;
    if (valid && lane == leader) atomicAdd(&local[value], __popc(peers));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
// example-end histogram-aggregated

// example-begin counter-aggregated
// One counter, aggregated by hand: the lanes that get here elect the
// lowest as leader, which adds for all of them and hands out the slots.
__device__ int reserveSlot(int* counter) {
  unsigned active = __activemask();
  int lane = threadIdx.x % 32;
  int leader = __ffs(active) - 1;
  int first = 0;
  if (lane == leader) first = atomicAdd(counter, __popc(active));
  first = __shfl_sync(active, first, leader);
  return first + __popc(active & ((1u << lane) - 1));  // lanes below me
}
// example-end counter-aggregated

// Each positive element takes the next slot of `out` (in no fixed order).
__global__ void keepPositive(const float* in, float* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f) out[reserveSlot(count)] = in[i];
}

// example-begin warp-scan
// Kogge-Stone within a warp: after the step of `offset`, lane k holds the
// sum of the 2 * offset lanes that end at k (fewer near lane 0). Inclusive:
// lane k's sum counts its own v.
__device__ int warpInclusiveScan(int v) {
  int lane = threadIdx.x % 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    int left = __shfl_up_sync(FULL_MASK, v, offset);  // lane k - offset
    if (lane >= offset) v += left;  // lanes below offset have no left
  }
  return v;
}
// example-end warp-scan

// example-begin block-scan
// An inclusive scan of a block's elements: warps scan, warp 0 scans the
// warps' totals, each warp adds the totals before it. Two barriers.
__device__ int blockInclusiveScan(int v) {
  __shared__ int totals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int warps = blockDim.x / 32;
  v = warpInclusiveScan(v);
  if (lane == 31) totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < warps ? totals[lane] : 0;
    t = warpInclusiveScan(t);
    if (lane < warps) totals[lane] = t;
  }
  __syncthreads();
  return warp > 0 ? v + totals[warp - 1] : v;
}
// example-end block-scan

__global__ void blockScanDemo(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = blockInclusiveScan(i < n ? in[i] : 0);
  if (i < n) out[i] = v;
}

// example-begin device-scan
// A scan of the whole array in three launches (reduce, then scan):
// 1. each block writes the sum of its blockDim.x elements,
__global__ void tileSums(const int* in, int* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = blockInclusiveScan(i < n ? in[i] : 0);
  if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = v;
}
// 2. one block turns those sums into each tile's offset (an exclusive
//    scan; this one holds up to blockDim.x tiles),
__global__ void tileOffsets(int* sums, int tiles) {
  int t = threadIdx.x;
  int v = t < tiles ? sums[t] : 0;
  int inclusive = blockInclusiveScan(v);
  if (t < tiles) sums[t] = inclusive - v;
}
// 3. each block scans its tile again and adds its offset.
__global__ void tileScan(const int* in, const int* offsets, int* out,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = blockInclusiveScan(i < n ? in[i] : 0);
  if (i < n) out[i] = v + offsets[blockIdx.x];
}
// example-end device-scan
