// Wrong 01-copy-coalesced: no bounds test, so the edge tiles that stick out of the matrix read and
// write past its end.
// expect: safety "out-of-bounds"

__global__ void copyMatrix(const float* in, float* out, int width, int height) {
  // A warp is one row of the block (threadIdx.y fixed, threadIdx.x = 0..31), so its lanes
  // touch 32 consecutive floats of one row of the matrix: 128 bytes, 4 sectors per request,
  // for the load and for the store alike.
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 32 + threadIdx.y;
  // MISTAKE: no bounds test; edge tiles stick out of the matrix when a side is not a multiple of 32.
  out[row * width + col] = in[row * width + col];
}
