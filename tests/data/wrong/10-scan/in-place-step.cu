// Wrong 10-scan: Hillis and Steele's scan in one buffer: a step reads t - offset while the
// thread that owns that word may already have overwritten it in the same step.
// expect: safety "race"
__global__ void blockScan(const int* in, int* out, int n) {
  extern __shared__ int buffer[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buffer[t] = t > 0 && i - 1 < n ? in[i - 1] : 0;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    if (t >= offset) buffer[t] += buffer[t - offset];  // MISTAKE: read and write in one step
    __syncthreads();
  }
  if (i < n) out[i] = buffer[t];
}
