// pattern: packed 8-bit pixels through the CUDA SIMD intrinsics: frame difference and motion mask (__vabsdiffu4, __vcmpgtu4), saturating brighten (__vaddus4), blend (__vavgu4), wrapping add (__vadd4), sums of absolute differences (__vsadu4, __vsadu2: vabsdiff4/vabsdiff2 .add) and 16-bit lanes (__vadd2, __vsub2: add.u16x2, add.s16x2) (CUDA Math API SIMD intrinsics; block-matching motion estimation and video filters)
// issue-18 item: 3
// run: tilecamp profile tests/data/public/simd_video_intrinsics.cu --kernel frameDifference --grid 1 --block 64 --arg u32[64]=iota --arg u32[512]=zeros
// diagnostics: none
// expect: with a = i*0x9E3779B1, b = (i^0x5BD1E995)*0x85EBCA77 (wrapping; i = in[i]): out[8i..8i+7] == vabsdiffu4(a,b), vcmpgtu4(that,0x20202020), vaddus4(a,0x40404040), vavgu4(a,b), vadd4(a,b), vsadu4(a,b), vsadu2(a,b), vsub2(a,b)^vadd2(a,b) (checker in check_outputs.py); no diagnostic

// Each thread holds four 8-bit pixels of two frames in one word each.
__global__ void frameDifference(const unsigned* in, unsigned* out) {
  const unsigned i = in[threadIdx.x];
  const unsigned current = i * 0x9E3779B1u;
  const unsigned previous = (i ^ 0x5BD1E995u) * 0x85EBCA77u;
  unsigned* o = out + 8 * threadIdx.x;
  const unsigned difference = __vabsdiffu4(current, previous);
  o[0] = difference;
  o[1] = __vcmpgtu4(difference, 0x20202020u);  // 0xff where a pixel moved by more than 32
  o[2] = __vaddus4(current, 0x40404040u);      // brighter, clamped at 255
  o[3] = __vavgu4(current, previous);
  o[4] = __vadd4(current, previous);
  o[5] = __vsadu4(current, previous);          // the block-matching cost of four pixels
  o[6] = __vsadu2(current, previous);
  o[7] = __vsub2(current, previous) ^ __vadd2(current, previous);
}
