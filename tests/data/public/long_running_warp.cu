// pattern: a kernel whose warps legitimately execute more than 5M instructions each (flash-attention-minimal's forward pass at N >= 512 loops over every K/V tile per query row)
// issue-18 item: 4
// run: tilecamp profile tests/data/public/long_running_warp.cu --kernel longLoop --grid 1 --block 32 --arg u32[32]=zeros --arg i32:6000000 --max-warp-instructions 20000000
// diagnostics: none
// expect: (with a way to raise the per-warp budget) out[t] == the 32-bit LCG x <- x*1664525 + 1013904223 iterated 6,000,000 times (about 6M warp instructions: the loop is unrolled 4x) from x = t; no diagnostic
__global__ void longLoop(unsigned* out, int iterations) {
  unsigned x = threadIdx.x;
  for (int k = 0; k < iterations; ++k) x = x * 1664525u + 1013904223u;
  out[threadIdx.x] = x;
}
