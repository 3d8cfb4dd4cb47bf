// pattern: kernels taking 16-bit scalar arguments by value: __half alpha, short, unsigned short (e.g. half-precision axpy/scale kernels, int16 quantization offsets)
// issue-18 item: 4
// run: tilecamp profile tests/data/public/half_short_scalar_args.cu --kernel scale16 --grid 1 --block 32 --arg f32[32]=iota --arg f32[32]=zeros --arg f16:0.5 --arg i16:-3 --arg u16:40000
// diagnostics: none
// expect: the f16:/i16:/u16: args are accepted; out[i] == 0.5*i - 3 + 40000 (exact in f32); no diagnostic
#include <cuda_fp16.h>

__global__ void scale16(const float* in, float* out, __half alpha, short offset, unsigned short bias) {
  const int i = threadIdx.x;
  out[i] = __half2float(alpha) * in[i] + (float)offset + (float)bias;
}
