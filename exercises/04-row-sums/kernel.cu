// Exercise 04-row-sums: add up every row of a matrix without bank conflicts.
//
// `in` has `height` rows of `width` floats, row-major; write the sum of row r to out[r]. A
// thread per row that walks its row in global memory reads words `width` floats apart across
// the warp: 32 sectors per request (the baseline). So each block here owns 32 rows and crosses
// them 32 columns at a time: it loads a 32 x 32 tile into shared memory with lanes along a row
// of `in` (coalesced), and warp 0 adds the tile up, lane k taking row k. The checker launches
//     block = (32, 8)                     8 warps; each thread loads 4 rows of a tile
//     grid  = ceil(height / 32) blocks
// and compares with its own sums within a small relative error.
//
// The kernel below is correct, and its global loads are coalesced. But lane k reads row k of
// the tile, tile[k][c]: row k starts at word 32 k, so at each c all 32 lanes read bank c (the
// compiler merges four of those reads into one 16-byte load, which changes nothing: each
// request costs 32 wavefronts where 4 would do; `tilecamp profile` shows it). Make the sums come
// out the same with no bank conflicts (shared_ld_bank_conflicts = 0 and shared_st_bank_conflicts
// = 0), keeping the tile (lesson 4).
//
// The checker also wants the tile itself: shared memory that the block writes and then reads,
// and a __syncthreads(). A warp per row that adds its lanes with __shfl_down_sync needs no shared
// memory at all, and is a fine technique in general (lesson 7 teaches it); this exercise
// grades the tile.
//
// Check it with:  tilecamp check 04-row-sums

#define TILE 32  // rows per block, and columns per tile
#define ROWS 8   // blockDim.y

__global__ void rowSums(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE];  // tile[r][c]: row r, column c of the current 32 x 32 piece
  int tx = threadIdx.x, ty = threadIdx.y;
  int first_row = blockIdx.x * TILE;  // the block's rows: first_row .. first_row + 31

  float sum = 0.0f;  // used by warp 0 only: lane tx keeps the sum of row first_row + tx
  for (int col0 = 0; col0 < width; col0 += TILE) {
    // Load: all 8 warps, 4 rows each. Lanes run along a row of `in` (coalesced) and along a row
    // of the tile. Entries outside the matrix get 0, which adds nothing.
    int col = col0 + tx;
    for (int j = 0; j < TILE; j += ROWS) {
      int row = first_row + ty + j;
      tile[ty + j][tx] = (row < height && col < width) ? in[row * width + col] : 0.0f;
    }
    __syncthreads();

    // Add: warp 0's lane tx adds up row tx of the tile.
    if (ty == 0) {
      // TODO: tile[tx][c] is a column of the tile across the warp: the 32 lanes read 32 words
      // of bank c at once.
      for (int c = 0; c < TILE; ++c) sum += tile[tx][c];
    }
    __syncthreads();  // the next tile overwrites `tile`: warp 0 must be done reading it
  }

  if (ty == 0 && first_row + tx < height) out[first_row + tx] = sum;
}
