// 11-tensor-gemm's first solution, kept for lesson 11's table: each warp keeps a 64 x 32 block of C
// in eight 16 x 16 accumulator fragments and feeds them with TF32 fragments of tiles the block
// staged with scalar loads, one buffer. It ran at 43-44 TFLOP/s on the H200, no faster than the
// warp-tiled FP32 SGEMM (bench/model/h200/tensor_gemm_candidates.txt).
#include <mma.h>
using namespace nvcuda;

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 32   // the depth of a step
#define WM 64   // rows of C per warp
#define WN 32   // columns of C per warp
#define PAD 8   // floats of padding per tile row: rows stay 32-byte aligned, banks shift
#define THREADS (32 * (BM / WM) * (BN / WN))  // the block the checker launches

// Two blocks an SM: ptxas keeps the kernel within 128 registers a thread (140 without the bound).
__global__ void __launch_bounds__(THREADS, 2)
    tensorGemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float tileA[BM][BK + PAD];
  __shared__ float tileB[BK][BN + PAD];
  __shared__ float staging[THREADS / 32][16 * 16];  // one fragment of C per warp, on its way out
  int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warp_row = (warp / (BN / WN)) * WM;  // the warp's block of C, within the block's
  int warp_col = (warp % (BN / WN)) * WN;

  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[WM / 16][WN / 16];
  for (int i = 0; i < WM / 16; ++i)
    for (int j = 0; j < WN / 16; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int t = 0; t < K; t += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
      int r = i / BK, c = i % BK;
      tileA[r][c] = (block_row + r < M && t + c < K) ? A[(block_row + r) * K + t + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
      int r = i / BN, c = i % BN;
      tileB[r][c] = (t + r < K && block_col + c < N) ? B[(t + r) * N + block_col + c] : 0.0f;
    }
    __syncthreads();

    for (int k = 0; k < BK; k += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[WM / 16];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[WN / 16];
      for (int i = 0; i < WM / 16; ++i)
        wmma::load_matrix_sync(a[i], &tileA[warp_row + 16 * i][k], BK + PAD);
      for (int j = 0; j < WN / 16; ++j)
        wmma::load_matrix_sync(b[j], &tileB[k][warp_col + 16 * j], BN + PAD);
      for (int i = 0; i < WM / 16; ++i)
        for (int j = 0; j < WN / 16; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

  // Each fragment goes through the warp's staging square, so that the edges can be guarded.
  for (int i = 0; i < WM / 16; ++i) {
    for (int j = 0; j < WN / 16; ++j) {
      wmma::store_matrix_sync(staging[warp], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 16 * 16; e += 32) {
        int row = block_row + warp_row + 16 * i + e / 16;
        int col = block_col + warp_col + 16 * j + e % 16;
        if (row < M && col < N) C[row * N + col] = staging[warp][e];
      }
      __syncwarp();
    }
  }
}
