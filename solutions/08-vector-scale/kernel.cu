// Solution 08-vector-scale: one float4 per thread, a scalar tail, and pointers that promise not
// to overlap.

__global__ void scale(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int quad = blockIdx.x * blockDim.x + threadIdx.x;  // which group of 4 floats
  int first = 4 * quad;
  if (first + 3 < n) {
    // A float4 load (LDG.128) must start at a multiple of 16 bytes. cudaMalloc's buffers start
    // at 256-byte boundaries, and quad is counted in float4s, so element 4 * quad is one. A warp
    // then reads 512 consecutive bytes: 16 sectors, every byte used, in one instruction.
    float4 v = reinterpret_cast<const float4*>(in)[quad];
    reinterpret_cast<float4*>(out)[quad] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  } else {
    // The last thread of an n that is not a multiple of 4 has 1 to 3 elements: a float4 there
    // would read past the end of `in`.
    for (int i = first; i < n; ++i) out[i] = a * in[i];
  }
}
