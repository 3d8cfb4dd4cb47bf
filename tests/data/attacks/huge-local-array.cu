// attack: a 256 MiB local array per thread, to exhaust the grader's memory
// exercise: 01-vector-add
// expect: fail correctness
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  float big[1 << 26];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  big[i % (1 << 26)] = a[i % n];
  if (i < n) c[i] = a[i] + b[i] + 0 * big[(i * 7) % (1 << 26)];
}
