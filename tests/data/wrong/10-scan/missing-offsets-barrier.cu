// Wrong 10-scan: no __syncthreads() after warp 0 scans the totals: another warp may read its
// offset before warp 0 has written it, and add its own total instead.
// expect: safety "race"
#define FULL_MASK 0xffffffffu

__device__ int warpInclusiveScan(int v) {
  int lane = threadIdx.x % 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    int left = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset) v += left;
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
  // MISTAKE: no barrier here
  if (i < n) out[i] = warp_offsets[warp] + inclusive - x;
}
