// Exercise 11-tensor-gemm: a GEMM on the tensor cores.
//
// C = A B, with A of M x K, B of K x N and C of M x N floats, all row-major, as in lesson 5. A
// block computes a BM x BN block of C, walking along K with a BM x BK tile of A and a BK x BN
// tile of B in shared memory; each warp computes a WM x WN block of it. The checker launches
//     block = 32 * (BM / WM) * (BN / WN) threads, one dimension
//     grid  = (ceil(N / BN), ceil(M / BM))
// for any M, N and K, including sizes that are not multiples of the tiles, and compares with a
// product computed in double, allowing TF32's error (exercise.toml says how much).
//
// The kernel below is correct, but its warps multiply with plain FP32 FMAs: one lane per column
// of the warp's block, 64 sums each. The checker wants tensor-core instructions (mma.sync or
// WMMA) and, on a GPU, at least 11.5 times the naive SGEMM's speed at 4096^3: clearly faster
// than the course's best FP32 kernel (09-sgemm-warptiled's, 8.2 times).
// 1. Replace the sums by WMMA accumulator fragments of 16 x 16 floats, multiply TF32 fragments
//    (wmma::precision::tf32, m16n16k8) loaded from the tiles, and store the fragments through
//    shared memory so that the edges of C stay guarded. That passes on the emulator.
// 2. For the GPU's speed, feed the tensor cores: staged with scalar loads into one buffer, as
//    below, the tiles keep them waiting (lesson 11 measured 44 TFLOP/s, the FP32 kernel's speed).
//    Copy the tiles 16 bytes a lane (float4, or cp.async into a second stage as in lesson 9),
//    lay out A's tile so that its fragments load without bank conflicts, and give each warp a
//    larger block of C, so that each fragment it loads feeds more mma_sync.
//
// Check it with:  tilecamp check 11-tensor-gemm

#include <mma.h>
using namespace nvcuda;

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 32   // the depth of a step
#define WM 64   // rows of C per warp
#define WN 32   // columns of C per warp
#define PAD 8   // floats of padding per tile row: rows stay 32-byte aligned, banks shift
#define THREADS (32 * (BM / WM) * (BN / WN))  // the block the checker launches

// Two blocks an SM: ptxas must keep the kernel within 65536 / (2 x THREADS) registers a thread
// (128 for 256 threads). Eight 16 x 16 accumulator fragments take 64 of them; without the bound a
// kernel of this shape got 140 and one block an SM, and ran at 25 TFLOP/s instead of 44 on an H200.
__global__ void __launch_bounds__(THREADS, 2)
    tensorGemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float tileA[BM][BK + PAD];
  __shared__ float tileB[BK][BN + PAD];
  int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warp_row = (warp / (BN / WN)) * WM;  // the warp's block of C, within the block's
  int warp_col = (warp % (BN / WN)) * WN;

  // TODO: (WM / 16) x (WN / 16) accumulator fragments, filled with 0, instead of these sums.
  float sums[WM];
  for (int i = 0; i < WM; ++i) sums[i] = 0.0f;

  for (int t = 0; t < K; t += BK) {
    // The whole block loads both tiles, 0 outside the matrices (correct, and slow: see above).
    for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
      int r = i / BK, c = i % BK;
      tileA[r][c] = (block_row + r < M && t + c < K) ? A[(block_row + r) * K + t + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
      int r = i / BN, c = i % BN;
      tileB[r][c] = (t + r < K && block_col + c < N) ? B[(t + r) * N + block_col + c] : 0.0f;
    }
    __syncthreads();

    // TODO: for each step of 8 along BK, load the warp's WM / 16 fragments of A and WN / 16
    // fragments of B from the tiles (the leading dimension is a tile row's length, padding
    // included) and multiply-accumulate every pair.
    for (int k = 0; k < BK; ++k) {
      float b = tileB[k][warp_col + lane];  // this lane's column of the warp's block
      for (int i = 0; i < WM; ++i) sums[i] += tileA[warp_row + i][k] * b;
    }
    __syncthreads();
  }

  // TODO: store each accumulator fragment into a 16 x 16 square of shared memory of the warp's
  // own, then copy the square's elements that fall inside C, each one guarded.
  for (int i = 0; i < WM; ++i) {
    int row = block_row + warp_row + i, col = block_col + warp_col + lane;
    if (row < M && col < N) C[row * N + col] = sums[i];
  }
}
