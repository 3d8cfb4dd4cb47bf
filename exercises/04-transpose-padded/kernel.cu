// Exercise 04-transpose-padded: a conflict-free tiled transpose, by padding the tile.
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
// Make the column read conflict-free by padding the tile, without making the row accesses
// worse. The checker wants shared_ld_bank_conflicts = 0 and shared_st_bank_conflicts = 0, with
// the global loads and stores still at 4 sectors per request.
//
// Check it with:  tilecamp check 04-transpose-padded

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposePadded(const float* in, float* out, int width, int height) {
  // TODO: every row of this tile starts at a multiple of 32 words, so all 32 elements of a
  // column lie in the same bank. Change its row length so that they fall in 32 different
  // banks (and check that a row still does).
  __shared__ float tile[TILE_DIM][TILE_DIM];

  // Load: lanes run along a row of `in`, and along a row of the tile.
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    }
  }
  __syncthreads();

  // Store: lanes run along a row of `out`, and down a column of the tile.
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // now a column of `out`
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // and a row of `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) {
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}
