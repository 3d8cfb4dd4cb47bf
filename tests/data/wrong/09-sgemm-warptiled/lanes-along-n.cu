// Wrong 09-sgemm-warptiled: a 32 x 64 warp tile whose lanes run along N, 8 to a row: a warp's
// float4 reads of tileB are 8 different float4 in every group of 8 lanes, served in 4 passes,
// 0.19 shared-load wavefronts per FMA instruction.
// expect: performance shared_ld_wavefronts_per_fma_instruction

#define BM 128  // rows of C per block
#define BN 128  // columns of C per block
#define BK 8    // the depth of a step
#define WM 32   // rows of C per warp
#define WN 64   // columns of C per warp
#define TM 8    // rows of C per thread (a multiple of 4)
#define TN 8    // columns of C per thread (a multiple of 4)
#define THREADS ((BM / WM) * (BN / WN) * 32)  // 256

// One instantiation's shape. A thread's TM rows are TM / 4 runs of 4, spaced 4 * LANES_M apart
// within the warp tile, so that the lanes' float4 reads of a row of tileA are consecutive; the
// same along N.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, bool ASYNC_B>
struct WarpTiled {
  static constexpr int kThreads = (BM_ / WM_) * (BN_ / WN_) * 32;
  static constexpr int kLanesM = WM_ / TM_, kLanesN = WN_ / TN_;  // lanes along M and N
  static constexpr int kPadA = 4;  // tileA's rows: BM + 4 floats, so the transposed stores of
                                   // two neighbouring k fall 16 banks apart
  static constexpr int kLoadsA = BM_ * BK_ / 4 / kThreads;  // float4 of A per thread per step
  static constexpr int kLoadsB = BK_ * BN_ / 4 / kThreads;  // float4 of B per thread per step
  static_assert(kLanesM * kLanesN == 32, "a warp tile is 32 threads' tiles");
  static_assert(kLoadsA >= 1 && kLoadsB >= 1, "every thread loads at least one float4 of each tile");
};

// Copies 16 bytes from global to shared memory without passing through registers; bytes past
// `valid` (0 to 16) are filled with zeros.
__device__ __forceinline__ void copyAsync16(float* shared, const float* global, int valid) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(address), "l"(global), "r"(valid));
}
__device__ __forceinline__ void copyAsyncWait() { asm volatile("cp.async.wait_all;\n" ::); }

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, bool ASYNC_B>
__device__ __forceinline__ void sgemmWarptiledBody(const float* A, const float* B, float* C, int M,
                                                   int N, int K) {
  using Shape = WarpTiled<BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B>;
  constexpr int kThreads = Shape::kThreads, kLanesM = Shape::kLanesM, kLanesN = Shape::kLanesN;
  constexpr int kStrideA = BM_ + Shape::kPadA;
  // Two copies of each tile. tileA is stored transposed, [k][m]: the 8 values of A a thread
  // needs at one k are then two float4 in a row of tileA.
  __shared__ __align__(16) float tileA[2][BK_][kStrideA];
  __shared__ __align__(16) float tileB[2][BK_][BN_];

  const int tid = threadIdx.x;
  const int block_row = blockIdx.y * BM_, block_col = blockIdx.x * BN_;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = (warp / (BN_ / WN_)) * WM_;  // the warp tile within the block
  const int warp_col = (warp % (BN_ / WN_)) * WN_;
  // The lane's first 4 x 4 square in the warp tile: lanes next to each other in the warp run
  // down M first. With 2 lanes along M, even lanes read one float4 of tileA and odd lanes
  // another, and lanes 2i and 2i + 1 read the same float4 of tileB: the hardware then serves a
  // float4 load in 2 passes of 16 lanes instead of 4 of 8.
  const int lane_row = (lane / kLanesN) * 4;  // MISTAKE: 8 neighbouring lanes along N
  const int lane_col = (lane % kLanesN) * 4;
  // float4 loads need rows whose length is a multiple of 4 floats (16-byte aligned rows):
  // otherwise every element is loaded on its own. The test is the same for the whole grid.
  const bool vector_a = (K % 4) == 0, vector_b = (N % 4) == 0;

  float4 next_a[Shape::kLoadsA], next_b[Shape::kLoadsB];

  // The step at depth t: A's BM x BK tile into registers, as float4 along K; 0 outside A.
  auto load_a = [&](int t) {
#pragma unroll
    for (int i = 0; i < Shape::kLoadsA; ++i) {
      const int index = tid + i * kThreads;
      const int r = index / (BK_ / 4), c = (index % (BK_ / 4)) * 4;
      const int row = block_row + r, k = t + c;
      if (vector_a && row < M && k + 3 < K) {
        next_a[i] = *reinterpret_cast<const float4*>(&A[row * K + k]);
      } else {
        next_a[i].x = (row < M && k < K) ? A[row * K + k] : 0.0f;
        next_a[i].y = (row < M && k + 1 < K) ? A[row * K + k + 1] : 0.0f;
        next_a[i].z = (row < M && k + 2 < K) ? A[row * K + k + 2] : 0.0f;
        next_a[i].w = (row < M && k + 3 < K) ? A[row * K + k + 3] : 0.0f;
      }
    }
  };
  // ...and stored transposed into copy s: 4 scalar stores, one per k.
  auto store_a = [&](int s) {
#pragma unroll
    for (int i = 0; i < Shape::kLoadsA; ++i) {
      const int index = tid + i * kThreads;
      const int r = index / (BK_ / 4), c = (index % (BK_ / 4)) * 4;
      tileA[s][c + 0][r] = next_a[i].x;
      tileA[s][c + 1][r] = next_a[i].y;
      tileA[s][c + 2][r] = next_a[i].z;
      tileA[s][c + 3][r] = next_a[i].w;
    }
  };
  // B's BK x BN tile, float4 along N: by cp.async into copy s, or into registers.
  auto load_b = [&](int t, int s) {
#pragma unroll
    for (int i = 0; i < Shape::kLoadsB; ++i) {
      const int index = tid + i * kThreads;
      const int r = index / (BN_ / 4), c = (index % (BN_ / 4)) * 4;
      const int k = t + r, col = block_col + c;
      if (ASYNC_B && vector_b) {
        // Whole float4 inside B, part of one (N is a multiple of 4, so never), or none: the
        // copy reads `valid` bytes and zero-fills the rest. Outside B it reads nothing, from
        // B itself so that the address stays a valid one.
        const int valid = (k < K && col < N) ? 16 : 0;
        copyAsync16(&tileB[s][r][c], valid ? &B[k * N + col] : B, valid);
      } else if (vector_b && k < K && col + 3 < N) {
        next_b[i] = *reinterpret_cast<const float4*>(&B[k * N + col]);
      } else {
        next_b[i].x = (k < K && col < N) ? B[k * N + col] : 0.0f;
        next_b[i].y = (k < K && col + 1 < N) ? B[k * N + col + 1] : 0.0f;
        next_b[i].z = (k < K && col + 2 < N) ? B[k * N + col + 2] : 0.0f;
        next_b[i].w = (k < K && col + 3 < N) ? B[k * N + col + 3] : 0.0f;
      }
    }
  };
  auto store_b = [&](int s) {
    if (ASYNC_B && vector_b) return;  // the copies went straight to shared memory
#pragma unroll
    for (int i = 0; i < Shape::kLoadsB; ++i) {
      const int index = tid + i * kThreads;
      const int r = index / (BN_ / 4), c = (index % (BN_ / 4)) * 4;
      *reinterpret_cast<float4*>(&tileB[s][r][c]) = next_b[i];
    }
  };

  float sums[TM_][TN_] = {};

  // The first step's tiles, into copy 0.
  load_a(0);
  load_b(0, 0);
  store_a(0);
  store_b(0);
  if (ASYNC_B) copyAsyncWait();
  __syncthreads();

  int s = 0;  // the copy the block computes from
  for (int t = 0; t < K; t += BK_) {
    const bool more = t + BK_ < K;
    // Start the next step's loads; they travel while the FMAs below run.
    if (more) {
      load_a(t + BK_);
      load_b(t + BK_, s ^ 1);
    }
#pragma unroll
    for (int k = 0; k < BK_; ++k) {
      float a[TM_], b[TN_];
#pragma unroll
      for (int m = 0; m < TM_ / 4; ++m) {
        const float4 v = *reinterpret_cast<const float4*>(
            &tileA[s][k][warp_row + m * 4 * kLanesM + lane_row]);
        a[4 * m] = v.x, a[4 * m + 1] = v.y, a[4 * m + 2] = v.z, a[4 * m + 3] = v.w;
      }
#pragma unroll
      for (int n = 0; n < TN_ / 4; ++n) {
        const float4 v = *reinterpret_cast<const float4*>(
            &tileB[s][k][warp_col + n * 4 * kLanesN + lane_col]);
        b[4 * n] = v.x, b[4 * n + 1] = v.y, b[4 * n + 2] = v.z, b[4 * n + 3] = v.w;
      }
#pragma unroll
      for (int m = 0; m < TM_; ++m) {
#pragma unroll
        for (int n = 0; n < TN_; ++n) sums[m][n] += a[m] * b[n];
      }
    }
    // Copy s^1 was last read in the previous step, before the barrier that ended it: it is
    // free. One barrier then makes it complete for the next step and copy s free again.
    if (more) {
      store_a(s ^ 1);
      store_b(s ^ 1);
      if (ASYNC_B) copyAsyncWait();
    }
    __syncthreads();
    s ^= 1;
  }

  // The epilogue: each row of a 4 x 4 square is one float4 store when it lies whole inside C
  // and N is a multiple of 4; otherwise element by element, each guarded.
#pragma unroll
  for (int m = 0; m < TM_; ++m) {
    const int row = block_row + warp_row + (m / 4) * 4 * kLanesM + lane_row + m % 4;
#pragma unroll
    for (int n = 0; n < TN_ / 4; ++n) {
      const int col = block_col + warp_col + n * 4 * kLanesN + lane_col;
      if (row >= M) continue;
      if (vector_b && col + 3 < N) {
        *reinterpret_cast<float4*>(&C[row * N + col]) =
            make_float4(sums[m][4 * n], sums[m][4 * n + 1], sums[m][4 * n + 2], sums[m][4 * n + 3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (col + j < N) C[row * N + col + j] = sums[m][4 * n + j];
        }
      }
    }
  }
}

// At most 128 registers per thread, so that two blocks of 256 threads fit on an SM.
__global__ void __launch_bounds__(THREADS, 2)
    sgemmWarptiled(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemmWarptiledBody<BM, BN, BK, WM, WN, TM, TN, false>(A, B, C, M, N, K);
}
