// Exercise 05-sgemm-tiled: a matrix product that reuses its global loads through shared memory.
//
// C = A B, with A of M x K, B of K x N and C of M x N floats, all row-major:
// C[row * N + col] = sum over k of A[row * K + k] * B[k * N + col]. One thread per element of
// C; the checker launches one block per TILE x TILE block of C:
//     block = (TILE, TILE)                (TILE is yours to choose: keep the #define)
//     grid  = (ceil(N / TILE), ceil(M / TILE))
// for any M, N and K, including sizes that are not multiples of TILE, and compares with its
// own product within a small relative error.
//
// The code below is lesson 5's naive kernel: correct, but each thread reads its 2K operands
// from global memory, 8 bytes per multiply-add. The checker wants at most 1 byte per
// multiply-add (global_ld_bytes_per_fma) and no shared-memory bank conflicts.
//
// Check it with:  tilecamp check 05-sgemm-tiled

#define TILE 16

__global__ void sgemmTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO: declare a TILE x TILE tile of A and one of B in shared memory.

  int col = blockIdx.x * TILE + threadIdx.x;  // lanes run along a row of C (and of B)
  int row = blockIdx.y * TILE + threadIdx.y;

  // TODO: walk along K one tile at a time. At each step every thread loads one element of
  // each tile (zero where it lies outside A or B), the block waits, every thread does TILE
  // multiply-adds out of shared memory, and the block waits again before the next step. The
  // barriers need every thread: do not put this loop inside the bounds test.
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
      sum += A[row * K + k] * B[k * N + col];  // 2 global loads per multiply-add
    }
    C[row * N + col] = sum;
  }
}
