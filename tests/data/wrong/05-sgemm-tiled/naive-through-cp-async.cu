// Wrong 05-sgemm-tiled: the naive SGEMM with its loads routed through cp.async: every multiply-add
// still copies both operands from global memory (into the thread's own shared slots), so nothing is
// reused. cp.async reads global memory like any load and is counted as one: 8 bytes per multiply-add.
// expect: performance global_ld_bytes_per_fma

#define TILE 32

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float slotA[TILE][TILE];
  __shared__ float slotB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  unsigned a_slot = static_cast<unsigned>(__cvta_generic_to_shared(&slotA[ty][tx]));
  unsigned b_slot = static_cast<unsigned>(__cvta_generic_to_shared(&slotB[ty][tx]));
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    // MISTAKE: no tile: each thread fetches its own two operands at every k.
    if (row < M && col < N) {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a_slot), "l"(A + row * K + k));
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(b_slot), "l"(B + k * N + col));
      asm volatile("cp.async.wait_all;" ::: "memory");
      sum += slotA[ty][tx] * slotB[ty][tx];
    }
    __syncthreads();  // not needed (every thread reads its own slots), but a barrier is asked for
  }
  if (row < M && col < N) C[row * N + col] = sum;
}
