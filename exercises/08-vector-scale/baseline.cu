// Baseline of 08-vector-scale: the stub, four scalar elements per thread with plain pointers.
// Speed is measured against it.

__global__ void scaleScalar(const float* in, float* out, float a, int n) {
  int first = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int k = 0; k < 4; ++k) {
    if (first + k < n) out[first + k] = a * in[first + k];
  }
}
