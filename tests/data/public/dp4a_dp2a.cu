// pattern: packed int8 / int16 dot products __dp4a and __dp2a_lo / __dp2a_hi (quantized GEMM and convolution kernels, CUDA Math API "Integer Intrinsics")
// issue-18 item: 3
// run: tilecamp profile tests/data/public/dp4a_dp2a.cu --kernel dotProducts --grid 1 --block 32 --arg i32[32]=iota --arg i32[96]=zeros
// diagnostics: none
// expect: a = 0x01FF7F80 + i*0x01010101, b = 0x02FE0380 - i (wrapping 32-bit); out[3i] == i + sum_k s8(a,k)*s8(b,k);
//         out[3i+1] == 7 + s16(a,0)*s8(b,0) + s16(a,1)*s8(b,1); out[3i+2] == (u32)(-7 + u16(a,0)*u8(b,2) + u16(a,1)*u8(b,3)); no diagnostic
__global__ void dotProducts(const int* in, int* out) {
  const int i = threadIdx.x;
  const int a = 0x01FF7F80 + in[i] * 0x01010101;
  const int b = 0x02FE0380 - in[i];
  out[3 * i] = __dp4a(a, b, i);
  out[3 * i + 1] = __dp2a_lo(a, b, 7);
  out[3 * i + 2] = (int)__dp2a_hi((unsigned)a, (unsigned)b, (unsigned)-7);
}
