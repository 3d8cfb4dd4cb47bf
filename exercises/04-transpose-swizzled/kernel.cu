// Exercise 04-transpose-swizzled: a conflict-free tiled transpose without padding.
//
// `in` has `height` rows of `width` floats; write its transpose to `out` (`width` rows of
// `height` floats). This is lesson 4's tiled transpose: a block of TILE_DIM x BLOCK_ROWS
// threads moves one TILE_DIM x TILE_DIM tile, each thread TILE_DIM / BLOCK_ROWS elements. The
// checker launches
//     block = (TILE_DIM, BLOCK_ROWS)      BLOCK_ROWS is TILE_DIM unless you #define it
//     grid  = (ceil(width / TILE_DIM), ceil(height / TILE_DIM))
//
// The kernel is correct and its global accesses are coalesced, but the store phase reads a
// COLUMN of the tile, tile[threadIdx.x][...]: the 32 lanes of a warp read 32 words of one
// bank, 32 wavefronts per request where 1 would do.
//
// Make both shared-memory accesses conflict-free WITHOUT padding: keep tile[32][32] and store
// element (r, c) of the input tile at column c ^ r of row r (XOR), on the store into the tile
// and on the read out of it. The checker wants shared_ld_bank_conflicts = 0 and
// shared_st_bank_conflicts = 0, with the global loads and stores still at 4 sectors per
// request. Keep TILE_DIM at 32: the XOR trick relies on a row being exactly 32 banks wide.
//
// Check it with:  tilecamp check 04-transpose-swizzled

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeSwizzled(const float* in, float* out, int width, int height) {
  // Every row of this tile starts at a multiple of 32 words, so all 32 elements of a column
  // lie in the same bank. Keep the declaration: the fix is in where each element goes.
  __shared__ float tile[TILE_DIM][TILE_DIM];

  // Load: lanes run along a row of `in`, and along a row of the tile.
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      // TODO: this is element (r, c) = (threadIdx.y + j, threadIdx.x) of the tile. Store it at
      // column c ^ r of row r instead of column c.
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    }
  }
  __syncthreads();

  // Store: lanes run along a row of `out`, and down a column of the tile.
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // now a column of `out`
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // and a row of `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) {
      // TODO: this reads element (r, c) = (threadIdx.x, threadIdx.y + j) of the tile; it is
      // now at column c ^ r of row r.
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}
