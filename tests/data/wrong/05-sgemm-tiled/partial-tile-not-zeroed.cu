// Wrong 05-sgemm-tiled: entries of the tiles outside A or B are left as they are instead of set to
// 0: on the last, partial step along K the multiply-adds use values left over from the previous
// step, or, where K is less than a tile, values no thread wrote: the emulator stops at that read.
// expect: safety "before any thread of the block wrote it"

#define TILE 32  // 1024 threads per block; global loads: 8 / 32 = 0.25 bytes per multiply-add

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // No padding needed: at a given k a warp (one row ty of the block) reads tileA[ty][k], one
  // word for all lanes (a broadcast), and tileB[k][0..31], a row: 1 wavefront each.
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];

  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;  // the row of C (and of A) this thread computes
  int col = blockIdx.x * TILE + tx;  // the column of C (and of B)

  float sum = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // Each thread loads one element of each tile; lanes run along a row of A and of B.
    // MISTAKE: nothing stored outside A or B, so leftovers of the previous step remain.
    if (row < M && t + tx < K) tileA[ty][tx] = A[row * K + t + tx];
    if (t + ty < K && col < N) tileB[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();  // read-after-write: both tiles complete before anyone multiplies

    for (int k = 0; k < TILE; ++k) {
      sum += tileA[ty][k] * tileB[k][tx];
    }
    __syncthreads();  // write-after-read: all done multiplying before the next tiles overwrite
  }

  // Threads outside C ran the loop too (they loaded zeros and reached every barrier); only
  // now do they drop out.
  if (row < M && col < N) {
    C[row * N + col] = sum;
  }
}
