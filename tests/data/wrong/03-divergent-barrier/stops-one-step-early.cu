// Wrong 03-divergent-barrier: the loop runs while `stride > 1`, so the last step,
// `partial[0] += partial[1]`, is never done.
// expect: correctness "elements of `out` are wrong"

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // blockDim.x is a power of two, so the halves always match. The loop's trip count depends only
  // on blockDim.x, the same for every thread: all threads run every step.
  for (int stride = blockDim.x / 2; stride > 1; stride /= 2) {  // MISTAKE: skips stride 1
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    // Outside the `if`: every thread of the block arrives, at every step. The adds of the next
    // step read what other warps wrote in this one, so they must wait for it.
    __syncthreads();
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
