// Solution 06-copy-ilp: four independent loads a thread, all issued before the first store.

#define BLOCK_SIZE 256
#define ELEMENTS 4

__global__ void copyWide(const float* in, float* out, int n) {
  int first = blockIdx.x * BLOCK_SIZE * ELEMENTS + threadIdx.x;
  float values[ELEMENTS];
  // No store between the loads: none can wait for another, so a warp has ELEMENTS requests in
  // flight at once and an SM 4 x 8 KB, enough for DRAM. Element k is BLOCK_SIZE floats after
  // element k - 1: each load of a warp is 32 neighbouring floats, 4 sectors.
#pragma unroll
  for (int k = 0; k < ELEMENTS; ++k) {
    int i = first + k * BLOCK_SIZE;
    values[k] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < ELEMENTS; ++k) {
    int i = first + k * BLOCK_SIZE;
    if (i < n) {
      out[i] = values[k];
    }
  }
}
