// Wrong 07-block-sum: the threads past n return before the shuffles, whose full mask still names
// them: lane 0 of the last, partial warp adds values from lanes that have left.
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
  if (i >= n) return;  // MISTAKE: these lanes never reach the shuffles (or the barrier)
  float v = warpSum(in[i]);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
