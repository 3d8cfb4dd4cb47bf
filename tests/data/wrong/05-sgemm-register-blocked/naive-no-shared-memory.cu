// Wrong 05-sgemm-register-blocked: lesson 5's naive SGEMM in the exercise's launch shape (16 x 16
// outputs per block, one per thread). It reads no shared memory, so it has no shared-load
// wavefronts per FMA to speak of: the exercise asks for the tile and the speed, and it has neither.
// expect: performance "shared memory"
// expect: performance modelled_speedup

#define BM 16
#define BN 16
#define BK 8
#define TM 1
#define TN 1

__global__ void sgemmRegisterBlocked(const float* A, const float* B, float* C, int M, int N,
                                     int K) {
  int row = blockIdx.y * BM + threadIdx.x / BN;
  int col = blockIdx.x * BN + threadIdx.x % BN;
  if (row >= M || col >= N) return;
  // MISTAKE: no tile, no register blocking: both operands from global memory at every k.
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}
