// Wrong 05-sgemm-tiled: the whole loop over K, barriers included, sits inside
// `if (row < M && col < N)`: on partial tiles the threads outside C never reach the barriers, and
// never load their part of the tiles. The first partial case fails at the barrier: the threads
// outside C exit without reaching it (early-exit-barrier, an error in this exercise).
// expect: safety "without reaching the barrier"

#define TILE 32  // 1024 threads per block; global loads: 8 / 32 = 0.25 bytes per multiply-add

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // No padding needed: at a given k a warp (one row ty of the block) reads tileA[ty][k], one
  // word for all lanes (a broadcast), and tileB[k][0..31], a row: 1 wavefront each.
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];

  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;  // the row of C (and of A) this thread computes
  int col = blockIdx.x * TILE + tx;  // the column of C (and of B)

  // MISTAKE: the loop and its barriers only for the threads inside C.
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
      tileA[ty][tx] = t + tx < K ? A[row * K + t + tx] : 0.0f;
      tileB[ty][tx] = t + ty < K ? B[(t + ty) * N + col] : 0.0f;
      __syncthreads();
      for (int k = 0; k < TILE; ++k) {
        sum += tileA[ty][k] * tileB[k][tx];
      }
      __syncthreads();
    }
    C[row * N + col] = sum;
  }
}
