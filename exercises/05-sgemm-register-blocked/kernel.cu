// Exercise 05-sgemm-register-blocked: several outputs per thread, kept in registers.
//
// C = A B, with A of M x K, B of K x N and C of M x N floats, all row-major. A block computes a
// BM x BN block of C, walking along K with a BM x BK tile of A and a BK x BN tile of B in shared
// memory; each thread computes TM x TN elements of C. The checker launches
//     block = (BM / TM) * (BN / TN) threads, one dimension
//     grid  = (ceil(N / BN), ceil(M / BM))
// for any M, N and K, including sizes that are not multiples of the tiles, and compares with
// its own product within a small relative error. BM, BN, BK, TM and TN are yours to choose:
// keep the five #defines.
//
// The kernel below is correct but computes one output per thread (TM = TN = 1): at every k it
// reads two values from shared memory for a single multiply-add, and the tiled kernel of lesson
// 5 needs 1.5 shared-load wavefronts per warp-wide FMA instruction. The checker wants at most
// 0.7 (shared_ld_wavefronts_per_fma): make each value read from shared memory feed several
// multiply-adds.
//
// Check it with:  tilecamp check 05-sgemm-register-blocked

#define BM 32  // rows of C per block
#define BN 32  // columns of C per block
#define BK 32  // the depth of a step: tiles of BM x BK (A) and BK x BN (B)
#define TM 1   // rows of C per thread
#define TN 1   // columns of C per thread
#define THREADS ((BM / TM) * (BN / TN))  // the block the checker launches

__global__ void sgemmRegisterBlocked(const float* A, const float* B, float* C, int M, int N,
                                     int K) {
  __shared__ float tileA[BM][BK];
  __shared__ float tileB[BK][BN];
  int block_row = blockIdx.y * BM;  // the block's BM x BN block of C starts here
  int block_col = blockIdx.x * BN;
  // This thread's place in the (BM / TM) x (BN / TN) grid of threads of the block.
  int thread_row = threadIdx.x / (BN / TN);
  int thread_col = threadIdx.x % (BN / TN);

  // TODO: keep TM x TN sums in registers (a small local array whose indices are all
  // compile-time constants stays in registers).
  float sum = 0.0f;

  for (int t = 0; t < K; t += BK) {
    // The whole block loads both tiles, THREADS elements per round, lanes along the rows of A
    // and B; 0 outside the matrices. This part works for any BM, BN, BK, TM, TN.
    for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
      int r = i / BK, c = i % BK;
      tileA[r][c] = (block_row + r < M && t + c < K) ? A[(block_row + r) * K + t + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
      int r = i / BN, c = i % BN;
      tileB[r][c] = (t + r < K && block_col + c < N) ? B[(t + r) * N + block_col + c] : 0.0f;
    }
    __syncthreads();

    // TODO: at each k, load the TM values of A and the TN values of B this thread needs into
    // registers, then do all TM x TN multiply-adds from the registers.
    for (int k = 0; k < BK; ++k) {
      sum += tileA[thread_row][k] * tileB[k][thread_col];
    }
    __syncthreads();
  }

  // TODO: store all TM x TN outputs, each one guarded.
  int row = block_row + thread_row, col = block_col + thread_col;
  if (row < M && col < N) {
    C[row * N + col] = sum;
  }
}
