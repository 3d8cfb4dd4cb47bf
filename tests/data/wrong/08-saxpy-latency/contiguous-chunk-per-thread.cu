// Wrong 08-saxpy-latency: each thread takes a contiguous chunk of n / threads elements instead of
// striding by the grid: neighbouring lanes are a chunk apart, so every warp-wide load touches 32
// sectors and uses 4 bytes of each.
// expect: performance global_ld_efficiency

__global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const int threads = gridDim.x * blockDim.x;
  const int chunk = (n + threads - 1) / threads;
  // MISTAKE: a block of consecutive elements per thread, not a grid-stride loop.
  const int begin = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;
  for (int i = begin; i < begin + chunk && i < n; ++i) y[i] = a * x[i] + y[i];
}
