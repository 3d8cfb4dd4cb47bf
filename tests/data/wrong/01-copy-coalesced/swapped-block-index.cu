// Wrong 01-copy-coalesced: swapping threadIdx.x and threadIdx.y, it swapped blockIdx.x and
// blockIdx.y too: on a matrix with more row tiles than column tiles the bottom rows are never
// written.
// expect: correctness "never written"

__global__ void copyMatrix(const float* in, float* out, int width, int height) {
  // A warp is one row of the block (threadIdx.y fixed, threadIdx.x = 0..31), so its lanes
  // touch 32 consecutive floats of one row of the matrix: 128 bytes, 4 sectors per request,
  // for the load and for the store alike.
  int col = blockIdx.y * 32 + threadIdx.x;  // MISTAKE: blockIdx.y counts the row tiles
  int row = blockIdx.x * 32 + threadIdx.y;  // MISTAKE: blockIdx.x counts the column tiles
  // Tiles on the right and bottom edges stick out of the matrix when width or height is not
  // a multiple of 32.
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
