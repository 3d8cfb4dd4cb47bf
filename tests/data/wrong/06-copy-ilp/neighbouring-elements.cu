// Wrong 06-copy-ilp: each thread copies four neighbouring floats. The loads are independent,
// but lane l reads float 4 l + k: a warp's request spans 512 bytes, 16 sectors for 4 used
// bytes of every 16.
// expect: performance global_ld_sectors_per_request

#define BLOCK_SIZE 256
#define ELEMENTS 4

__global__ void copyWide(const float* in, float* out, int n) {
  int first = (blockIdx.x * BLOCK_SIZE + threadIdx.x) * ELEMENTS;  // MISTAKE: a thread's own run
  float values[ELEMENTS];
#pragma unroll
  for (int k = 0; k < ELEMENTS; ++k) {
    int i = first + k;
    values[k] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < ELEMENTS; ++k) {
    int i = first + k;
    if (i < n) {
      out[i] = values[k];
    }
  }
}
