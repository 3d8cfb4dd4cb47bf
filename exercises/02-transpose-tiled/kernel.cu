// Exercise 02-transpose-tiled: transpose a matrix through a shared-memory tile.
//
// `in` has `height` rows of `width` floats; write its transpose to `out` (`width` rows of
// `height` floats), so that out[x * height + y] = in[y * width + x]. Both are row-major. The
// checker launches one block per TILE_DIM x TILE_DIM tile of `in`:
//     block = (TILE_DIM, BLOCK_ROWS)      BLOCK_ROWS is TILE_DIM unless you #define it
//     grid  = (ceil(width / TILE_DIM), ceil(height / TILE_DIM))
// (With BLOCK_ROWS < TILE_DIM each thread moves TILE_DIM / BLOCK_ROWS elements: lesson 4 does
// that. You do not need it here.)
//
// The code below is correct but slow: each warp reads one row of `in` (coalesced) and writes
// one COLUMN of `out`, so every store request touches 32 different 32-byte sectors. Make both
// the loads and the stores coalesced: at most 4 sectors per warp request.
//
// Check it with:  tilecamp check 02-transpose-tiled

#define TILE_DIM 32

__global__ void transposeTiled(const float* in, float* out, int width, int height) {
  // TODO: declare a TILE_DIM x TILE_DIM tile of floats in shared memory.

  int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column in `in`
  int y = blockIdx.y * TILE_DIM + threadIdx.y;  // row in `in`

  // TODO: instead of writing `out` here, copy in[y][x] into the tile (guard the partial tiles
  // at the right and bottom edges), then wait until the whole block has written its part.
  if (x < width && y < height) {
    out[x * height + y] = in[y * width + x];
  }

  // TODO: write the tile back transposed. The block that read tile (bx, by) of `in` writes
  // tile (by, bx) of `out`; let threadIdx.x run along a row of `out` so the stores are
  // coalesced, and read the tile with swapped indices.
}
