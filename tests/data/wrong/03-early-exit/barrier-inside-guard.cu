// Wrong 03-early-exit: the load and the barrier both sit inside `if (inside)`, so the spare threads
// of the last block never reach the barrier.
// expect: safety "without reaching the barrier"

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  bool inside = i < n;  // false for the spare threads of the last block

  if (inside) {
    buffer[t] = in[i];
    __syncthreads();  // MISTAKE: only the threads inside arrive
  }
  if (inside) {
    // buffer[t - 1] was stored by thread t - 1, which is inside too (it comes before t).
    float left = t > 0 ? buffer[t - 1] : (i > 0 ? in[i - 1] : 0.0f);
    out[i] = buffer[t] - left;
  }
}
