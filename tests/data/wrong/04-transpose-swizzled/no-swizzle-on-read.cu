// Wrong 04-transpose-swizzled: the elements are stored at column c ^ r, but read back from column
// c: the read side forgot the mapping.
// expect: correctness "elements of `out` are wrong"
// expect: safety "before any thread of the block wrote it"

#define TILE_DIM 32   // must stay 32: c ^ r permutes 0..31 only because a row is 32 banks wide
#define BLOCK_ROWS 8

__global__ void transposeSwizzled(const float* in, float* out, int width, int height) {
  // No padding: every row stays 128 bytes, aligned, and the tile 4096 bytes.
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      // Element (r, c) = (threadIdx.y + j, threadIdx.x). For a fixed row r, c ^ r is a
      // permutation of 0..31: the warp's 32 lanes still write 32 different banks.
      int r = threadIdx.y + j;
      tile[r][threadIdx.x ^ r] = in[(y + j) * width + x];
    }
  }
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;  // now a column of `out`
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // and a row of `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) {
      // Element (r, c) = (threadIdx.x, threadIdx.y + j): a column of the matrix, c fixed and r
      // = 0..31 across the lanes. Its columns c ^ r are 32 different values, so the read meets
      // every bank once: 1 wavefront instead of 32.
      int c = threadIdx.y + j;
      out[(y + j) * height + x] = tile[threadIdx.x][c];  // MISTAKE: the element is at c ^ r
    }
  }
}
