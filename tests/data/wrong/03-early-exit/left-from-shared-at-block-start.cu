// Wrong 03-early-exit: the left neighbour always comes from buffer[t - 1], so thread 0 of every
// block but the first reads before the start of `buffer`.
// expect: safety "out-of-bounds"
// The PTX reads `[%rd1+-4]` with %rd1 = 0: the 64-bit address 0xFFFFFFFFFFFFFFFC, byte -4 of shared
// memory (a bounds test written `address + bytes > size` wraps to 0 there and lets it through).

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  bool inside = i < n;  // false for the spare threads of the last block

  if (inside) buffer[t] = in[i];
  // Unconditional: the CUDA Programming Guide requires every thread of the block to arrive.
  __syncthreads();
  if (inside) {
    // buffer[t - 1] was stored by thread t - 1, which is inside too (it comes before t).
    float left = i > 0 ? buffer[t - 1] : 0.0f;  // MISTAKE: buffer[-1] when t = 0
    out[i] = buffer[t] - left;
  }
}
