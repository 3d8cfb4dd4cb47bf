// Lesson 02, shared-memory tiling: the kernels the lesson shows and its "Try it" commands
// profile. Device code only (compiled with NVRTC); lessons/02-shared-memory-tiling.md quotes
// the marked regions and tests/test_lessons.cpp keeps the two identical.

#define TILE_DIM 32

// example-begin naive
// in: `height` rows of `width` floats. out: `in` turned a quarter turn
// clockwise, `width` rows of `height`: row y of `in` becomes column
// height - 1 - y of `out`.
__global__ void rotateNaive(const float* in, float* out, int width,
                            int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of `in`
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of `in`
  if (x < width && y < height) {
    // Lanes read a row of `in` (x + 0..31) and write a column of
    // `out`: x * height jumps `height` floats from lane to lane.
    out[x * height + (height - 1 - y)] = in[y * width + x];
  }
}
// example-end naive

// example-begin tiled
// One block of TILE_DIM x TILE_DIM threads per TILE_DIM x TILE_DIM tile.
__global__ void rotateTiled(const float* in, float* out, int width,
                            int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];  // one per block

  // 1. Load: lanes run along a row of `in`. Coalesced.
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < width && y < height) {
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  }

  // 2. Wait until the whole tile is in shared memory.
  __syncthreads();

  // 3. Store: a row of `out` is a column of `in`, read bottom to top.
  //    Lane tx takes row TILE_DIM - 1 - tx of the tile, so that lanes
  //    again run along a row, now a row of `out`.
  int r = TILE_DIM - 1 - threadIdx.x;               // row of the tile
  int in_y = blockIdx.y * TILE_DIM + r;             // and of `in`
  int out_y = blockIdx.x * TILE_DIM + threadIdx.y;  // row of `out`
  if (in_y < height && out_y < width) {
    out[out_y * height + (height - 1 - in_y)] = tile[r][threadIdx.y];
  }
}
// example-end tiled

#define RADIUS 3

// example-begin stencil-naive
// out[i] = mean of in[i - RADIUS .. i + RADIUS]; outside 0..n-1 counts 0.
__global__ void stencilNaive(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = i + k;
    if (j >= 0 && j < n) sum += in[j];  // 2 * RADIUS + 1 global loads
  }
  out[i] = sum / (2 * RADIUS + 1);
}
// example-end stencil-naive
