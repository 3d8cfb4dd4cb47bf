// The baseline of 10-scan: the stub's scan, log2(blockDim.x) steps through shared memory, two
// buffers so that no step reads a value the same step overwrites.
__global__ void blockScanShared(const int* in, int* out, int n) {
  extern __shared__ int buffer[];  // 2 * blockDim.x ints
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int* from = buffer;
  int* to = buffer + blockDim.x;
  from[t] = t > 0 && i - 1 < n ? in[i - 1] : 0;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    to[t] = from[t] + (t >= offset ? from[t - offset] : 0);
    __syncthreads();
    int* swap = from;
    from = to;
    to = swap;
  }
  if (i < n) out[i] = from[t];
}
