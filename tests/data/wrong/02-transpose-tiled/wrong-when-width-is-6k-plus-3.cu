// Wrong 02-transpose-tiled: right except when width % 6 == 3, where the last row of `out` (the last
// column of `in`) is never written. Only such a width catches it; the hidden sizes include odd
// multiples of 3.
// expect: correctness "hidden case"

#define TILE_DIM 32

__global__ void transposeTiled(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < width && y < height) {
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  }

  __syncthreads();

  int out_x = blockIdx.y * TILE_DIM + threadIdx.x;
  int out_y = blockIdx.x * TILE_DIM + threadIdx.y;
  // MISTAKE: one row too few when width % 6 == 3.
  int rows = width % 6 == 3 ? width - 1 : width;
  if (out_x < height && out_y < rows) {
    out[out_y * height + out_x] = tile[threadIdx.x][threadIdx.y];
  }
}
