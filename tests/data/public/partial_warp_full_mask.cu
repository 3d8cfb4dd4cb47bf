// pattern: blockDim 48 leaves warp 1 with 16 threads, yet the code uses the full mask __shfl_xor_sync(0xffffffff, ...); lanes 16-31 do not exist and no existing lane reads from them (offsets < 16) (common in tutorials; the Programming Guide requires only the non-exited threads named in the mask to execute it)
// issue-18 item: 5
// run: tilecamp profile tests/data/public/partial_warp_full_mask.cu --kernel sixteenSums --grid 1 --block 48 --arg i32[48]=iota --arg i32[3]=zeros
// diagnostics: none
// expect: out[g] == sum of in[16g .. 16g+15] == 256g + 120: out = {120, 376, 632}; no diagnostic
__global__ void sixteenSums(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = 8; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);  // lane ^ offset stays within the lane's group of 16
  }
  if (threadIdx.x % 16 == 0) out[threadIdx.x / 16] = v;
}
