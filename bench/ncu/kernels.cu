// Kernels whose hardware counters (Nsight Compute on an H200) are compared with the emulator's by
// bench/ncu/compare.py. Device code only, so tilecamp profiles this very file; host.cu launches
// the same kernels with the same sizes on a GPU.

#include <cuda_pipeline.h>

#define TILE 32

__global__ void transposeNaive(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) out[col * height + row] = in[row * width + col];
}

__global__ void transposeTiled(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (col < width && row < height) tile[threadIdx.y][threadIdx.x] = in[row * width + col];
  __syncthreads();
  int out_col = blockIdx.y * TILE + threadIdx.x;
  int out_row = blockIdx.x * TILE + threadIdx.y;
  if (out_col < height && out_row < width) out[out_row * height + out_col] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposePadded(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (col < width && row < height) tile[threadIdx.y][threadIdx.x] = in[row * width + col];
  __syncthreads();
  int out_col = blockIdx.y * TILE + threadIdx.x;
  int out_row = blockIdx.x * TILE + threadIdx.y;
  if (out_col < height && out_row < width) out[out_row * height + out_col] = tile[threadIdx.x][threadIdx.y];
}

__global__ void sgemmNaive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

template <int T>
__global__ void sgemmTiled(const float* a, const float* b, float* c, int n) {
  __shared__ float tile_a[T][T];
  __shared__ float tile_b[T][T];
  int row = blockIdx.y * T + threadIdx.y;
  int col = blockIdx.x * T + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += T) {
    tile_a[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tile_b[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
template __global__ void sgemmTiled<16>(const float*, const float*, float*, int);

// Each thread computes 8 outputs of a column (register blocking): 64x64 block tile, K step 8.
__global__ void sgemmColumn8(const float* a, const float* b, float* c, int n) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float tile_a[BM * BK];
  __shared__ float tile_b[BK * BN];
  const int thread_col = threadIdx.x % BN, thread_row = threadIdx.x / BN;
  a += blockIdx.y * BM * n;
  b += blockIdx.x * BN;
  c += blockIdx.y * BM * n + blockIdx.x * BN;
  const int a_col = threadIdx.x % BK, a_row = threadIdx.x / BK;
  const int b_col = threadIdx.x % BN, b_row = threadIdx.x / BN;
  float results[TM] = {0.0f};
  for (int k0 = 0; k0 < n; k0 += BK) {
    tile_a[a_row * BK + a_col] = a[a_row * n + a_col];
    tile_b[b_row * BN + b_col] = b[b_row * n + b_col];
    __syncthreads();
    a += BK;
    b += BK * n;
    for (int k = 0; k < BK; ++k) {
      const float b_value = tile_b[k * BN + thread_col];
      for (int m = 0; m < TM; ++m) results[m] += tile_a[(thread_row * TM + m) * BK + k] * b_value;
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m) c[(thread_row * TM + m) * n + thread_col] = results[m];
}

__global__ void reduceSum(const float* in, float* out, int n) {
  __shared__ float partial[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

#define RADIUS 3
__global__ void stencil1d(const float* in, float* out, int n) {
  __shared__ float window[256 + 2 * RADIUS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  window[threadIdx.x + RADIUS] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    window[threadIdx.x] = i >= RADIUS ? in[i - RADIUS] : 0.0f;
    int right = i + blockDim.x;
    window[threadIdx.x + blockDim.x + RADIUS] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += window[threadIdx.x + RADIUS + k];
    out[i] = sum;
  }
}

__global__ void histogram256(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i] % 256], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void vectorAdd4(const float4* a, const float4* b, float4* c, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

// The memory paths beyond plain loads and stores, one warp each: constant loads (one address, then
// four), cp.async into a shared tile, shared atomics with 8 lanes on each of 4 addresses, and a
// global atomic that only reads (atomicAdd(p, 0)).
__constant__ float weights[64];
__global__ void constWeights(float* out) { out[threadIdx.x] = weights[3] + weights[threadIdx.x % 4]; }

__global__ void cpAsyncStage(const float* in, float* out) {
  __shared__ float tile[32];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x];
}

__global__ void sharedAtomics(float* out) {
  __shared__ float bins[32];
  bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[threadIdx.x % 4], 1.0f);
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x];
}

__global__ void globalAtomicRead(float* in, float* out) { out[threadIdx.x] = atomicAdd(&in[threadIdx.x], 0.0f); }
