// Wrong 03-divergent-barrier: the last five steps, inside warp 0, run without any barrier and
// without `volatile` (old warp-synchronous code, and wrong even before Volta): nothing makes the
// compiler read a neighbour's partial sum after the neighbour has stored it, and since Volta
// nothing makes the lanes of a warp move in lockstep either. Measured on an H200 (driver
// 580.159.04, CUDA 13.0, nvcc -O3 -arch=sm_90), 65,536 blocks of 256 threads summing 1.0s: a
// tail like this one returned 48 instead of 256 in every block, and compute-sanitizer's racecheck
// found 1 hazard, reported as a warning (0 errors). The classic tail with `volatile` was right
// in every block (racecheck: 5 hazards, warnings only), but since Volta nothing guarantees it;
// __syncwarp() between the reads and the writes, or shuffles, are what the rules allow.
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
