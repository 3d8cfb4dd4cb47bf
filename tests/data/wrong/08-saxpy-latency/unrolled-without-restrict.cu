// Wrong 08-saxpy-latency: four elements per trip, but plain pointers: the compiler must assume a
// store to y can change x, so each load still waits for the store before it, one round trip to
// DRAM per element as in the stub.
// expect: performance modelled_speedup

__global__ void saxpy(const float* x, float* y, float a, int n) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
    // MISTAKE: no __restrict__ on x and y, so these four loads and stores stay in order.
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      if (i + k * stride < n) y[i + k * stride] = a * x[i + k * stride] + y[i + k * stride];
    }
  }
}
