// Wrong 03-missing-barrier: __syncwarp() instead of __syncthreads(): it orders the lanes of one
// warp, but thread t reads an element stored by a thread of another warp.
// expect: safety "shared-memory race"

#define BLOCK 256

__global__ void reverseChunks(const float* in, float* out, int chunks) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  // `chunks` is the same for every thread of the block, so every thread makes the same number
  // of trips and reaches every barrier.
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    buffer[t] = in[base + t];
    __syncwarp();  // MISTAKE: waits for this warp only; the element comes from another warp
    out[base + t] = buffer[BLOCK - 1 - t];
    __syncwarp();  // MISTAKE: waits for this warp only
  }
}
