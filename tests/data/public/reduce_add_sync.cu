// pattern: warp-level integer reductions with the sm_80 intrinsics __reduce_add_sync / __reduce_max_sync / __reduce_or_sync (redux.sync) (CUDA Programming Guide "Warp Reduce Functions", llm.c dev kernels)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/reduce_add_sync.cu --kernel warpRedux --grid 1 --block 64 --arg u32[64]=iota --arg u32[6]=zeros
// diagnostics: none
// expect: out = {496, 31, 31, 1520, 63, 31} (per warp: sum, max, bitwise or of the low 5 bits); no diagnostic
__global__ void warpRedux(const unsigned* in, unsigned* out) {
  const unsigned v = in[threadIdx.x];
  const unsigned sum = __reduce_add_sync(0xffffffffu, v);
  const unsigned biggest = __reduce_max_sync(0xffffffffu, v);
  const unsigned bits = __reduce_or_sync(0xffffffffu, v & 31u);
  if (threadIdx.x % 32 == 0) {
    const int w = threadIdx.x / 32;
    out[3 * w] = sum;
    out[3 * w + 1] = biggest;
    out[3 * w + 2] = bits;
  }
}
