// Lesson 09, SGEMM II: the kernels the lesson shows and its "Try it" commands profile.
// C = A * B with A M x K, B K x N, C M x N, all row-major floats. Device code only (compiled
// with NVRTC); tests/test_lessons.cpp keeps lessons/09-sgemm-ii.md identical to the marked
// regions. These versions assume M and N multiples of 128 and K a multiple of 8; the
// exercises' solutions handle every size.

// 2-D block tiling with float4: 256 threads, a 128 x 128 block of C, 8 x 8 outputs per thread
// in four 4 x 4 squares, 64 rows and 64 columns apart.
__global__ void __launch_bounds__(256)
    sgemmVectorized(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float tileA[8][128 + 4];
  __shared__ __align__(16) float tileB[8][128];
  const int tid = threadIdx.x;
  const int block_row = blockIdx.y * 128, block_col = blockIdx.x * 128;
  const int thread_row = (tid / 16) * 4, thread_col = (tid % 16) * 4;
  float sums[8][8] = {};
  for (int t = 0; t < K; t += 8) {
    // example-begin transposed-load
    // One float4 of A's 128 x 8 tile per thread: row tid / 2,
    // columns 4 (tid % 2) .. + 3. It goes down a column of tileA.
    const int a_row = tid / 2, a_col = (tid % 2) * 4;
    const float4 a = *reinterpret_cast<const float4*>(
        &A[(block_row + a_row) * K + t + a_col]);
    tileA[a_col + 0][a_row] = a.x;
    tileA[a_col + 1][a_row] = a.y;
    tileA[a_col + 2][a_row] = a.z;
    tileA[a_col + 3][a_row] = a.w;
    // One float4 of B's 8 x 128 tile: row tid / 32, as it lies.
    const int b_row = tid / 32, b_col = (tid % 32) * 4;
    *reinterpret_cast<float4*>(&tileB[b_row][b_col]) =
        *reinterpret_cast<const float4*>(
            &B[(t + b_row) * N + block_col + b_col]);
    // example-end transposed-load
    __syncthreads();
    // example-begin float4-reads
    #pragma unroll
    for (int k = 0; k < 8; ++k) {
      float av[8], bv[8];
      #pragma unroll
      for (int h = 0; h < 2; ++h) {  // two float4 of each tile
        const float4 x = *reinterpret_cast<const float4*>(
            &tileA[k][thread_row + 64 * h]);
        const float4 y = *reinterpret_cast<const float4*>(
            &tileB[k][thread_col + 64 * h]);
        av[4 * h] = x.x, av[4 * h + 1] = x.y;
        av[4 * h + 2] = x.z, av[4 * h + 3] = x.w;
        bv[4 * h] = y.x, bv[4 * h + 1] = y.y;
        bv[4 * h + 2] = y.z, bv[4 * h + 3] = y.w;
      }
      #pragma unroll
      for (int m = 0; m < 8; ++m) {
        #pragma unroll
        for (int n = 0; n < 8; ++n) sums[m][n] += av[m] * bv[n];
      }
    }
    // example-end float4-reads
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < 8; ++m) {
    const int row = block_row + thread_row + 64 * (m / 4) + m % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = block_col + thread_col + 64 * h;
      *reinterpret_cast<float4*>(&C[row * N + col]) =
          make_float4(sums[m][4 * h], sums[m][4 * h + 1], sums[m][4 * h + 2], sums[m][4 * h + 3]);
    }
  }
}

// Warp tiling and double buffering: the same block, warps of WM x WN outputs whose lanes run
// down M first (LANES_M lanes along M), two copies of each tile and one barrier per step.
template <int WM, int WN>
__global__ void __launch_bounds__(256)
    sgemmWarptiled(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int LANES_M = WM / 8, LANES_N = WN / 8;
  __shared__ __align__(16) float tileA[2][8][128 + 4];
  __shared__ __align__(16) float tileB[2][8][128];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int block_row = blockIdx.y * 128, block_col = blockIdx.x * 128;
  // example-begin warp-layout
  // The warp's tile within the block, then the lane's first 4 x 4
  // square within the warp's: neighbouring lanes run down M first.
  const int warp_row = (warp / (128 / WN)) * WM;
  const int warp_col = (warp % (128 / WN)) * WN;
  const int lane_row = (lane % LANES_M) * 4;
  const int lane_col = (lane / LANES_M) * 4;
  // Its 8 rows: warp_row + lane_row + {0..3} and the same + 4 LANES_M;
  // its 8 columns likewise, 4 LANES_N apart.
  // example-end warp-layout
  const int a_row = tid / 2, a_col = (tid % 2) * 4;
  const int b_row = tid / 32, b_col = (tid % 32) * 4;
  float sums[8][8] = {};
  // example-begin double-buffer
  // Step 0's tiles into copy 0, before the loop.
  float4 a = *reinterpret_cast<const float4*>(
      &A[(block_row + a_row) * K + a_col]);
  float4 b = *reinterpret_cast<const float4*>(
      &B[b_row * N + block_col + b_col]);
  int s = 0;  // the copy this step computes from
  tileA[s][a_col][a_row] = a.x, tileA[s][a_col + 1][a_row] = a.y;
  tileA[s][a_col + 2][a_row] = a.z, tileA[s][a_col + 3][a_row] = a.w;
  *reinterpret_cast<float4*>(&tileB[s][b_row][b_col]) = b;
  __syncthreads();
  for (int t = 0; t < K; t += 8) {
    const bool more = t + 8 < K;
    if (more) {  // the next step's loads start now...
      a = *reinterpret_cast<const float4*>(
          &A[(block_row + a_row) * K + t + 8 + a_col]);
      b = *reinterpret_cast<const float4*>(
          &B[(t + 8 + b_row) * N + block_col + b_col]);
    }
    // ...and travel while the warp does its 512 FMA instructions
    // from copy s (the loop of sgemmVectorized, on tileA[s], tileB[s]).
    // example-end double-buffer
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      float av[8], bv[8];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float4 x = *reinterpret_cast<const float4*>(&tileA[s][k][warp_row + lane_row + 4 * LANES_M * h]);
        const float4 y = *reinterpret_cast<const float4*>(&tileB[s][k][warp_col + lane_col + 4 * LANES_N * h]);
        av[4 * h] = x.x, av[4 * h + 1] = x.y, av[4 * h + 2] = x.z, av[4 * h + 3] = x.w;
        bv[4 * h] = y.x, bv[4 * h + 1] = y.y, bv[4 * h + 2] = y.z, bv[4 * h + 3] = y.w;
      }
#pragma unroll
      for (int m = 0; m < 8; ++m) {
#pragma unroll
        for (int n = 0; n < 8; ++n) sums[m][n] += av[m] * bv[n];
      }
    }
    // example-begin one-barrier
    if (more) {  // copy s ^ 1 was last read before the previous barrier
      tileA[s ^ 1][a_col][a_row] = a.x, tileA[s ^ 1][a_col + 1][a_row] = a.y;
      tileA[s ^ 1][a_col + 2][a_row] = a.z;
      tileA[s ^ 1][a_col + 3][a_row] = a.w;
      *reinterpret_cast<float4*>(&tileB[s ^ 1][b_row][b_col]) = b;
    }
    __syncthreads();  // the one barrier of the step
    s ^= 1;
  }
  // example-end one-barrier
#pragma unroll
  for (int m = 0; m < 8; ++m) {
    const int row = block_row + warp_row + lane_row + 4 * LANES_M * (m / 4) + m % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = block_col + warp_col + lane_col + 4 * LANES_N * h;
      *reinterpret_cast<float4*>(&C[row * N + col]) =
          make_float4(sums[m][4 * h], sums[m][4 * h + 1], sums[m][4 * h + 2], sums[m][4 * h + 3]);
    }
  }
}
