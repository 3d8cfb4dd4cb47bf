// Wrong 02-transpose-tiled: the store phase reads tile[threadIdx.y][threadIdx.x], the same element
// the thread loaded, so the tiles move but their contents are not transposed.
// expect: correctness "elements of `out` are wrong"
// expect: safety "before any thread of the block wrote it"

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

  // This block writes tile (blockIdx.y, blockIdx.x) of `out`. threadIdx.x again runs along a
  // row, now a row of `out`, so the stores are coalesced too; the transposition happens in the
  // shared-memory read, where a strided access costs no extra sectors.
  int out_x = blockIdx.y * TILE_DIM + threadIdx.x;  // column in `out` (< height)
  int out_y = blockIdx.x * TILE_DIM + threadIdx.y;  // row in `out` (< width)
  // Its own guard, derived from the shape of `out`: with partial tiles it selects other
  // threads than the load's guard. The entries it reads, tile[tx][ty] with tx < height - by*T
  // and ty < width - bx*T, are exactly the ones that were loaded.
  if (out_x < height && out_y < width) {
    out[out_y * height + out_x] = tile[threadIdx.y][threadIdx.x];  // MISTAKE: indices not swapped
  }
}
