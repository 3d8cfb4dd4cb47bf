// pattern: bit and SIMD intrinsics that lower to single PTX instructions: __fns (fns), __vabsdiffu4 (vabsdiff4, a video instruction), __vmaxs2 (max.s16x2), __hmax2_nan (max.NaN.f16x2), __hfma2_relu (fma.rn.relu.f16x2) (CUDA Math API SIMD / half2 intrinsics; image-processing and quantized kernels)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/simd_video_fns.cu --kernel simdBits --grid 1 --block 32 --arg u32[32]=iota --arg u32[160]=zeros
// diagnostics: none
// expect: with a = 0x3C00BC00 + 0x00010203*i, b = 0x40003800 + 0x01000100*i (i = in[i]): out[5i..5i+4] == fns(a,3,2), vabsdiffu4(a,b), vmaxs2(a,b), hmax2_nan(a,b), hfma2_relu(a,b,a) (checker in INVENTORY.md); no diagnostic
#include <cuda_fp16.h>

__device__ unsigned bitsOf(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ __half2 halvesOf(unsigned u) { return *reinterpret_cast<__half2*>(&u); }

__global__ void simdBits(const unsigned* in, unsigned* out) {
  const unsigned i = in[threadIdx.x];
  const unsigned a = 0x3C00BC00u + 0x00010203u * i;
  const unsigned b = 0x40003800u + 0x01000100u * i;
  unsigned* o = out + 5 * threadIdx.x;
  o[0] = __fns(a, 3, 2);
  o[1] = __vabsdiffu4(a, b);
  o[2] = __vmaxs2(a, b);
  o[3] = bitsOf(__hmax2_nan(halvesOf(a), halvesOf(b)));
  o[4] = bitsOf(__hfma2_relu(halvesOf(a), halvesOf(b), halvesOf(a)));
}
