// Wrong 08-vector-scale: the float4 address counted in floats, not in float4s: lane t reads from
// element t, 4 bytes after lane t - 1, and a 16-byte load from an address that is not a multiple
// of 16 is refused (on a GPU: "misaligned address").
// expect: safety "misaligned"

__global__ void scale(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int quad = blockIdx.x * blockDim.x + threadIdx.x;
  int first = 4 * quad;
  if (first + 3 < n) {
    // MISTAKE: &in[quad] is element quad, not element 4 * quad; three lanes in four misaligned.
    float4 v = *reinterpret_cast<const float4*>(&in[quad]);
    *reinterpret_cast<float4*>(&out[quad]) = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  } else {
    for (int i = first; i < n; ++i) out[i] = a * in[i];
  }
}
