// Wrong 04-column-sum: the stub's warp-per-column sum, padded with an extra row,
// `tile[TILE + 1][TILE]`, instead of an extra column: rows still start every 32 words, and a column
// still lies in one bank.
// expect: performance shared_ld_bank_conflicts

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
  // MISTAKE: one more row, not one more column: rows still start every 32 words.
  __shared__ float tile[TILE + 1][TILE];  // tile[r][c]: row r, column c of the current piece
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
    for (int c = ty; c < TILE; c += ROWS) {
      float column = warpSum(tile[tx][c]);
      if (tx == 0) sums[c] += column;
    }
    __syncthreads();  // the next tile overwrites `tile`: everyone must be done reading it
  }

  if (ty == 0 && col < width) out[col] = sums[tx];
}
