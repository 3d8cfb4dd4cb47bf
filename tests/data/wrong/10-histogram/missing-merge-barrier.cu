// Wrong 10-histogram: no __syncthreads() between counting and merging: a thread may read a
// shared bin and add it to global memory while another warp is still counting into it.
// expect: safety "race"
#define BINS 256

__global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  // MISTAKE: no barrier here
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}
