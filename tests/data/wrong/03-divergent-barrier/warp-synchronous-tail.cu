// Wrong 03-divergent-barrier: the last five steps, inside warp 0, run without any barrier (old
// warp-synchronous code): since Volta the lanes of a warp are not in lockstep, and without
// __syncwarp() a lane can read a partial sum before its neighbour has written it. On an H200 the
// sums came out several times too small (126.0 expected, 26.1 returned), and compute-sanitizer's
// racecheck passed it (nothing orders the lanes, so neither the compiler nor the scheduler has to).
// expect: safety "(the same warp)"
// expect: safety "with no __syncwarp() between them"

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // blockDim.x is a power of two, so the halves always match. The loop's trip count depends only
  // on blockDim.x, the same for every thread: all threads run every step.
  for (int stride = blockDim.x / 2; stride > 16; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    // Outside the `if`: every thread of the block arrives, at every step. The adds of the next
    // step read what other warps wrote in this one, so they must wait for it.
    __syncthreads();
  }

  // MISTAKE: the last steps within warp 0 with no __syncwarp() between them.
  if (t < 16) {
    for (int stride = 16; stride > 0; stride /= 2) {
      if (t < stride) partial[t] += partial[t + stride];
    }
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
