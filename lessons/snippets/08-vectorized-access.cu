// Lesson 8's kernels: 16-byte accesses, __restrict__, grid-stride loops,
// and a kernel whose arithmetic intensity is a parameter.

// example-begin scale-float4
// One float4 per thread: thread q scales elements 4q .. 4q + 3.
__global__ void scaleFloat4(const float* __restrict__ in,
                            float* __restrict__ out, float a, int n) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * q + 3 < n) {
    // One 16-byte load (LDG.128) from a 16-byte-aligned address.
    float4 v = reinterpret_cast<const float4*>(in)[q];
    reinterpret_cast<float4*>(out)[q] =
        make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  } else {
    for (int i = 4 * q; i < n; ++i) out[i] = a * in[i];  // the tail
  }
}
// example-end scale-float4

// The same work, four scalar elements per thread: lanes 16 bytes apart.
__global__ void scaleScalar(const float* in, float* out, float a, int n) {
  int first = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int k = 0; k < 4; ++k) {
    if (first + k < n) out[first + k] = a * in[first + k];
  }
}

// example-begin grid-stride
// Any grid covers any n: each thread steps by the number of threads.
__global__ void saxpyStride(const float* x, float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
// example-end grid-stride

// example-begin horner
// Evaluates a polynomial of `degree` at every element: `degree` FMAs,
// 2 * degree FLOPs, for 8 bytes of DRAM traffic.
__global__ void horner(const float* __restrict__ in,
                       float* __restrict__ out, int n, int degree) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i], p = 1.0f;
    for (int k = 0; k < degree; ++k) p = p * x + 0.5f;
    out[i] = p;
  }
}
// example-end horner

// A float4 load from `in + offset + 4 * lane`: aligned only when offset is
// a multiple of 4.
__global__ void loadAtOffset(const float* in, float* out, int offset) {
  float4 v = *reinterpret_cast<const float4*>(in + offset + 4 * threadIdx.x);
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
