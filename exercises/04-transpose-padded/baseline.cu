// Baseline of the transpose exercises: the naive transpose of lesson 2. Each warp reads a row of
// `in` (4 sectors per request) and writes a column of `out` (32 sectors per request).

__global__ void transposeNaive(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of `in`
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of `in`
  if (x < width && y < height) {
    out[x * height + y] = in[y * width + x];
  }
}
