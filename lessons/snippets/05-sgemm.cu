// Lesson 05, SGEMM: the kernels the lesson shows and its "Try it" commands profile.
// C = A * B with A M x K, B K x N, C M x N, all row-major floats. Device code only (compiled
// with NVRTC); tests/test_lessons.cpp keeps lessons/05-sgemm.md identical to the marked
// regions.

// example-begin naive
// One thread per element of C; launch blocks of T x T threads on a
// grid of ceil(N / T) x ceil(M / T) blocks.
__global__ void sgemmNaive(const float* A, const float* B, float* C,
                           int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;  // lanes: along a row
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
      // A[row][k]: one address for a whole row of threads (broadcast).
      // B[k][col]: consecutive floats across the lanes (coalesced).
      sum += A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum;
  }
}
// example-end naive

// example-begin tiled
// Launch TILE x TILE threads per TILE x TILE block of C.
// This version assumes M, N and K are multiples of TILE.
template <int TILE>
__global__ void sgemmTiled(const float* A, const float* B, float* C,
                           int M, int N, int K) {
  __shared__ float tileA[TILE][TILE];  // no padding needed: see below
  __shared__ float tileB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // Each thread fetches ONE element of each tile; the block then
    // shares all 2 * TILE * TILE of them. Both loads are coalesced.
    tileA[ty][tx] = A[row * K + (t + tx)];
    tileB[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();  // both tiles complete
    for (int k = 0; k < TILE; ++k) {
      sum += tileA[ty][k] * tileB[k][tx];
    }
    __syncthreads();  // all reads done before the next tiles overwrite
  }
  C[row * N + col] = sum;
}
// example-end tiled

template __global__ void sgemmTiled<2>(const float*, const float*, float*, int, int, int);
template __global__ void sgemmTiled<16>(const float*, const float*, float*, int, int, int);
template __global__ void sgemmTiled<32>(const float*, const float*, float*, int, int, int);

// Register blocking in one dimension: a block computes a BM x BN block of C with
// BN * (BM / TM) threads, each thread TM consecutive elements of one column of C. The tiles
// are BM x BK of A and BK x BN of B; every thread loads one element of each per step.
// Assumes M, N, K multiples of BM, BN, BK, and BN * (BM / TM) == BM * BK == BK * BN.
template <int BM, int BN, int BK, int TM>
__global__ void sgemmRegisterBlocked(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float tileA[BM][BK];
  __shared__ float tileB[BK][BN];
  const int col_in_block = threadIdx.x % BN;
  const int row_group = threadIdx.x / BN;  // rows row_group * TM .. + TM - 1
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  // example-begin register-blocked
  float sums[TM] = {};  // TM outputs, in registers
  for (int t = 0; t < K; t += BK) {
    tileA[threadIdx.x / BK][threadIdx.x % BK] =
        a[(threadIdx.x / BK) * K + t + threadIdx.x % BK];
    tileB[threadIdx.x / BN][threadIdx.x % BN] =
        b[(t + threadIdx.x / BN) * N + threadIdx.x % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float b_k = tileB[k][col_in_block];  // one shared load...
      for (int m = 0; m < TM; ++m) {       // ...used TM times
        sums[m] += tileA[row_group * TM + m][k] * b_k;
      }
    }
    __syncthreads();
  }
  // example-end register-blocked
  for (int m = 0; m < TM; ++m) {
    const int row = blockIdx.y * BM + row_group * TM + m;
    C[row * N + blockIdx.x * BN + col_in_block] = sums[m];
  }
}

template __global__ void sgemmRegisterBlocked<64, 64, 8, 8>(const float*, const float*, float*, int, int, int);
