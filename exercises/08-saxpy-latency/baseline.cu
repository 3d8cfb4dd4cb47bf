// Baseline of 08-saxpy-latency: the stub, one float per trip of a grid-stride loop with plain
// pointers. Speed is measured against it.

__global__ void saxpyScalar(const float* x, float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
