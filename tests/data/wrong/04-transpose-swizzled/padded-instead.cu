// Wrong 04-transpose-swizzled: the padded transpose of 04-transpose-padded: no bank conflicts, but
// through a 32 x 33 tile, which is what this exercise asks to do without.
// expect: performance shared_bytes_per_output

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeSwizzled(const float* in, float* out, int width, int height) {
  // MISTAKE: a padding column instead of a swizzle.
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}
