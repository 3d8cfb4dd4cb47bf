// Wrong 04-column-sum: no barrier after warp 0 adds up the tile: the next tile's loads overwrite it
// while warp 0 still reads it.
// expect: safety "shared-memory race"

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
      tile[ty + j][tx] = (row < height && col < width) ? in[row * width + col] : 0.0f;
    }
    __syncthreads();

    // Add: warp 0 walks down the tile. At each r its lanes read tile[r][0..31], one row: banks
    // 0..31, 1 wavefront per request.
    if (ty == 0) {
      for (int r = 0; r < TILE; ++r) sum += tile[r][tx];
    }
    // MISTAKE: no barrier: the next tile's loads overwrite what warp 0 still reads.
  }

  if (ty == 0 && col < width) out[col] = sum;
}
