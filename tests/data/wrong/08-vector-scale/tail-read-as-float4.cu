// Wrong 08-vector-scale: the bounds test asks only whether the first of the four elements exists,
// so the last thread of an n that is not a multiple of 4 reads and writes a float4 past the end.
// expect: safety "out-of-bounds"

__global__ void scale(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int quad = blockIdx.x * blockDim.x + threadIdx.x;
  // MISTAKE: 4 * quad < n, where all four elements must exist: 4 * quad + 3 < n.
  if (4 * quad < n) {
    float4 v = reinterpret_cast<const float4*>(in)[quad];
    reinterpret_cast<float4*>(out)[quad] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  }
}
