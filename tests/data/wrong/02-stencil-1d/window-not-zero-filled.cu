// Wrong 02-stencil-1d: past the end of the array the window is left unwritten instead of storing 0,
// so the last outputs add shared memory nobody wrote (garbage on a GPU).
// expect: safety "before any thread of the block wrote it"
// The emulator starts every block's shared memory with garbage (0xcd bytes), as a GPU may leave
// it, so the entries never stored spoil the sums, and the read is an error (uninitialized-shared).
// On an H200 this kernel gave right sums: a fresh context's shared memory held zeros.

#define RADIUS 3
#define BLOCK_SIZE 256  // at least RADIUS: the first RADIUS threads load the halos

__global__ void stencil1d(const float* in, float* out, int n) {
  // window[RADIUS + t] holds in[start + t]; window[0 .. RADIUS - 1] the left halo and
  // window[RADIUS + BLOCK_SIZE ..] the right halo.
  __shared__ float window[BLOCK_SIZE + 2 * RADIUS];

  int t = threadIdx.x;
  int start = blockIdx.x * BLOCK_SIZE;
  int i = start + t;

  if (i < n) window[RADIUS + t] = in[i];  // MISTAKE: nothing stored past the end of the array
  // The first RADIUS threads also fetch the halos: RADIUS elements before the block and
  // RADIUS after it, or 0 where they fall outside 0 .. n-1.
  if (t < RADIUS) {
    int left = start - RADIUS + t;
    int right = start + BLOCK_SIZE + t;
    window[t] = left >= 0 ? in[left] : 0.0f;
    if (right < n) window[RADIUS + BLOCK_SIZE + t] = in[right];  // MISTAKE: no 0 past the end
  }

  // Thread t reads window[t .. t + 2 * RADIUS], written by its neighbours and possibly by the
  // first warp: wait for all of them. Every thread gets here, including those past n (an
  // early `return` above this line would break lesson 3's rule).
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += window[t + k];  // shared loads, no global ones
    out[i] = sum / (2 * RADIUS + 1);
  }
}
