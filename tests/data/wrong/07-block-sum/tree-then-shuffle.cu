// Wrong 07-block-sum: the tree in shared memory down to 32 values, then warp 0 finishes with
// shuffles. Correct, but the tree's steps above 32 still cost a barrier each: 1 + log2(block / 32)
// per warp, 4 at 256 threads.
// expect: performance barriers_per_warp

#define FULL_MASK 0xffffffffu

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 32; stride /= 2) {  // MISTAKE: a barrier per step
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    float v = warpSum(partial[t]);
    if (t == 0) out[blockIdx.x] = v;
  }
}
