// Wrong 03-divergent-barrier: a thread returns once it has nothing more to add
// (`if (t >= stride) return;`), so the barriers of the later steps wait for fewer threads than the
// block has.
// expect: safety "without reaching the barrier"
// The sums come out right (the emulator, like today's GPUs, counts exited threads as arrived), so
// only the promoted early-exit-barrier finding rejects it.

__global__ void blockSum(const float* in, float* out, int n) {
  extern __shared__ float partial[];  // blockDim.x floats, sized at launch
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;

  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // blockDim.x is a power of two, so the halves always match. The loop's trip count depends only
  // on blockDim.x, the same for every thread: all threads run every step.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t >= stride) return;  // MISTAKE: leaves before the barriers of the later steps
    partial[t] += partial[t + stride];
    // Outside the `if`: every thread of the block arrives, at every step. The adds of the next
    // step read what other warps wrote in this one, so they must wait for it.
    __syncthreads();
  }

  if (t == 0) out[blockIdx.x] = partial[0];
}
