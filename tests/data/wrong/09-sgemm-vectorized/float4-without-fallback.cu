// Wrong 09-sgemm-vectorized: A's tile is loaded as a float4 without testing that the whole float4
// lies inside the row and that K is a multiple of 4: on odd sizes the load runs past the row (and
// past A) or starts at an address that is not 16-byte aligned.
// expect: safety "misaligned"

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // the depth of a step
#define TM 8    // rows of C per thread
#define TN 8    // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // 256

__global__ void __launch_bounds__(THREADS)
    sgemmVectorized(const float* A, const float* B, float* C, int M, int N, int K) {
  // tileA is A's tile transposed. Its rows are BM + 4 floats long: a thread stores its float4
  // of A as 4 values down a column, and the pad puts the two k of a warp's stores 16 banks
  // apart (with rows of 128 floats they would share banks: 2-way conflicts). 4, not 1, keeps
  // every row 16-byte aligned for the float4 reads.
  __shared__ __align__(16) float tileA[BK][BM + 4];
  __shared__ __align__(16) float tileB[BK][BN];
  const int tid = threadIdx.x;
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  // Threads form a 16 x 16 grid; thread (thread_row, thread_col) owns rows
  // 4 thread_row + {0..3} and 64 + 4 thread_row + {0..3}, and the same columns. A warp (two
  // thread rows, 16 thread columns) then reads 16 consecutive float4 of a row of tileB: 256
  // bytes, 2 wavefronts; contiguous 8 x 8 squares would put its float4 32 bytes apart, 4-way.
  const int thread_row = (tid / 16) * 4, thread_col = (tid % 16) * 4;
  // What this thread loads: row tid / 2 of A's tile, columns 4 (tid % 2) .. + 3, and row
  // tid / 32 of B's, columns 4 (tid % 32) .. + 3.
  const int a_row = tid / 2, a_col = (tid % 2) * 4;
  const int b_row = tid / 32, b_col = (tid % 32) * 4;
  // A float4 load needs a 16-byte aligned address: rows of K (or N) floats keep it only when
  // K (N) is a multiple of 4. Otherwise, and at the edges, the loads are element by element.
  const bool vector_a = (K % 4) == 0, vector_b = (N % 4) == 0;

  float sums[TM][TN] = {};

  for (int t = 0; t < K; t += BK) {
    float4 a;
    const int row = block_row + a_row, ka = t + a_col;
    if (row < M && ka < K) {
      // MISTAKE: a float4 whenever the row exists: past K's end, and misaligned when K is not
      // a multiple of 4.
      a = *reinterpret_cast<const float4*>(&A[row * K + ka]);
    } else {
      a.x = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
      a.y = (row < M && ka + 1 < K) ? A[row * K + ka + 1] : 0.0f;
      a.z = (row < M && ka + 2 < K) ? A[row * K + ka + 2] : 0.0f;
      a.w = (row < M && ka + 3 < K) ? A[row * K + ka + 3] : 0.0f;
    }
    tileA[a_col + 0][a_row] = a.x;  // transposed: down a column of tileA
    tileA[a_col + 1][a_row] = a.y;
    tileA[a_col + 2][a_row] = a.z;
    tileA[a_col + 3][a_row] = a.w;

    float4 b;
    const int kb = t + b_row, col = block_col + b_col;
    if (vector_b && kb < K && col + 3 < N) {
      b = *reinterpret_cast<const float4*>(&B[kb * N + col]);
    } else {
      b.x = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
      b.y = (kb < K && col + 1 < N) ? B[kb * N + col + 1] : 0.0f;
      b.z = (kb < K && col + 2 < N) ? B[kb * N + col + 2] : 0.0f;
      b.w = (kb < K && col + 3 < N) ? B[kb * N + col + 3] : 0.0f;
    }
    *reinterpret_cast<float4*>(&tileB[b_row][b_col]) = b;
    __syncthreads();  // both tiles complete

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      // Two float4 of A and two of B: 16 values for 64 multiply-adds.
      float av[TM], bv[TN];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float4 x = *reinterpret_cast<const float4*>(&tileA[k][thread_row + 64 * h]);
        const float4 y = *reinterpret_cast<const float4*>(&tileB[k][thread_col + 64 * h]);
        av[4 * h] = x.x, av[4 * h + 1] = x.y, av[4 * h + 2] = x.z, av[4 * h + 3] = x.w;
        bv[4 * h] = y.x, bv[4 * h + 1] = y.y, bv[4 * h + 2] = y.z, bv[4 * h + 3] = y.w;
      }
#pragma unroll
      for (int m = 0; m < TM; ++m) {
#pragma unroll
        for (int n = 0; n < TN; ++n) sums[m][n] += av[m] * bv[n];
      }
    }
    __syncthreads();  // everyone done with the tiles before the next step overwrites them
  }

  // Each row of a 4 x 4 square goes out as one float4 when it lies inside C and N is a
  // multiple of 4; otherwise element by element.
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    const int row = block_row + thread_row + 64 * (m / 4) + m % 4;
    if (row >= M) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = block_col + thread_col + 64 * h;
      const float* s = &sums[m][4 * h];
      if (vector_b && col + 3 < N) {
        *reinterpret_cast<float4*>(&C[row * N + col]) = make_float4(s[0], s[1], s[2], s[3]);
      } else {
        for (int j = 0; j < 4; ++j) {
          if (col + j < N) C[row * N + col + j] = s[j];
        }
      }
    }
  }
}
