// Wrong 08-vector-scale: the element index used as a float4 index: float4 number 4 * quad starts
// at element 16 * quad, four times too far.
// expect: safety "out-of-bounds"

__global__ void scale(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int quad = blockIdx.x * blockDim.x + threadIdx.x;
  int first = 4 * quad;
  if (first + 3 < n) {
    // MISTAKE: indexing a float4 pointer with an element index.
    float4 v = reinterpret_cast<const float4*>(in)[first];
    reinterpret_cast<float4*>(out)[first] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  } else {
    for (int i = first; i < n; ++i) out[i] = a * in[i];
  }
}
