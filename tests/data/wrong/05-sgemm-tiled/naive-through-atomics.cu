// Wrong 05-sgemm-tiled: the naive SGEMM reading its operands with atomicAdd(p, 0), which returns
// the old value and changes nothing. An atomic reads global memory like a load and is counted with
// the loads: 8 bytes per multiply-add, nothing reused.
// expect: performance global_ld_bytes_per_fma

#define TILE 32

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float product[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  bool inside = row < M && col < N;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    // MISTAKE: both operands of every multiply-add fetched from global memory.
    float a = inside ? atomicAdd(const_cast<float*>(A + row * K + k), 0.0f) : 0.0f;
    float b = inside ? atomicAdd(const_cast<float*>(B + k * N + col), 0.0f) : 0.0f;
    product[ty][tx] = a * b;
    __syncthreads();
    sum += product[ty][tx];
    __syncthreads();
  }
  if (inside) C[row * N + col] = sum;
}
