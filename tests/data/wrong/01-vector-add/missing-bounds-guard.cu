// Wrong 01-vector-add: no bounds test, so the spare threads of the last block read a and b and
// write c past their ends.
// expect: safety "out-of-bounds"

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  // The blocks before this one hold blockIdx.x * blockDim.x threads; inside this block the
  // thread is number threadIdx.x. Neighbouring lanes get neighbouring elements, so each warp
  // reads and writes 32 consecutive floats: 4 sectors per request.
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  // MISTAKE: no `if (i < n)`: every thread of the last block reads and writes element i.
  c[i] = a[i] + b[i];
}
