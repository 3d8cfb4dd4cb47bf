// Wrong 06-resident-warps: BLOCK_ROWS raised, but the row still comes from blockIdx.y alone: the
// eight warps of a block all copy the same row, and seven rows of every eight are never written.
// expect: correctness "never written"

#define BLOCK_ROWS 8

__global__ void copyRows(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y;  // MISTAKE: threadIdx.y picks the row within the block
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
