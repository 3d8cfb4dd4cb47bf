// Wrong 04-row-sums: the padding adds a row (tile[TILE + 1][TILE]) instead of a column: rows still
// start every 32 words, so lane k reading tile[k][c] still meets bank c 32 times.
// expect: performance shared_ld_bank_conflicts

#define TILE 32  // rows per block, and columns per tile
#define ROWS 8   // blockDim.y

__global__ void rowSums(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE + 1][TILE];  // MISTAKE: one more row, not one more column
  int tx = threadIdx.x, ty = threadIdx.y;
  int first_row = blockIdx.x * TILE;  // the block's rows: first_row .. first_row + 31

  float sum = 0.0f;  // used by warp 0 only: lane tx keeps the sum of row first_row + tx
  for (int col0 = 0; col0 < width; col0 += TILE) {
    // Load: all 8 warps, 4 rows each. Lanes run along a row of `in` (4 sectors per request) and
    // along a row of the tile (1 wavefront). Entries outside the matrix get 0, which adds nothing.
    int col = col0 + tx;
    for (int j = 0; j < TILE; j += ROWS) {
      int row = first_row + ty + j;
      tile[ty + j][tx] = (row < height && col < width) ? in[row * width + col] : 0.0f;
    }
    __syncthreads();

    // Add: warp 0's lane tx adds up row tx of the tile; at each c the lanes read banks
    // (tx + c) % 32, all different.
    if (ty == 0) {
      for (int c = 0; c < TILE; ++c) sum += tile[tx][c];
    }
    __syncthreads();  // the next tile overwrites `tile`: warp 0 must be done reading it
  }

  if (ty == 0 && first_row + tx < height) out[first_row + tx] = sum;
}
