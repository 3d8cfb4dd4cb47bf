// Reference of 08-saxpy-latency: one element per thread.

__global__ void saxpyReference(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
