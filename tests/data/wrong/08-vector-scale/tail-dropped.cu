// Wrong 08-vector-scale: only whole float4s are written; when n % 4 != 0 the last 1 to 3 elements
// are never written.
// expect: correctness "never written"

__global__ void scale(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int quad = blockIdx.x * blockDim.x + threadIdx.x;
  // MISTAKE: no scalar path for the tail.
  if (4 * quad + 3 < n) {
    float4 v = reinterpret_cast<const float4*>(in)[quad];
    reinterpret_cast<float4*>(out)[quad] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  }
}
