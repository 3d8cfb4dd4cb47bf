// Solution 01-copy-coalesced: threadIdx.x, the index that differs between the lanes of a warp,
// drives the column: the last index of the array.

__global__ void copyMatrix(const float* in, float* out, int width, int height) {
  // A warp is one row of the block (threadIdx.y fixed, threadIdx.x = 0..31), so its lanes
  // touch 32 consecutive floats of one row of the matrix: 128 bytes, 4 sectors per request,
  // for the load and for the store alike.
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 32 + threadIdx.y;
  // Tiles on the right and bottom edges stick out of the matrix when width or height is not
  // a multiple of 32.
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
