// Wrong 08-saxpy-latency: float4s only; when n % 4 != 0 the last 1 to 3 elements keep their old y.
// expect: correctness "wrong"

#define UNROLL 4

__global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  const int quads = n / 4;
  const int stride = gridDim.x * blockDim.x;
  for (int base = blockIdx.x * blockDim.x + threadIdx.x; base < quads; base += UNROLL * stride) {
    float4 u[UNROLL], v[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
      if (base + k * stride < quads) {
        u[k] = x4[base + k * stride];
        v[k] = y4[base + k * stride];
      }
    }
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
      if (base + k * stride < quads) {
        y4[base + k * stride] = make_float4(a * u[k].x + v[k].x, a * u[k].y + v[k].y,
                                            a * u[k].z + v[k].z, a * u[k].w + v[k].w);
      }
    }
  }
  // MISTAKE: no scalar loop for the n % 4 elements after the last float4.
}
