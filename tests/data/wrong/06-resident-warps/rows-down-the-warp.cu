// Wrong 06-resident-warps: blocks of 32 x 8, but threadIdx.x picks the row and threadIdx.y the
// column: the lanes of a warp walk down a column, 32 sectors a request (lesson 1's mistake), and
// the rows past the block's eighth are never reached.
// expect: correctness "never written"

#define BLOCK_ROWS 8

__global__ void copyRows(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.y;              // MISTAKE: threadIdx.y along the row
  int row = blockIdx.y * BLOCK_ROWS + threadIdx.x;      // MISTAKE: threadIdx.x down the column
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
