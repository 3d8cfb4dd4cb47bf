// Wrong 03-early-exit: no __syncthreads() at all: thread 32 reads buffer[31], which a thread of
// another warp stores.
// expect: safety "shared-memory race"

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  bool inside = i < n;  // false for the spare threads of the last block

  if (inside) buffer[t] = in[i];
  // MISTAKE: no barrier: buffer[t - 1] of the first thread of a warp is stored by another warp.
  if (inside) {
    // buffer[t - 1] was stored by thread t - 1, which is inside too (it comes before t).
    float left = t > 0 ? buffer[t - 1] : (i > 0 ? in[i - 1] : 0.0f);
    out[i] = buffer[t] - left;
  }
}
