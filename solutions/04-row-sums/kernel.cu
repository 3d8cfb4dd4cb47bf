// Solution 04-row-sums: one float of padding per row of the tile. Row k then starts at word
// 33 k, in bank k % 32, so when lane k reads tile[k][c] the 32 lanes read 32 different banks:
// 1 wavefront per request. The store, a row of the tile, still meets every bank once.
//
// Other fixes that keep tile[32][32]: an XOR swizzle of the column, as in 04-transpose-swizzled
// (store element (r, c) at tile[r][c ^ r] and read tile[tx][c ^ tx]); or, since a sum does not
// care about order, let lane k start its row at column k and read tile[k][(c + k) % 32].

#define TILE 32  // rows per block, and columns per tile
#define ROWS 8   // blockDim.y

__global__ void rowSums(const float* in, float* out, int width, int height) {
  // Element (r, c) lies in bank (r + c) % 32: a column (c fixed, r = 0..31) meets every bank
  // once. The price: 32 unused floats, 4224 bytes instead of 4096. (Rows of 33 floats are not
  // 16-byte aligned, so the compiler no longer merges four reads into one 16-byte load: 32
  // requests of 1 wavefront per tile, where the stub had 8 of 32.)
  __shared__ float tile[TILE][TILE + 1];
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
