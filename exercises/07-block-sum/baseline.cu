// Baseline of 07-block-sum: the shared-memory tree of 03-divergent-barrier, with a
// __syncthreads() after each of its log2(blockDim.x) steps.

__global__ void blockSumTree(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
