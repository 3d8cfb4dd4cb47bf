// Wrong 02-transpose-tiled: the tile is filled, but each thread writes its own element straight
// back down a column of `out`, as the naive kernel does: the stores are still 32 sectors per
// request.
// expect: performance global_st_sectors_per_request

#define TILE_DIM 32

__global__ void transposeTiled(const float* in, float* out, int width, int height) {
  // One tile per block, shared by all TILE_DIM x TILE_DIM threads. (Reading its columns costs
  // 32-way bank conflicts; lesson 4 fixes that with one float of padding per row.)
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  // Consecutive threadIdx.x read consecutive floats of one row of `in`: 4 sectors per warp.
  if (x < width && y < height) {
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  }

  // Every element of the tile must be written before any thread reads one written by another
  // warp. Outside any `if`: every thread of the block must reach it.
  __syncthreads();

  // MISTAKE: the lanes of a warp still write down a column of `out`.
  if (x < width && y < height) {
    out[x * height + y] = tile[threadIdx.y][threadIdx.x];
  }
}
