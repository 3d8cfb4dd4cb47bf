// Solution 01-vector-add: one element per thread, and a bounds test for the spare threads of
// the last block.

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  // The blocks before this one hold blockIdx.x * blockDim.x threads; inside this block the
  // thread is number threadIdx.x. Neighbouring lanes get neighbouring elements, so each warp
  // reads and writes 32 consecutive floats: 4 sectors per request.
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  // The grid has ceil(n / 256) * 256 threads: up to 255 more than elements. Without this
  // test they would write past the end of c (silently, on a GPU).
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
