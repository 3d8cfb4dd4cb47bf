// out[i] = in[i] - in[i - 1], out[0] = in[0]: one thread per element, no shared memory.
__global__ void differenceReference(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] - (i > 0 ? in[i - 1] : 0.0f);
}
