// The baseline of 10-histogram: every element is one atomicAdd on its bin in global memory.
__global__ void histogramGlobal(const unsigned* data, unsigned* bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&bins[data[i]], 1u);
  }
}
