// Reference of 08-vector-scale: one element per thread.

__global__ void scaleReference(const float* in, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}
