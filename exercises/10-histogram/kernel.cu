// Exercise 10-histogram: a histogram privatized in shared memory.
//
// `data` holds n values, each below 256; bins[v] must grow by the number of elements equal to
// v (bins arrives holding counts already: add to them, do not overwrite them). The checker
// launches
//     block = 256 threads
//     grid  = min(ceil(n / 256), 528) blocks   (4 blocks for each of the H200's 132 SMs)
// so each thread walks the data with a grid-stride loop. Half of each input is uniform over
// the 256 values; in the other half 7 elements in 8 are one value, the case's "hot" bin.
//
// The kernel below is right, and slow: every element is an atomicAdd on global memory, done
// in L2, and the atomics on one address are done one after another there, however many SMs
// send them. With the hot half, millions of them queue on one word.
// Lesson 10: give each block its own 256 bins in shared memory, count there with shared-memory
// atomics (done in the SM, never leaving it), and at the end add each of the block's bins to
// the global one: 256 global atomics per block instead of one per element. Two barriers
// matter: the zeroed bins must be zero before any warp counts, and every warp must have
// counted before any thread reads a bin to merge it.
//
// Check it with:  tilecamp check 10-histogram

__global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  // TODO: a __shared__ array of 256 counters, zeroed by the block, then __syncthreads().

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&bins[data[i]], 1u);  // TODO: count in the block's shared bins instead
  }

  // TODO: __syncthreads(), then each thread adds some of the block's bins to `bins` with
  // atomicAdd (a bin the block never saw need not be added).
}
