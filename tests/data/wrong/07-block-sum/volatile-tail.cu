// Wrong 07-block-sum: warp-synchronous folklore. Each warp adds its 32 values in its own 32 words
// of shared memory through a volatile pointer, with no barrier, trusting its lanes to move in
// lockstep; since Volta nothing promises it, and lane k reads words lanes k + offset write
// with no __syncwarp() between them.
// expect: safety "race"

__device__ float warpSumVolatile(volatile float* words, int lane, float v) {
  words[lane] = v;
  // MISTAKE: no __syncwarp() between a lane's write and its neighbour's read
  for (int offset = 16; offset > 0; offset /= 2) {
    if (lane < offset) words[lane] += words[lane + offset];
  }
  return words[0];
}

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats: 32 per warp
  __shared__ float warp_sums[32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * blockDim.x + t;
  float v = warpSumVolatile(partial + 32 * warp, lane, i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSumVolatile(partial, lane, lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
