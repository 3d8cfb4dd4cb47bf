// Solution 06-resident-warps: blocks of 8 warps, so that the SM's 64 warp slots, not its 32
// block slots, are the limit.

// 32 x 8 = 256 threads: 8 blocks fill an SM's 64 warps, well under its 32 blocks. Any block of
// 64 threads or more does (2 warps x 32 blocks = 64 warps).
#define BLOCK_ROWS 8

__global__ void copyRows(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.x;
  // Warp threadIdx.y of the block copies row threadIdx.y of the block's BLOCK_ROWS rows.
  int row = blockIdx.y * BLOCK_ROWS + threadIdx.y;
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
