// Exercise 06-resident-warps: give every SM enough warps to wait on memory together.
//
// Copy a matrix of `height` rows of `width` floats (row-major) from `in` to `out`. The checker
// launches blocks of 32 x BLOCK_ROWS threads, one block for every 32 columns and BLOCK_ROWS rows:
//     block = (32, BLOCK_ROWS)
//     grid  = (ceil(width / 32), ceil(height / BLOCK_ROWS))
//
// As shipped a block is one warp that copies 32 floats of one row: coalesced and correct. But an
// SM holds at most 32 blocks at once, so it holds only 32 warps here, half of the 64 it could,
// and has half as many loads in flight as it could (tilecamp check prints the occupancy: limited
// by blocks). The checker wants the copy at least 1.4 times as fast as that on the emulator's
// model, 3 times on a GPU (where starting so many tiny blocks costs time of its own).
//
// TODO: let each block copy BLOCK_ROWS rows, one warp a row, with BLOCK_ROWS large enough that
// 32 blocks are no longer the limit. The row of a thread then depends on threadIdx.y too.
//
// Check it with:  tilecamp check 06-resident-warps

#define BLOCK_ROWS 1

__global__ void copyRows(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y;
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
