// attack: every warp stays under the per-warp instruction budget, but all of them together would run for minutes
// exercise: 01-vector-add
// expect: fail time-limit
// time-limit: 3
__global__ void vectorAdd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 300000; ++k) s += a[(i + k) % n] * 1e-30f;
  if (i < n) c[i] = a[i] + b[i] + s * 0;
}
