// Wrong 02-stencil-1d: the stub's early `return` for i >= n is kept above the barrier, and the
// window entries of those threads are never stored: the last outputs read shared memory nobody
// wrote (garbage on a GPU).
// expect: safety "without reaching the barrier"

#define RADIUS 3
#define BLOCK_SIZE 256  // at least RADIUS: the first RADIUS threads load the halos

__global__ void stencil1d(const float* in, float* out, int n) {
  // window[RADIUS + t] holds in[start + t]; window[0 .. RADIUS - 1] the left halo and
  // window[RADIUS + BLOCK_SIZE ..] the right halo.
  __shared__ float window[BLOCK_SIZE + 2 * RADIUS];

  int t = threadIdx.x;
  int start = blockIdx.x * BLOCK_SIZE;
  int i = start + t;
  if (i >= n) return;  // MISTAKE: leaves before the barrier below

  window[RADIUS + t] = in[i];
  // The first RADIUS threads also fetch the halos: RADIUS elements before the block and
  // RADIUS after it, or 0 where they fall outside 0 .. n-1.
  if (t < RADIUS) {
    int left = start - RADIUS + t;
    int right = start + BLOCK_SIZE + t;
    window[t] = left >= 0 ? in[left] : 0.0f;
    window[RADIUS + BLOCK_SIZE + t] = right < n ? in[right] : 0.0f;
  }

  // Thread t reads window[t .. t + 2 * RADIUS], written by its neighbours and possibly by the
  // first warp: wait for all of them.
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += window[t + k];  // shared loads, no global ones
    out[i] = sum / (2 * RADIUS + 1);
  }
}
