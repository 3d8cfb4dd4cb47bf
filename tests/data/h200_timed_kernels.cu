// The twelve kernels timed in /work/shared/calibration/h200-timings.md (transpose of an 8192x8192
// float matrix; square SGEMM at N=1024 and N=4096), written for tilecamp so that the cost model
// (checker/emu/cost_model.h) can be held to the measured ranking: tests/test_emu_cost_model.cpp.
// Every transpose takes (in, out, n) for an n x n matrix; every SGEMM takes (A, B, C, n).
// copyElements was not timed: the small-size check compares its two mappings.
#define TILE_DIM 32
#define BLOCK_ROWS 8

// Stand-in for cudaMemcpy device-to-device: one float4 per thread, 256 threads per block.
__global__ void copyVector(const float4* in, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * n / 4) out[i] = in[i];
}

// Block 32x8, each thread copies 4 rows of a 32x32 tile.
__global__ void copyRows(const float* in, float* out, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * n + x] = in[(y + j) * n + x];
}

// Block 32x32, one element per thread: lanes along a row (4 sectors per request) or down a
// column (32 sectors per request).
template <bool DOWN_COLUMNS>
__global__ void copyElements(const float* in, float* out, int n) {
  int x = blockIdx.x * TILE_DIM + (DOWN_COLUMNS ? threadIdx.y : threadIdx.x);
  int y = blockIdx.y * TILE_DIM + (DOWN_COLUMNS ? threadIdx.x : threadIdx.y);
  out[y * n + x] = in[y * n + x];
}

__global__ void transposeNaiveRows(const float* in, float* out, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int PAD>
__global__ void transposeTiledRows(const float* in, float* out, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Block 32x32, one element per thread.
__global__ void transposeNaive(const float* in, float* out, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  out[x * n + y] = in[y * n + x];
}

template <int PAD>
__global__ void transposeTiled(const float* in, float* out, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
  tile[threadIdx.y][threadIdx.x] = in[(blockIdx.y * TILE_DIM + threadIdx.y) * n + blockIdx.x * TILE_DIM + threadIdx.x];
  __syncthreads();
  out[(blockIdx.x * TILE_DIM + threadIdx.y) * n + blockIdx.y * TILE_DIM + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// One output per thread; a warp walks along a row of C (coalesced B and C). Block BxB.
__global__ void sgemmNaive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

template <int TILE>
__global__ void sgemmTiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
