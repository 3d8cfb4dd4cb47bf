// Wrong 04-column-sum: entries of the tile outside the matrix are left as they are instead of set
// to 0: the last, partial tile of rows keeps values of the previous tile, which are added again.
// expect: correctness "elements of `out` are wrong"

#define TILE 32  // columns per block, and rows per tile
#define ROWS 8   // blockDim.y

__global__ void columnSum(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE];  // tile[r][c]: row r, column c of the current 32 x 32 piece
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;

  float sum = 0.0f;  // used by warp 0 only: lane tx keeps the sum of column tx, in a register
  for (int row0 = 0; row0 < height; row0 += TILE) {
    // Load: all 8 warps, 4 rows each. Lanes run along a row of `in` (coalesced) and along a row
    // of the tile (1 wavefront). Entries outside the matrix get 0, which adds nothing.
    for (int j = 0; j < TILE; j += ROWS) {
      int row = row0 + ty + j;
      if (row < height && col < width) tile[ty + j][tx] = in[row * width + col];  // MISTAKE: no 0
    }
    __syncthreads();

    // Add: warp 0 walks down the tile. At each r its lanes read tile[r][0..31], one row: banks
    // 0..31, 1 wavefront per request.
    if (ty == 0) {
      for (int r = 0; r < TILE; ++r) sum += tile[r][tx];
    }
    __syncthreads();  // the next tile overwrites `tile`: warp 0 must be done reading it
  }

  if (ty == 0 && col < width) out[col] = sum;
}
