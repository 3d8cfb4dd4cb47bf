// Wrong 10-histogram: the shared bins are counted with a plain increment: two threads with the
// same value both read the old count and both write it plus one, and one element is lost (the
// H200 gave wrong counts on the first public case). The emulator stops at the race between the
// warps' reads and writes of one bin.
// expect: safety "race"
#define BINS 256

__global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    local[data[i]] += 1;  // MISTAKE: not atomic
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
