// Wrong 03-missing-barrier: only the read-after-write barrier: on the next trip a fast warp
// overwrites `buffer` while a slow one still reads the previous chunk.
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
    // Read-after-write: thread t reads buffer[BLOCK - 1 - t], stored by a thread of another
    // warp (thread 0 by warp 7). Wait until every warp has stored its part of the chunk.
    __syncthreads();
    out[base + t] = buffer[BLOCK - 1 - t];
    // MISTAKE: no barrier here: the next trip's store can overwrite what others still read.
  }
}
