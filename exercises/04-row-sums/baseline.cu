// Baseline of 04-row-sums: one thread per row, walking its row in global memory, launched as
// blocks of 256 threads. At each step the 32 lanes of a warp read words `width` floats apart:
// 32 sectors per request, where the tiled kernel's loads take 4.

__global__ void rowSumsNaive(const float* in, float* out, int width, int height) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;  // lanes: down a column
  if (row < height) {
    float sum = 0.0f;
    for (int c = 0; c < width; ++c) sum += in[row * width + c];
    out[row] = sum;
  }
}
