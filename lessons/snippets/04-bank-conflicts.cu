// Lesson 04, bank conflicts: the kernels the lesson shows and its "Try it" commands profile.
// Device code only (compiled with NVRTC); tests/test_lessons.cpp keeps
// lessons/04-bank-conflicts.md identical to the marked regions.

// example-begin stride
// One warp (launch 32 threads): lane reads 32-bit word lane * stride of a
// shared array, then writes what it read to out[lane].
__global__ void sharedStride(float* out, int stride) {
  __shared__ float words[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) words[i] = i;
  __syncthreads();
  out[threadIdx.x] = words[(threadIdx.x * stride) % (32 * 33)];
}
// example-end stride

// example-begin stride4
// The same with 128-bit elements: each lane reads a float4.
__global__ void sharedStride4(float4* out, int stride) {
  __shared__ float4 quads[32 * 9];
  for (int i = threadIdx.x; i < 32 * 9; i += 32) {
    quads[i] = make_float4(i, i, i, i);
  }
  __syncthreads();
  out[threadIdx.x] = quads[(threadIdx.x * stride) % (32 * 9)];
}
// example-end stride4

#define TILE_DIM 32
#define BLOCK_ROWS 8

// example-begin padded
// Launch TILE_DIM x BLOCK_ROWS threads per TILE_DIM x TILE_DIM tile:
// each thread moves TILE_DIM / BLOCK_ROWS = 4 elements.
__global__ void rotatePadded(const float* in, float* out, int width,
                             int height) {
  // +1: row r starts at word 33 * r, so a column's 32 words fall in
  // banks r % 32: all different.
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    }
  }
  __syncthreads();

  int r = TILE_DIM - 1 - threadIdx.x;               // row of the tile
  int in_y = blockIdx.y * TILE_DIM + r;             // and of `in`
  int out_y = blockIdx.x * TILE_DIM + threadIdx.y;  // row of `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (in_y < height && out_y + j < width) {
      // Lanes read a column of the tile: 32 rows, 32 banks.
      out[(out_y + j) * height + (height - 1 - in_y)] =
          tile[r][threadIdx.y + j];
    }
  }
}
// example-end padded

// The same kernel without the padding column: the column read is a 32-way bank conflict.
__global__ void rotateUnpadded(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  int r = TILE_DIM - 1 - threadIdx.x;
  int in_y = blockIdx.y * TILE_DIM + r;
  int out_y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (in_y < height && out_y + j < width) out[(out_y + j) * height + (height - 1 - in_y)] = tile[r][threadIdx.y + j];
  }
}

// example-begin copy
// The transpose's yardstick: the same blocks and four rows per thread,
// without the transpose. __restrict__ promises the compiler that `in` and
// `out` never overlap, so it may issue all four loads before any store.
__global__ void copyTile(const float* __restrict__ in,
                         float* __restrict__ out, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) {
      out[(y + j) * width + x] = in[(y + j) * width + x];
    }
  }
}
// example-end copy
