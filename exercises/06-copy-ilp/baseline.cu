// The baseline of 06-copy-ilp: one float a thread, blocks of 256 threads.

__global__ void copyOne(const float* in, float* out, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) {
    out[i] = in[i];
  }
}
