// Kernels of the cost model's calibration corpus (bench/model_calibration.sh) that the course
// does not hold itself: strided access, a copy whose pointers are declared __restrict__, and two
// rungs of the SGEMM ladder beyond the course's register blocking (a column of 8 outputs per
// thread; an 8 x 8 block of outputs per thread with float4 loads). Written for tilecamp from the
// techniques' descriptions; every kernel takes sizes that are multiples of its tiles.

// a[i * stride] += 1 for i < n: the useful bytes are 8 per element whatever the stride.
__global__ void stridedAdd(float* a, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * stride] = a[i * stride] + 1.0f;
}

// Block 32 x 8, each thread 4 rows of a 32 x 32 tile; with __restrict__ the loads of a thread may
// all be in flight before its first store.
__global__ void copyRowsRestrict(const float* __restrict__ in, float* __restrict__ out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = in[(y + j) * n + x];
}

// 1-D register blocking: a 64 x 64 tile of C per block of 512 threads, each thread 8 outputs down
// a column; tiles of A (64 x 8) and B (8 x 64) in shared memory.
__global__ void sgemmColumns8(const float* a, const float* b, float* c, int n) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float tile_a[BM * BK];
  __shared__ float tile_b[BK * BN];
  const int thread_col = threadIdx.x % BN;
  const int thread_row = threadIdx.x / BN;  // 0..7: rows thread_row * TM .. + TM - 1
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float results[TM] = {};
  for (int k0 = 0; k0 < n; k0 += BK) {
    tile_a[(threadIdx.x / BK) * BK + threadIdx.x % BK] = a[(row0 + threadIdx.x / BK) * n + k0 + threadIdx.x % BK];
    tile_b[(threadIdx.x / BN) * BN + threadIdx.x % BN] = b[(k0 + threadIdx.x / BN) * n + col0 + threadIdx.x % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b_value = tile_b[k * BN + thread_col];
      for (int m = 0; m < TM; ++m) results[m] += tile_a[(thread_row * TM + m) * BK + k] * b_value;
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m) c[(row0 + thread_row * TM + m) * n + col0 + thread_col] = results[m];
}

// 2-D register blocking with float4 loads: a 128 x 128 tile of C per block of 256 threads, each
// thread an 8 x 8 block of outputs; A's tile stored transposed so both operands are read as rows.
__global__ void sgemmBlocks8x8(const float* a, const float* b, float* c, int n) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float tile_a[BK * BM];  // transposed: [k][m]
  __shared__ float tile_b[BK * BN];
  const int thread_row = threadIdx.x / (BN / TN), thread_col = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float results[TM][TN] = {};
  float a_values[TM], b_values[TN];
  for (int k0 = 0; k0 < n; k0 += BK) {
    // A's tile: 128 rows x 8 columns = 256 float4, one per thread, written transposed.
    const int a_row = threadIdx.x / 2, a_col = (threadIdx.x % 2) * 4;
    const float4 a4 = *reinterpret_cast<const float4*>(&a[(row0 + a_row) * n + k0 + a_col]);
    tile_a[(a_col + 0) * BM + a_row] = a4.x;
    tile_a[(a_col + 1) * BM + a_row] = a4.y;
    tile_a[(a_col + 2) * BM + a_row] = a4.z;
    tile_a[(a_col + 3) * BM + a_row] = a4.w;
    // B's tile: 8 rows x 128 columns = 256 float4.
    const int b_row = threadIdx.x / 32, b_col = (threadIdx.x % 32) * 4;
    *reinterpret_cast<float4*>(&tile_b[b_row * BN + b_col]) =
        *reinterpret_cast<const float4*>(&b[(k0 + b_row) * n + col0 + b_col]);
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int m = 0; m < TM; ++m) a_values[m] = tile_a[k * BM + thread_row * TM + m];
      for (int j = 0; j < TN; ++j) b_values[j] = tile_b[k * BN + thread_col * TN + j];
      for (int m = 0; m < TM; ++m) {
        for (int j = 0; j < TN; ++j) results[m][j] += a_values[m] * b_values[j];
      }
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m) {
    for (int j = 0; j < TN; j += 4) {
      *reinterpret_cast<float4*>(&c[(row0 + thread_row * TM + m) * n + col0 + thread_col * TN + j]) =
          make_float4(results[m][j], results[m][j + 1], results[m][j + 2], results[m][j + 3]);
    }
  }
}
