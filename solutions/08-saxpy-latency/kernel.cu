// Solution 08-saxpy-latency: four float4s of x and four of y in flight per thread before any
// store: 128 bytes a thread, 64 KiB per SM, where the stub had 8 bytes and 4 KiB.

#define UNROLL 4

__global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  const int quads = n / 4;
  const int stride = gridDim.x * blockDim.x;
  // Each trip takes UNROLL float4s a grid-width apart, so a warp's loads stay coalesced.
  for (int base = blockIdx.x * blockDim.x + threadIdx.x; base < quads; base += UNROLL * stride) {
    float4 u[UNROLL], v[UNROLL];
    // All the loads first: with __restrict__ the compiler knows no store below can change them,
    // so they leave one after another and the thread waits for DRAM once, not UNROLL times.
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
  // The last n % 4 elements, one thread each.
  int tail = 4 * quads + blockIdx.x * blockDim.x + threadIdx.x;
  if (tail < n) y[tail] = a * x[tail] + y[tail];
}
