// Wrong 03-early-exit: each thread reads its left neighbour from global memory, so an early return
// is harmless. Correct, but without the buffer and the barrier the exercise is about.
// expect: performance "shared memory"
// expect: performance "__syncthreads"

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i >= n) return;
  // MISTAKE: the neighbour from global memory: no shared buffer, no barrier.
  out[i] = in[i] - (i > 0 ? in[i - 1] : 0.0f);
}
