// Wrong 03-early-exit: thread 0 of every block takes 0 as its left neighbour, forgetting that it
// lives in the previous block: out[256], out[512]... are wrong.
// expect: correctness "elements of `out` are wrong"

#define BLOCK 256

__global__ void difference(const float* in, float* out, int n) {
  __shared__ float buffer[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  bool inside = i < n;  // false for the spare threads of the last block

  if (inside) buffer[t] = in[i];
  // Unconditional: the CUDA Programming Guide requires every thread of the block to arrive.
  __syncthreads();
  if (inside) {
    // buffer[t - 1] was stored by thread t - 1, which is inside too (it comes before t).
    float left = t > 0 ? buffer[t - 1] : 0.0f;  // MISTAKE: in[i - 1] belongs to the previous block
    out[i] = buffer[t] - left;
  }
}
