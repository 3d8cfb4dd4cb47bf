// pattern: <cuda_fp16.h> half math hsqrt / hexp: the header implements them with inline asm whose registers are named without `%` (e.g. `.reg.b32 f, C;`) (llm.c dev kernels, flash-attention-minimal use half math)
// issue-18 item: 2
// run: tilecamp profile tests/data/public/fp16_hsqrt_hexp.cu --kernel halfMath --grid 1 --block 32 --arg f32[32]=iota --arg f32[64]=zeros
// diagnostics: none
// expect: out[2i] ~= sqrt(i) and out[2i+1] ~= exp(i/16), each within half precision (rel. 1e-3); no diagnostic
#include <cuda_fp16.h>

__global__ void halfMath(const float* in, float* out) {
  const int i = threadIdx.x;
  const __half x = __float2half(in[i]);
  const __half scaled = __float2half(in[i] / 16.0f);
  out[2 * i] = __half2float(hsqrt(x));
  out[2 * i + 1] = __half2float(hexp(scaled));
}
