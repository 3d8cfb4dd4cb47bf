// Wrong 02-stencil-1d: no __syncthreads() between filling the window and summing from it: a thread
// reads neighbours and halo elements that other warps have not stored yet.
// expect: safety "shared-memory race"

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

  // MISTAKE: no __syncthreads(): the sum reads elements stored by other warps.

  if (i < n) {
    float sum = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += window[t + k];  // shared loads, no global ones
    out[i] = sum / (2 * RADIUS + 1);
  }
}
