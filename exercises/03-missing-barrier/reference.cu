// Reference of 03-missing-barrier: the same reversal, straight from global memory. Slower (each
// warp reads a chunk in reverse order) but with no shared memory, so nothing to race on.

#define BLOCK 256

__global__ void reverseChunksReference(const float* in, float* out, int chunks) {
  int t = threadIdx.x;
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    out[base + t] = in[base + BLOCK - 1 - t];
  }
}
