// Lesson 8's hardware figures: copies and scales with scalar and float4 accesses, with and without
// __restrict__, one element per thread and grid-stride; a SAXPY on a grid of 2 blocks per SM. Each
// kernel is timed with CUDA events, median of 20 launches after 3 warm-ups; every buffer is 256 MiB,
// four times the H200's L2, so nothing is served from L2 between launches. Build and run on the GPU
// machine (bench/vector_access_gpu.sh does both, and the ncu and misaligned runs):
//   nvcc -O3 -arch=sm_90 -o /tmp/vector_access bench/vector_access_gpu.cu && /tmp/vector_access
//   /tmp/vector_access once        each kernel once (for ncu)
//   /tmp/vector_access misaligned  a float4 load from a 4-byte-aligned address
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess) {                                                                  \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));      \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// --- one element per thread ---------------------------------------------------------------
__global__ void scaleOne(const float* in, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}
__global__ void scaleOneRestrict(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}
// --- four elements per thread, scalar: consecutive (lanes 16 B apart) or a block-width apart --
__global__ void scaleFourConsecutive(const float* in, float* out, float a, int n) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int k = 0; k < 4; ++k)
    if (i + k < n) out[i + k] = a * in[i + k];
}
__global__ void scaleFourConsecutiveRestrict(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int k = 0; k < 4; ++k)
    if (i + k < n) out[i + k] = a * in[i + k];
}
__global__ void scaleFourStrided(const float* in, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  for (int k = 0; k < 4; ++k)
    if (i + k * blockDim.x < n) out[i + k * blockDim.x] = a * in[i + k * blockDim.x];
}
__global__ void scaleFourStridedRestrict(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  for (int k = 0; k < 4; ++k)
    if (i + k * blockDim.x < n) out[i + k * blockDim.x] = a * in[i + k * blockDim.x];
}
// --- one float4 per thread (n % 4 == 0 here) ----------------------------------------------
__global__ void scaleFloat4(const float* in, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i + 3 < n) {
    float4 v = reinterpret_cast<const float4*>(in)[i];
    reinterpret_cast<float4*>(out)[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  }
}
__global__ void scaleFloat4Restrict(const float* __restrict__ in, float* __restrict__ out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i + 3 < n) {
    float4 v = reinterpret_cast<const float4*>(in)[i];
    reinterpret_cast<float4*>(out)[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  }
}
__global__ void copyFloat4Restrict(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i + 3 < n) reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
}
// --- SAXPY y = a x + y, grid-stride over a fixed grid ---------------------------------------
__global__ void saxpyStride(const float* x, float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
__global__ void saxpyStrideRestrict(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
__global__ void saxpyStrideFloat4(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 4; i += gridDim.x * blockDim.x) {
    float4 u = x4[i], v = y4[i];
    y4[i] = make_float4(a * u.x + v.x, a * u.y + v.y, a * u.z + v.z, a * u.w + v.w);
  }
}
// Four float4s of x and of y in flight per thread before any store.
template <bool Restrict>
__device__ void saxpyFour(const float* x_, float* y_, float a, int n) {
  const float4* x4 = reinterpret_cast<const float4*>(x_);
  float4* y4 = reinterpret_cast<float4*>(y_);
  const int stride = gridDim.x * blockDim.x, quads = n / 4;
  for (int base = blockIdx.x * blockDim.x + threadIdx.x; base < quads; base += 4 * stride) {
    float4 u[4], v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (base + k * stride < quads) { u[k] = x4[base + k * stride]; v[k] = y4[base + k * stride]; }
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (base + k * stride < quads)
        y4[base + k * stride] = make_float4(a * u[k].x + v[k].x, a * u[k].y + v[k].y, a * u[k].z + v[k].z, a * u[k].w + v[k].w);
  }
}
__global__ void saxpyStrideFloat4x4(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  saxpyFour<true>(x, y, a, n);
}
// Four scalar elements per iteration, plain pointers: each store may change what the next load reads.
__global__ void saxpyStrideUnrolledPlain(const float* x, float* y, float a, int n) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) y[i + k * stride] = a * x[i + k * stride] + y[i + k * stride];
  }
}
__global__ void saxpyStrideUnrolledRestrict(const float* __restrict__ x, float* __restrict__ y, float a, int n) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
    float u[4], v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) { u[k] = x[i + k * stride]; v[k] = y[i + k * stride]; }
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) y[i + k * stride] = a * u[k] + v[k];
  }
}
// --- lesson 4's copy, 8192 x 8192, 32 x 8 threads, four rows each --------------------------
__global__ void copyRows(const float* in, float* out, int width) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * width + x] = in[(y + j) * width + x];
}
__global__ void copyRowsRestrict(const float* __restrict__ in, float* __restrict__ out, int width) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * width + x] = in[(y + j) * width + x];
}
__global__ void loadFloat4At(const float* in, float* out, int offset) {
  float4 v = *reinterpret_cast<const float4*>(in + offset + 4 * threadIdx.x);
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

static int g_repetitions = 20;

template <typename Launch>
float median_ms(Launch launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < (g_repetitions > 1 ? 3 : 0); ++i) launch();
  std::vector<float> times;
  for (int i = 0; i < g_repetitions; ++i) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void report(const char* name, const char* shape, float ms, double bytes, double flops) {
  std::printf("%-30s %-22s %8.3f ms %7.0f GB/s %8.1f GFLOP/s\n", name, shape, ms, bytes / ms / 1e6, flops / ms / 1e6);
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  if (once) g_repetitions = 1;
  const int n = 1 << 26;  // 64 Mi floats, 256 MiB
  const size_t bytes = size_t(n) * sizeof(float);
  float *in, *out, *third;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMalloc(&third, bytes));
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 1.0f + (i % 1000) * 1e-3f;
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(out, host.data(), bytes, cudaMemcpyHostToDevice));
  if (argc > 1 && std::strcmp(argv[1], "misaligned") == 0) {
    loadFloat4At<<<1, 32>>>(in, out, 1);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("float4 load at in + 1 (4-byte aligned): %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return 0;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; n = %d floats (256 MiB per array); median of %d\n", prop.name, prop.multiProcessorCount, n,
              g_repetitions);
  const double rw = 2.0 * bytes, rrw = 3.0 * bytes;  // scale: read + write; saxpy: two reads + a write
  const float a = 1.5f;
  const int b = 256;
  report("cudaMemcpy device-to-device", "", median_ms([&] { CHECK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice)); }), rw, 0);
  report("copyFloat4Restrict", "n/4 threads", median_ms([&] { copyFloat4Restrict<<<n / 4 / b, b>>>(in, out, n); }), rw, 0);
  report("scaleOne", "n threads", median_ms([&] { scaleOne<<<n / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleOneRestrict", "n threads", median_ms([&] { scaleOneRestrict<<<n / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFourConsecutive", "n/4 threads", median_ms([&] { scaleFourConsecutive<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFourConsecutiveRestrict", "n/4 threads",
         median_ms([&] { scaleFourConsecutiveRestrict<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFourStrided", "n/4 threads", median_ms([&] { scaleFourStrided<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFourStridedRestrict", "n/4 threads",
         median_ms([&] { scaleFourStridedRestrict<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFloat4", "n/4 threads", median_ms([&] { scaleFloat4<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  report("scaleFloat4Restrict", "n/4 threads", median_ms([&] { scaleFloat4Restrict<<<n / 4 / b, b>>>(in, out, a, n); }), rw, n);
  const int sms = prop.multiProcessorCount;
  for (int per_sm : {2, 1, 8}) {
    char shape[32];
    std::snprintf(shape, sizeof shape, "%d x %d threads", per_sm * sms, b);
    const int g = per_sm * sms;
    report("saxpyStride", shape, median_ms([&] { saxpyStride<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
    report("saxpyStrideRestrict", shape, median_ms([&] { saxpyStrideRestrict<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
    report("saxpyStrideUnrolledPlain", shape, median_ms([&] { saxpyStrideUnrolledPlain<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
    report("saxpyStrideUnrolledRestrict", shape, median_ms([&] { saxpyStrideUnrolledRestrict<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
    report("saxpyStrideFloat4", shape, median_ms([&] { saxpyStrideFloat4<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
    report("saxpyStrideFloat4x4", shape, median_ms([&] { saxpyStrideFloat4x4<<<g, b>>>(in, out, a, n); }), rrw, 2.0 * n);
  }
  const int width = 8192;  // 8192 x 8192 = 64 Mi floats: the same buffers
  const dim3 grid(width / 32, width / 32), block(32, 8);
  report("copyRows (lesson 4)", "8192^2, 32 x 8", median_ms([&] { copyRows<<<grid, block>>>(in, out, width); }), rw, 0);
  report("copyRowsRestrict (lesson 4)", "8192^2, 32 x 8",
         median_ms([&] { copyRowsRestrict<<<grid, block>>>(in, out, width); }), rw, 0);
  CHECK(cudaDeviceSynchronize());
  return 0;
}
