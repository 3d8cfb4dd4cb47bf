// Wrong 05-sgemm-register-blocked: the accumulators are declared without `= {}`: they start with
// whatever the registers held.
// expect: correctness "elements of `C` are wrong"
// In the PTX the first fma reads a register no instruction has written; the emulator starts every
// register with garbage (0xcd bytes), as a GPU would, so the sums come out wrong.

#define BM 64  // rows of C per block
#define BN 64  // columns of C per block
#define BK 8   // the depth of a step: tiles of 64 x 8 (A) and 8 x 64 (B), 2 KB each
#define TM 4   // rows of C per thread
#define TN 4   // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // 256

__global__ void sgemmRegisterBlocked(const float* A, const float* B, float* C, int M, int N,
                                     int K) {
  __shared__ float tileA[BM][BK];
  __shared__ float tileB[BK][BN];
  int block_row = blockIdx.y * BM;
  int block_col = blockIdx.x * BN;
  // The block's threads form a 16 x 16 grid. Thread (thread_row, thread_col) owns rows
  // thread_row + 16 m and columns thread_col + 16 n of the block (m, n = 0..3): strided, not
  // a contiguous 4 x 4 square, so that a warp (two values of thread_row, 16 consecutive values
  // of thread_col) reads 16 consecutive words of a row of tileB and 2 words of tileA at each
  // step: no bank conflicts, and its stores to C are 2 runs of 16 consecutive floats.
  int thread_row = threadIdx.x / (BN / TN);
  int thread_col = threadIdx.x % (BN / TN);

  // TM x TN accumulators. Every index below is a compile-time constant once the loops are
  // unrolled, so the compiler keeps all 16 in registers.
  float sums[TM][TN];  // MISTAKE: not set to 0

  for (int t = 0; t < K; t += BK) {
    // Both tiles, 512 elements each: 2 per thread. Lanes run along the rows of A and B
    // (coalesced) and along the rows of the tiles (no bank conflicts). Outside A or B: 0, so
    // that the partial tiles at the edges add nothing.
    for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
      int r = i / BK, c = i % BK;
      tileA[r][c] = (block_row + r < M && t + c < K) ? A[(block_row + r) * K + t + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
      int r = i / BN, c = i % BN;
      tileB[r][c] = (t + r < K && block_col + c < N) ? B[(t + r) * N + block_col + c] : 0.0f;
    }
    __syncthreads();  // both tiles complete

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      // TM + TN shared loads...
      float a[TM], b[TN];
#pragma unroll
      for (int m = 0; m < TM; ++m) a[m] = tileA[thread_row + m * (BM / TM)][k];
#pragma unroll
      for (int n = 0; n < TN; ++n) b[n] = tileB[k][thread_col + n * (BN / TN)];
      // ...feed TM x TN multiply-adds, all from registers.
#pragma unroll
      for (int m = 0; m < TM; ++m) {
#pragma unroll
        for (int n = 0; n < TN; ++n) sums[m][n] += a[m] * b[n];
      }
    }
    __syncthreads();  // everyone done with the tiles before the next step overwrites them
  }

  // Every thread ran every step (the barriers need them all); only the stores are guarded.
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    int row = block_row + thread_row + m * (BM / TM);
#pragma unroll
    for (int n = 0; n < TN; ++n) {
      int col = block_col + thread_col + n * (BN / TN);
      if (row < M && col < N) C[row * N + col] = sums[m][n];
    }
  }
}
