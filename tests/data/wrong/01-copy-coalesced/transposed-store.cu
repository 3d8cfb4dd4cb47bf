// Wrong 01-copy-coalesced: the store indexes `out` as if it were transposed, (col, row) instead of
// (row, col).
// expect: correctness "transposed index"

__global__ void copyMatrix(const float* in, float* out, int width, int height) {
  // A warp is one row of the block (threadIdx.y fixed, threadIdx.x = 0..31), so its lanes
  // touch 32 consecutive floats of one row of the matrix: 128 bytes, 4 sectors per request,
  // for the load and for the store alike.
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 32 + threadIdx.y;
  // Tiles on the right and bottom edges stick out of the matrix when width or height is not
  // a multiple of 32.
  if (row < height && col < width) {
    out[col * height + row] = in[row * width + col];  // MISTAKE: out[col][row]
  }
}
