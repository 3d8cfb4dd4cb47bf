// Exercise 01-copy-coalesced: copy a matrix so that every warp touches 4 sectors per request.
//
// `in` and `out` hold `height` rows of `width` floats, row-major: element (row, col) is at
// [row * width + col]. Copy `in` to `out`. The checker launches one block of 32 x 32 threads
// per 32 x 32 tile of the matrix:
//     block = (32, 32)
//     grid  = (ceil(width / 32), ceil(height / 32))
//
// The code below is correct but slow. The 32 lanes of a warp differ in threadIdx.x, and here
// threadIdx.x picks the ROW: a warp walks down a column, its lanes `width` floats apart, so
// every load and every store request touches 32 sectors where 4 would do. The checker wants
// global_ld_sectors_per_request and global_st_sectors_per_request of at most 4.
//
// Check it with:  tilecamp check 01-copy-coalesced

__global__ void copyMatrix(const float* in, float* out, int width, int height) {
  // Block (blockIdx.x, blockIdx.y) copies the tile of columns blockIdx.x * 32 .. + 31 and
  // rows blockIdx.y * 32 .. + 31.
  // TODO: swap the roles of threadIdx.x and threadIdx.y, so that the lanes of a warp run
  // along a row: neighbouring lanes, neighbouring floats.
  int col = blockIdx.x * 32 + threadIdx.y;
  int row = blockIdx.y * 32 + threadIdx.x;
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
