// 64- and 128-bit shared loads whose lanes share addresses in different ways (`mode`): what
// Nsight Compute counts for them on an H200, in the rows of h200-shared-fusion.tsv for this file.

#define TID threadIdx.x
#define INIT(s, n) \
  for (int i = TID; i < (n); i += blockDim.x) (s)[i] = i; \
  __syncthreads();

// Wide loads: lane -> element index, by mode.
__device__ int wide_index(int mode, int lane) {
  switch (mode) {
    case 0: return 0;                           // uniform
    case 1: return (lane / 16) * 4;             // 2 addresses, 64 B apart
    case 2: return lane / 8;                    // 4 addresses, adjacent
    case 3: return lane % 8;                    // quarters identical, each 8 distinct adjacent
    case 4: return (lane % 16) * 8;             // halves identical, 16 addresses 128 B apart
    case 5: return (lane % 2) * 8;              // 2 addresses, same bank, alternating
    case 6: return lane / 2;                    // pairs share, 16 adjacent
    case 7: return lane % 16;                   // halves identical, 16 adjacent
    case 8: return lane < 16 ? lane : 0;        // half distinct, half broadcast
    case 9: return lane / 4;                    // 8 addresses adjacent
    case 10: return lane;                       // distinct adjacent (calibrated s=1)
    case 11: return (lane % 4) * 8;             // 4 addresses in one bank group, 128 B apart
    case 12: return (lane / 8) * 8;             // quarters uniform, 4 addresses same banks
    case 13: return (lane / 16) * 8;            // 2 addresses same banks, halves uniform
    default: return 0;
  }
}
__global__ void w128(float* out, int mode) { __shared__ float4 s[1024]; for (int i = TID; i < 1024; i += blockDim.x) s[i] = make_float4(i, i, i, i); __syncthreads(); float4 v = s[wide_index(mode, TID)]; out[TID] = v.x + v.y + v.z + v.w; }
__global__ void w64(float* out, int mode) { __shared__ float2 s[1024]; for (int i = TID; i < 1024; i += blockDim.x) s[i] = make_float2(i, i); __syncthreads(); float2 v = s[wide_index(mode, TID)]; out[TID] = v.x + v.y; }
__global__ void w32(float* out, int mode) { __shared__ float s[4096]; for (int i = TID; i < 4096; i += blockDim.x) s[i] = i; __syncthreads(); out[TID] = s[4 * wide_index(mode, TID)]; }
__device__ int wide_index2(int mode, int lane) {
  switch (mode) {
    case 0: return (lane % 4) < 2 ? 0 : 1;
    case 1: return (lane % 4) == 3 ? 1 : 0;
    case 2: return (lane % 4) == 3 ? 2 : ((lane % 4) == 2 ? 1 : 0);
    case 3: return (lane % 16) / 2;
    case 4: return lane ^ 1;
    case 5: return (lane / 2) * 8;
    case 6: return lane == 5 ? 1 : 0;
    case 7: return lane;      // launched with 20 threads
    case 8: return 0;         // launched with 20 threads
    case 9: return (lane / 4) * 8;
    default: return 0;
  }
}
__global__ void v128(float* out, int mode) { __shared__ float4 s[1024]; for (int i = TID; i < 1024; i += blockDim.x) s[i] = make_float4(i, i, i, i); __syncthreads(); float4 v = s[wide_index2(mode, TID)]; out[TID] = v.x + v.y + v.z + v.w; }
__global__ void v64(float* out, int mode) { __shared__ float2 s[1024]; for (int i = TID; i < 1024; i += blockDim.x) s[i] = make_float2(i, i); __syncthreads(); float2 v = s[wide_index2(mode, TID)]; out[TID] = v.x + v.y; }
