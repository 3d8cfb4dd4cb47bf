// Scalar shared loads and stores in the patterns ptxas does or does not merge into LDS.64 and
// LDS.128 (STS.64, STS.128): the kernels that produced the rows of h200-shared-fusion.tsv for this
// file (CUDA 13.0's ptxas for sm_90 and Nsight Compute on an H200), one warp each except
// sgemm_like_*. Only the order differs from the measured file: pad_before comes last, since the
// emulator lays the shared variables of a module out one after another and its 4-byte `pad`
// would misalign every array after it.
#include <cuda_fp16.h>

#define TID threadIdx.x
#define INIT(s, n) \
  for (int i = TID; i < (n); i += blockDim.x) (s)[i] = i; \
  __syncthreads();

__global__ void f4_aligned(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f2_aligned(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 2; out[TID] = r[0] + r[1]; }
__global__ void f3_aligned(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[1] + r[2]; }
__global__ void f4_from1(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 8; out[TID] = r[1] + r[2] + r[3] + r[4]; }
__global__ void f8_aligned(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 8; out[TID] = r[0] + r[1] + r[2] + r[3] + r[4] + r[5] + r[6] + r[7]; }
__global__ void f6_from2(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 8; out[TID] = r[2] + r[3] + r[4] + r[5] + r[6] + r[7]; }
__global__ void f4_base4(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4 + 1; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f4_base8(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 2; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f2_odd(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 2 + 1; out[TID] = r[0] + r[1]; }
__global__ void f4_param_aligned(float* out, int p) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + (TID + p) * 4; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f4_param_unknown(float* out, int p) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4 + p; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f4_padded(float* out) { __shared__ float t[32][33]; INIT(&t[0][0], 32 * 33); const float* r = t[TID]; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void f32_padded_row(float* out) { __shared__ float t[32][33]; INIT(&t[0][0], 32 * 33); float sum = 0; for (int k = 0; k < 32; ++k) sum += t[TID][k]; out[TID] = sum; }
__global__ void f4_symbol(float* out) { __shared__ float s[1024]; INIT(s, 1024); out[TID] = s[0] + s[1] + s[2] + s[3]; }
__global__ void f4_symbol_from1(float* out) { __shared__ float s[1024]; INIT(s, 1024); out[TID] = s[1] + s[2] + s[3] + s[4]; }
__global__ void loop_rolled(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 16; float sum = 0;
#pragma unroll 1
  for (int k = 0; k < 16; ++k) sum += r[k];
  out[TID] = sum; }
__global__ void loop_unroll2(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 16; float sum = 0;
#pragma unroll 2
  for (int k = 0; k < 16; ++k) sum += r[k];
  out[TID] = sum; }
__global__ void loop_unroll4(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 16; float sum = 0;
#pragma unroll 4
  for (int k = 0; k < 16; ++k) sum += r[k];
  out[TID] = sum; }
__global__ void loop_runtime(float* out, int n) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 16; float sum = 0;
  for (int k = 0; k < n; ++k) sum += r[k];
  out[TID] = sum; }
__global__ void stride_rows(float* out) { __shared__ float s[1024]; INIT(s, 1024); out[TID] = s[TID] + s[32 + TID] + s[64 + TID] + s[96 + TID]; }
__global__ void two_arrays(float* out) { __shared__ float a[256]; __shared__ float b[256]; INIT(a, 256); INIT(b, 256); out[TID] = a[TID * 4] + a[TID * 4 + 1] + b[TID * 4 + 2] + b[TID * 4 + 3]; }
__global__ void store_other_between(float* out) { __shared__ float s[1024]; __shared__ float s2[64]; INIT(s, 1024); const float* r = s + TID * 4;
  float x = r[0] + r[1]; s2[TID] = x; float y = r[2] + r[3]; out[TID] = x * y + s2[TID ^ 1]; }
__global__ void store_same_between(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4;
  float x = r[0] + r[1]; s[512 + TID] = x; float y = r[2] + r[3]; out[TID] = x * y + s[512 + (TID ^ 1)]; }
__global__ void barrier_between(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4;
  float x = r[0] + r[1]; __syncthreads(); float y = r[2] + r[3]; out[TID] = x * y; }
__global__ void reversed(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; float a = r[3]; float b = r[2] * a; float c = r[1] * b; out[TID] = r[0] * c; }
__global__ void f64_pair(double* out) { __shared__ double s[512]; INIT(s, 512); const double* r = s + TID * 2; out[TID] = r[0] + r[1]; }
__global__ void v2_pair(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float2* p = reinterpret_cast<const float2*>(s + TID * 4); float2 x = p[0], y = p[1]; out[TID] = x.x + x.y + y.x + y.y; }
__global__ void int4words(int* out) { __shared__ int s[1024]; INIT(s, 1024); const int* r = s + TID * 4; out[TID] = r[0] ^ r[1] ^ r[2] ^ r[3]; }
__global__ void half8(float* out) { __shared__ __half s[2048]; for (int i = TID; i < 2048; i += blockDim.x) s[i] = __float2half(i); __syncthreads(); const __half* r = s + TID * 8; float sum = 0;
  for (int k = 0; k < 8; ++k) sum += __half2float(r[k]);
  out[TID] = sum; }
__global__ void uchar4words(int* out) { __shared__ unsigned char s[1024]; INIT(s, 1024); const unsigned char* r = s + TID * 4; out[TID] = r[0] + r[1] * 3 + r[2] * 5 + r[3] * 7; }
__global__ void st4(float* out) { __shared__ float s[1024]; float* r = s + TID * 4; r[0] = TID; r[1] = TID + 1; r[2] = TID + 2; r[3] = TID + 3; __syncthreads(); out[TID] = s[(TID * 7) % 128]; }
__global__ void st2(float* out) { __shared__ float s[1024]; float* r = s + TID * 2; r[0] = TID; r[1] = TID + 1; __syncthreads(); out[TID] = s[(TID * 7) % 64]; }
__global__ void guarded(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; float v = 0; if (TID < 16) v = r[0] + r[1] + r[2] + r[3]; out[TID] = v; }
__global__ void dyn(float* out) { extern __shared__ float ds[]; INIT(ds, 1024); const float* r = ds + TID * 4; out[TID] = r[0] + r[1] + r[2] + r[3]; }
__global__ void interleaved(float* out) { __shared__ float s[1024]; __shared__ float q[64]; INIT(s, 1024); INIT(q, 64); const float* r = s + TID * 4; float a = r[0]; float b = q[TID] * a; float c = r[1] * b; out[TID] = c; }
__global__ void w12(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[1] + r[2]; }
__global__ void w02(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[2]; }
__global__ void w03(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[3]; }
__global__ void w013(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[1] + r[3]; }
__global__ void w23(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[2] + r[3]; }
__global__ void w123(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[1] + r[2] + r[3]; }
__global__ void w0145(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 8; out[TID] = r[0] + r[1] + r[4] + r[5]; }
__global__ void w1234_8(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 2; out[TID] = r[1] + r[2] + r[3] + r[4]; }
__global__ void st012(float* out) { __shared__ float s[1024]; float* r = s + TID * 4; r[0] = TID; r[1] = TID + 1; r[2] = TID + 2; __syncthreads(); out[TID] = s[(TID * 7) % 128]; }
__global__ void st1234(float* out) { __shared__ float s[1024]; float* r = s + TID * 8; r[1] = TID; r[2] = TID + 1; r[3] = TID + 2; r[4] = TID + 3; __syncthreads(); out[TID] = s[(TID * 7) % 128]; }
__global__ void st_param(float* out, int p) { __shared__ float s[1024]; float* r = s + TID * 4 + p; r[0] = TID; r[1] = TID + 1; r[2] = TID + 2; r[3] = TID + 3; __syncthreads(); out[TID] = s[(TID * 7) % 128]; }
__global__ void half2w(float* out) { __shared__ __half s[2048]; for (int i = TID; i < 2048; i += blockDim.x) s[i] = __float2half(i); __syncthreads(); const __half* r = s + TID * 8; out[TID] = __half2float(r[0]) + __half2float(r[1]); }
__global__ void half4w(float* out) { __shared__ __half s[2048]; for (int i = TID; i < 2048; i += blockDim.x) s[i] = __float2half(i); __syncthreads(); const __half* r = s + TID * 8; out[TID] = __half2float(r[0]) + __half2float(r[1]) * 2 + __half2float(r[2]) * 3 + __half2float(r[3]) * 4; }
__global__ void half3w(float* out) { __shared__ __half s[2048]; for (int i = TID; i < 2048; i += blockDim.x) s[i] = __float2half(i); __syncthreads(); const __half* r = s + TID * 8; out[TID] = __half2float(r[0]) + __half2float(r[1]) * 2 + __half2float(r[2]) * 3; }
__global__ void f64_8aligned(double* out) { __shared__ double s[512]; INIT(s, 512); const double* r = s + TID; out[TID] = r[0] + r[1]; }
__global__ void v2_scalars(float* out) { __shared__ float s[1024]; INIT(s, 1024); const float* r = s + TID * 4; float2 x = *reinterpret_cast<const float2*>(r); out[TID] = x.x + x.y * r[2] + r[3]; }
__global__ void sgemm_like_T32(const float* a, float* out) { __shared__ float ta[32][32]; __shared__ float tb[32][32]; ta[threadIdx.y][threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x]; tb[threadIdx.y][threadIdx.x] = a[1024 + threadIdx.y * 32 + threadIdx.x]; __syncthreads(); float sum = 0;
  for (int k = 0; k < 32; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
  out[threadIdx.y * 32 + threadIdx.x] = sum; }
__global__ void sgemm_like_T8(const float* a, float* out) { __shared__ float ta[8][8]; __shared__ float tb[8][8]; ta[threadIdx.y][threadIdx.x] = a[threadIdx.y * 8 + threadIdx.x]; tb[threadIdx.y][threadIdx.x] = a[64 + threadIdx.y * 8 + threadIdx.x]; __syncthreads(); float sum = 0;
  for (int k = 0; k < 8; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
  out[threadIdx.y * 8 + threadIdx.x] = sum; }
__global__ void pad_before(float* out) { __shared__ float pad[1]; __shared__ float s[1024]; if (TID == 0) pad[0] = 1; INIT(s, 1024); const float* r = s + TID * 4; out[TID] = r[0] + r[1] + r[2] + r[3] + pad[0]; }
