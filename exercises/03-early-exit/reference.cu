// Reference of 03-early-exit: the differences straight from global memory, with no shared memory
// and so no barrier.

#define BLOCK 256

__global__ void differenceReference(const float* in, float* out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    out[i] = in[i] - (i > 0 ? in[i - 1] : 0.0f);
  }
}
