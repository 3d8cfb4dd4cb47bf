// Wrong 07-block-sum: __shfl_up_sync where the sum should move down: lane k adds lane k - offset,
// so nothing ever moves towards lane 0, and a lane below `offset` gets its own value back and
// adds it: lane 0 ends with 32 times its own element.
// expect: correctness "are wrong"

#define FULL_MASK 0xffffffffu

__device__ float warpSum(float v) {
  // MISTAKE: up, not down
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_up_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * blockDim.x + t;
  float v = warpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
