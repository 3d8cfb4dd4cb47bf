// Baseline of 02-stencil-1d: lesson 2's naive stencil, 2 * RADIUS + 1 global loads per output.

#define RADIUS 3

__global__ void stencilNaive(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = i + k;
    if (j >= 0 && j < n) sum += in[j];
  }
  out[i] = sum / (2 * RADIUS + 1);
}
