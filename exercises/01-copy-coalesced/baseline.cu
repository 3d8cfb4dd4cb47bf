// Baseline of 01-copy-coalesced: the copy with threadIdx.x mapped to the row, so that a warp
// walks down a column (32 sectors per request). Speed is measured against it.

__global__ void copyMatrixByColumns(const float* in, float* out, int width, int height) {
  int col = blockIdx.x * 32 + threadIdx.y;
  int row = blockIdx.y * 32 + threadIdx.x;
  if (row < height && col < width) {
    out[row * width + col] = in[row * width + col];
  }
}
