// Wrong 03-divergent-barrier: thread 0 of each block adds up the block's elements on its own, in a
// loop: correct and race-free, but with no shared memory and no barrier, and 256 times the steps.
// expect: performance "shared memory"
// expect: performance "__syncthreads"

__global__ void blockSum(const float* in, float* out, int n) {
  // MISTAKE: one thread does the whole reduction.
  if (threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int t = 0; t < blockDim.x; ++t) {
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) sum += in[i];
  }
  out[blockIdx.x] = sum;
}
