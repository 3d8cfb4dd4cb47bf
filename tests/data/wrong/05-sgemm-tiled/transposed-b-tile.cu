// Wrong 05-sgemm-tiled: the tile of B is stored transposed, tileB[tx][ty], and read as
// tileB[tx][k]: the result is right, but at each k a warp reads a column of tileB, 32 words of one
// bank.
// expect: performance shared_ld_bank_conflicts

#define TILE 32  // 1024 threads per block; global loads: 8 / 32 = 0.25 bytes per multiply-add

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // MISTAKE (below): tileB is stored transposed and read down a column: 32-way conflicts.
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];

  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;  // the row of C (and of A) this thread computes
  int col = blockIdx.x * TILE + tx;  // the column of C (and of B)

  float sum = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // Each thread loads one element of each tile; lanes run along a row of A and of B, so both
    // loads are coalesced. Past the edge of A or B store 0, not nothing: the loop below always
    // adds TILE products, and a zero adds nothing where leftover data would.
    tileA[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    tileB[tx][ty] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();  // read-after-write: both tiles complete before anyone multiplies

    for (int k = 0; k < TILE; ++k) {
      sum += tileA[ty][k] * tileB[tx][k];
    }
    __syncthreads();  // write-after-read: all done multiplying before the next tiles overwrite
  }

  // Threads outside C ran the loop too (they loaded zeros and reached every barrier); only
  // now do they drop out.
  if (row < M && col < N) {
    C[row * N + col] = sum;
  }
}
