// Wrong 01-vector-add: the bounds test is `i <= n`, so thread n reads and writes one element past
// the end.
// expect: safety "out-of-bounds"

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  // The blocks before this one hold blockIdx.x * blockDim.x threads; inside this block the
  // thread is number threadIdx.x. Neighbouring lanes get neighbouring elements, so each warp
  // reads and writes 32 consecutive floats: 4 sectors per request.
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  // MISTAKE: `<=` lets thread i = n through, one past the last element.
  if (i <= n) {
    c[i] = a[i] + b[i];
  }
}
