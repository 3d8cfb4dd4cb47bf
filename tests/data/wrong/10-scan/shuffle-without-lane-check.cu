// Wrong 10-scan: every lane adds what __shfl_up_sync returns, but a lane with no lane `offset`
// to its left gets its own value back, and doubles it.
// expect: correctness "wrong"
#define FULL_MASK 0xffffffffu

__device__ int warpInclusiveScan(int v) {
  for (int offset = 1; offset < 32; offset *= 2) {
    v += __shfl_up_sync(FULL_MASK, v, offset);  // MISTAKE: lanes below offset add themselves
  }
  return v;
}

__global__ void blockScan(const int* in, int* out, int n) {
  __shared__ int warp_offsets[32];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int i = blockIdx.x * blockDim.x + t;
  int x = i < n ? in[i] : 0;
  int inclusive = warpInclusiveScan(x);
  if (lane == 31) warp_offsets[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    int total = lane < blockDim.x / 32 ? warp_offsets[lane] : 0;
    int before = warpInclusiveScan(total) - total;
    if (lane < blockDim.x / 32) warp_offsets[lane] = before;
  }
  __syncthreads();
  if (i < n) out[i] = warp_offsets[warp] + inclusive - x;
}
