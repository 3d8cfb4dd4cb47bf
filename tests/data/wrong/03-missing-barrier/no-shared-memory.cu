// Wrong 03-missing-barrier: each thread reads its mirrored element straight from global memory.
// Correct and race-free, but it removes the buffer instead of ordering it: the exercise is about
// the two barriers a shared buffer in a loop needs.
// expect: performance "shared memory"
// expect: performance "__syncthreads"

#define BLOCK 256

__global__ void reverseChunks(const float* in, float* out, int chunks) {
  int t = threadIdx.x;
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    // MISTAKE: no buffer, so no barrier to learn.
    out[base + t] = in[base + BLOCK - 1 - t];
  }
}
