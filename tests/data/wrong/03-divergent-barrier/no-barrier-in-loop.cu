// Wrong 03-divergent-barrier: the barrier inside the loop is dropped instead of moved out of the
// `if`: each step reads partial sums that other warps are still writing.
// expect: safety "shared-memory race"

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // blockDim.x is a power of two, so the halves always match. The loop's trip count depends only
  // on blockDim.x, the same for every thread: all threads run every step.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    // MISTAKE: no barrier: the next step reads what other warps write in this one.
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
