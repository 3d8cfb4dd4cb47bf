// Baseline of 07-compact: each kept element's slot from an inclusive scan of the block's 256
// keep flags in shared memory (Hillis and Steele: at step d every thread adds the value d places
// to its left), 8 steps of two barriers each: 17 barriers per warp.

#define BLOCK 256

__global__ void compactScan(const float* in, float* out, int* counts, int n) {
  __shared__ int scan[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  float x = i < n ? in[i] : 0.0f;
  bool keep = x > 0.0f;
  scan[t] = keep;
  __syncthreads();
  for (int d = 1; d < BLOCK; d *= 2) {
    int left = t >= d ? scan[t - d] : 0;
    __syncthreads();  // every thread has read before any thread writes
    scan[t] += left;
    __syncthreads();  // and has written before the next step reads
  }
  // scan[t]: the keepers among threads 0..t, this one included.
  if (keep) out[blockIdx.x * BLOCK + scan[t] - 1] = x;
  if (t == BLOCK - 1) counts[blockIdx.x] = scan[t];
}
