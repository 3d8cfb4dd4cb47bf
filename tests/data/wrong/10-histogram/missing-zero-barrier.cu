// Wrong 10-histogram: no __syncthreads() after zeroing the bins: a warp may count into a bin
// that the thread which zeroes it has not reached yet, and the zero then wipes the count.
// expect: safety "race"
#define BINS 256

__global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  // MISTAKE: no barrier here
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
