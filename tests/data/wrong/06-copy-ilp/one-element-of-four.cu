// Wrong 06-copy-ilp: ELEMENTS raised to 4 and the body left as it was. The grid now has a
// quarter of the blocks, and each still copies one float a thread: three quarters of `out`
// are never written.
// expect: correctness "never written"

#define BLOCK_SIZE 256
#define ELEMENTS 4

__global__ void copyWide(const float* in, float* out, int n) {
  int i = blockIdx.x * BLOCK_SIZE * ELEMENTS + threadIdx.x;  // MISTAKE: one of ELEMENTS
  if (i < n) {
    out[i] = in[i];
  }
}
