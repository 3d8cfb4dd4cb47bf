// Wrong 03-missing-barrier: only the write-after-read barrier at the end of the trip: threads read
// `buffer` before the other warps have stored the chunk.
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
    // MISTAKE: no barrier here: the read below takes elements other warps have not stored.
    out[base + t] = buffer[BLOCK - 1 - t];
    // Write-after-read: a warp that runs ahead would store the next chunk into `buffer` while a
    // slower warp still reads this one. Wait until every warp has read.
    __syncthreads();
  }
}
