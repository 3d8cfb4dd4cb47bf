// The kernels that produced h200-access-rules.tsv on an H200 (Nsight Compute 2025.3, CUDA 13.0),
// without their host code: one warp each, so every counter is per request. The emulator must
// reproduce every row of the table from these exact kernels.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda.h>
__global__ void sh_f32_stride(float* out, int s) {
  __shared__ float m[32 * 33 * 4];
  for (int i = threadIdx.x; i < 32 * 33 * 4; i += 32) m[i] = i;
  __syncthreads();
  out[threadIdx.x] = m[(threadIdx.x * s) % (32 * 33 * 4)];
}
__global__ void sh_f32_bcast(float* out) {
  __shared__ float m[64];
  m[threadIdx.x] = threadIdx.x; __syncthreads();
  out[threadIdx.x] = m[5];
}
__global__ void sh_f32_multicast(float* out) {   // lanes read 4 distinct words in bank 0..3 pairs
  __shared__ float m[64];
  m[threadIdx.x] = threadIdx.x; __syncthreads();
  out[threadIdx.x] = m[threadIdx.x / 8];
}
__global__ void sh_f64_stride(double* out, int s) {
  __shared__ double m[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) m[i] = i;
  __syncthreads();
  out[threadIdx.x] = m[(threadIdx.x * s) % (32 * 33)];
}
__global__ void sh_f128_stride(float4* out, int s) {
  __shared__ float4 m[32 * 17];
  for (int i = threadIdx.x; i < 32 * 17; i += 32) m[i] = make_float4(i, i, i, i);
  __syncthreads();
  out[threadIdx.x] = m[(threadIdx.x * s) % (32 * 17)];
}
__global__ void gl_f32(const float* in, float* out, int s, int off) {
  out[threadIdx.x] = in[threadIdx.x * s + off];
}
__global__ void gl_f128(const float4* in, float4* out, int s) {
  out[threadIdx.x] = in[threadIdx.x * s];
}
__global__ void gl_st_f32(float* out, int s) {
  out[threadIdx.x * s] = threadIdx.x;
}
