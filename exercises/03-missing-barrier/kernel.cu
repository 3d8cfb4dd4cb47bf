// Exercise 03-missing-barrier: put back the two barriers of a loop that reuses shared memory.
//
// Each block reverses `chunks` consecutive chunks of BLOCK floats, one chunk per trip round the
// loop, through one shared buffer: chunk c of block b is in[(b * chunks + c) * BLOCK ..], and
// element t of a chunk goes to position BLOCK - 1 - t of the same chunk of `out`. The checker
// launches
//     block = BLOCK threads (256)
//     grid  = `blocks` blocks, on buffers of blocks * chunks * BLOCK floats
//
// Thread t reads buffer[BLOCK - 1 - t], which a thread of another warp writes, and nothing
// orders the two: on a GPU the result depends on which warp runs first. tilecamp's emulator
// reports each such race with the two lines involved.
//
// Check it with:  tilecamp check 03-missing-barrier

#define BLOCK 256

__global__ void reverseChunks(const float* in, float* out, int chunks) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  for (int c = 0; c < chunks; ++c) {
    int base = (blockIdx.x * chunks + c) * BLOCK;
    buffer[t] = in[base + t];
    // TODO: read-after-write. The next line reads an element another warp stores just above:
    // no thread may read before every thread has stored.
    out[base + t] = buffer[BLOCK - 1 - t];
    // TODO: write-after-read. On the next trip, the line that stores into `buffer` overwrites
    // elements another warp may still be reading on the line above.
  }
}
