// Wrong 04-transpose-padded: the padding adds a row (tile[TILE_DIM + 1][TILE_DIM]) instead of a
// column: every row still starts at a multiple of 32 words, and a column still lies in one bank.
// expect: performance shared_ld_bank_conflicts

#define TILE_DIM 32
#define BLOCK_ROWS 8  // 32 x 8 threads, 4 elements each: 4 independent loads in flight per thread

__global__ void transposePadded(const float* in, float* out, int width, int height) {
  // MISTAKE: one more row, not one more column: rows still start every 32 words.
  __shared__ float tile[TILE_DIM + 1][TILE_DIM];

  // Load: lanes run along a row of `in` (4 sectors) and along a row of the tile (1 wavefront).
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    }
  }
  __syncthreads();

  // Store: lanes run along a row of `out` (4 sectors) and down a column of the tile, which the
  // padding has spread over all 32 banks (1 wavefront).
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // now a column of `out`
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // and a row of `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) {
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}
