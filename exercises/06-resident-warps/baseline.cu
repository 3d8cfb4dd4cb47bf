// The baseline of 06-resident-warps: one warp a block, one row of 32 floats a block.

__global__ void copyRowsOneWarp(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y;
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
