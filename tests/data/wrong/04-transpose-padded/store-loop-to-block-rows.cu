// Wrong 04-transpose-padded: the store loop runs j < BLOCK_ROWS instead of j < TILE_DIM, so each
// block writes only 8 of the 32 rows of its tile of `out`.
// expect: correctness "never written"

#define TILE_DIM 32
#define BLOCK_ROWS 8  // 32 x 8 threads, 4 elements each: 4 independent loads in flight per thread

__global__ void transposePadded(const float* in, float* out, int width, int height) {
  // Row r starts at word (TILE_DIM + 1) * r = 33 r, in bank r % 32, so element (r, c) lies in
  // bank (r + c) % 32. A column (c fixed, r = 0..31) meets every bank once: 1 wavefront. A row
  // (r fixed, c = 0..31) still does. The price: 32 unused floats, 4224 bytes instead of 4096.
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

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
  for (int j = 0; j < BLOCK_ROWS; j += BLOCK_ROWS) {  // MISTAKE: one round of 8 rows, not 4
    if (x < height && y + j < width) {
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}
