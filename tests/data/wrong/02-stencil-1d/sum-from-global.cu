// Wrong 02-stencil-1d: the window is loaded into shared memory, but the sum still reads the
// `2 * RADIUS + 1` neighbours from global memory.
// expect: performance global_ld_elements_per_output

#define RADIUS 3
#define BLOCK_SIZE 256  // at least RADIUS: the first RADIUS threads load the halos

__global__ void stencil1d(const float* in, float* out, int n) {
  // window[RADIUS + t] holds in[start + t]; window[0 .. RADIUS - 1] the left halo and
  // window[RADIUS + BLOCK_SIZE ..] the right halo.
  __shared__ float window[BLOCK_SIZE + 2 * RADIUS];

  int t = threadIdx.x;
  int start = blockIdx.x * BLOCK_SIZE;
  int i = start + t;

  // Every thread stores its own element, lanes along `in`: coalesced. Past the end of the
  // array the stencil's rule says 0; storing it keeps the sum below free of tests.
  window[RADIUS + t] = i < n ? in[i] : 0.0f;
  // The first RADIUS threads also fetch the halos: RADIUS elements before the block and
  // RADIUS after it, or 0 where they fall outside 0 .. n-1.
  if (t < RADIUS) {
    int left = start - RADIUS + t;
    int right = start + BLOCK_SIZE + t;
    window[t] = left >= 0 ? in[left] : 0.0f;
    window[RADIUS + BLOCK_SIZE + t] = right < n ? in[right] : 0.0f;
  }

  // Thread t reads window[t .. t + 2 * RADIUS], written by its neighbours and possibly by the
  // first warp: wait for all of them. Every thread gets here, including those past n (an
  // early `return` above this line would break lesson 3's rule).
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
    // MISTAKE: the neighbours come from `in` again, not from the window.
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      if (i + k >= 0 && i + k < n) sum += in[i + k];
    }
    out[i] = sum / (2 * RADIUS + 1);
  }
}
