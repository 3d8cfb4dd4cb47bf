// Exercise 04-column-sum: add up every column of a matrix without bank conflicts.
//
// `in` has `height` rows of `width` floats, row-major; write the sum of column c to out[c].
// Each block handles 32 columns, all rows, 32 rows at a time through a 32 x 32 tile in shared
// memory. The checker launches
//     block = (32, 8)                     8 warps; each thread loads 4 rows of a tile
//     grid  = ceil(width / 32) blocks
// and compares with its own sums within a small relative error.
//
// The kernel below is correct, and its global loads are coalesced. But to add up the tile, each
// warp takes one column at a time and lane k reads row k of it: tile[lane][c]. Row k starts at
// word 32 k, so all 32 lanes read bank c: 32 wavefronts per request on the line that adds
// (`tilecamp profile` shows it). Make the sums come out the same with no bank conflicts
// (shared_ld_bank_conflicts = 0 and shared_st_bank_conflicts = 0): pad the tile, or choose
// differently which lane reads what (lesson 4).
//
// Check it with:  tilecamp check 04-column-sum

#define TILE 32  // columns per block, and rows per tile
#define ROWS 8   // blockDim.y

// The sum of `value` over the 32 lanes of the warp, in lane 0.
__device__ float warpSum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

__global__ void columnSum(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE];  // tile[r][c]: row r, column c of the current 32 x 32 piece
  __shared__ float sums[TILE];        // the running sum of each of the block's 32 columns
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;

  if (ty == 0) sums[tx] = 0.0f;
  for (int row0 = 0; row0 < height; row0 += TILE) {
    // Load: lanes run along a row of `in` (coalesced) and along a row of the tile. Entries
    // outside the matrix get 0, which adds nothing.
    for (int j = 0; j < TILE; j += ROWS) {
      int row = row0 + ty + j;
      tile[ty + j][tx] = (row < height && col < width) ? in[row * width + col] : 0.0f;
    }
    __syncthreads();

    // Add: warp ty takes columns ty, ty + 8, ty + 16 and ty + 24, one at a time. Lane k gives
    // row k of the column, and the warp adds the 32 values.
    // TODO: tile[tx][c] is a column of the tile: the 32 lanes read 32 words of bank c.
    for (int c = ty; c < TILE; c += ROWS) {
      float column = warpSum(tile[tx][c]);
      if (tx == 0) sums[c] += column;
    }
    __syncthreads();  // the next tile overwrites `tile`: everyone must be done reading it
  }

  if (ty == 0 && col < width) out[col] = sums[tx];
}
