// pattern: warpSize used as a run-time value: lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, loop bound warpSize/2 (cuda-samples, countless tutorials)
// issue-18 item: 2
// run: tilecamp profile tests/data/public/warpsize_runtime.cu --kernel perWarpSum --grid 1 --block 96 --arg i32[96]=iota --arg i32[3]=zeros
// diagnostics: none
// expect: out = {496, 1520, 2544} (sum of each warp's 32 values); no diagnostic
__global__ void perWarpSum(const int* in, int* out) {
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  int v = in[threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (lane == 0) out[warp] = v;
}
