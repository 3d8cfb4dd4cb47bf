// Wrong 03-divergent-barrier: a __syncthreads() in each branch of the `if`, so every thread reaches
// *a* barrier, but not the same one.
// expect: safety "deadlock"

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // blockDim.x is a power of two, so the halves always match. The loop's trip count depends only
  // on blockDim.x, the same for every thread: all threads run every step.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    // MISTAKE: two different __syncthreads(); a block must meet at one.
    if (t < stride) {
      partial[t] += partial[t + stride];
      __syncthreads();
    } else {
      __syncthreads();
    }
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
