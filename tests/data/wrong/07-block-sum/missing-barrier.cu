// Wrong 07-block-sum: no __syncthreads() between the warps writing their sums and warp 0 reading
// them: warp 0 may read a word before the warp that owns it has written it.
// expect: safety "race"

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
  // MISTAKE: no barrier here
  if (warp == 0) {
    v = warpSum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
