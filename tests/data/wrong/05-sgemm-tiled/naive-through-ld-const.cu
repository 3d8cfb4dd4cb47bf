// Wrong 05-sgemm-tiled: the naive SGEMM reading A and B with ld.const, hoping the constant cache
// hides the traffic. ld.const reads the constant bank, not global memory: on an H200 such a load
// of a global pointer returned zeros. The emulator stops the kernel at the first one.
// expect: safety "constant bank"

#define TILE 32

__device__ float load_const(const float* p) {
  float value;
  asm volatile("ld.const.f32 %0, [%1];" : "=f"(value) : "l"(p));
  return value;
}

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float partial[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  if (row < M && col < N) {
    // MISTAKE: ld.const of a global address.
    for (int k = 0; k < K; ++k) sum += load_const(A + row * K + k) * load_const(B + k * N + col);
  }
  partial[ty][tx] = sum;
  __syncthreads();
  if (row < M && col < N) C[row * N + col] = partial[ty][tx];
}
