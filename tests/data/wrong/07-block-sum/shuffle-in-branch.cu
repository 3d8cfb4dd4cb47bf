// Wrong 07-block-sum: the second stage runs in the first blockDim.x / 32 threads only, so it
// splits warp 0, and its shuffles' full mask names lanes that took the other path.
// expect: safety "member mask"

#define FULL_MASK 0xffffffffu

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * blockDim.x + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (t < blockDim.x / 32) {  // MISTAKE: lanes 0 .. blockDim.x / 32 - 1 of warp 0, not the warp
    v = warpSum(warp_sums[t]);
    if (t == 0) out[blockIdx.x] = v;
  }
}
