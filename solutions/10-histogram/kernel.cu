// Solution of 10-histogram: each block counts in its own bins in shared memory, then adds them
// to the global bins, 256 global atomics per block.
#define BINS 256

__global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();  // every bin is zero before any warp counts

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();  // every warp has counted before any bin is read

  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
