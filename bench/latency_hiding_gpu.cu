// The H200 figures lesson 6 (occupancy and latency hiding) quotes, measured in one run:
//   nvcc -std=c++17 -O2 -arch=sm_90 bench/latency_hiding_gpu.cu -o latency_hiding_gpu && ./latency_hiding_gpu
// 1. the latency of one load that misses L2 and of one that hits it (one thread chasing pointers);
// 2. a copy's bandwidth against the warps an SM holds (limited with dynamic shared memory) and
//    the independent loads each thread has in flight (1, 2, 4, 8 elements a thread);
// 3. wave quantization: blocks that each take the same time, in grids of one full wave and one
//    block more.
// Times are CUDA events around the launch, the median of 15 after a warm-up.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e = (call);                                                                           \
    if (e != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));      \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

__global__ void chase(const unsigned* next, int steps, unsigned* out, long long* cycles) {
  unsigned at = 0;
  const long long start = clock64();
  for (int i = 0; i < steps; ++i) at = next[at];
  *cycles = clock64() - start;
  *out = at;
}

template <int K>
__global__ void copy_k(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float occupancy_limiter[];  // never touched: it only limits resident blocks
  const int base = blockIdx.x * blockDim.x * K + threadIdx.x;
  float v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = base + k * blockDim.x < n ? in[base + k * blockDim.x] : 0.0f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if (base + k * blockDim.x < n) out[base + k * blockDim.x] = v[k];
  }
  if (n < 0) occupancy_limiter[threadIdx.x] = 0;
}

__global__ void spin(long long cycles, int* sink) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (threadIdx.x == 0 && cycles < 0) *sink = 1;
}

template <typename Launch>
float median_ms(Launch launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int i = 0; i < 15; ++i) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void latency(const char* what, size_t words, size_t stride, bool warm, int clock_khz) {
  std::vector<unsigned> next(words);
  for (size_t i = 0; i < words; ++i) next[i] = static_cast<unsigned>((i + stride) % words);
  unsigned *d_next, *d_out;
  long long* d_cycles;
  CHECK(cudaMalloc(&d_next, words * 4));
  CHECK(cudaMalloc(&d_out, 4));
  CHECK(cudaMalloc(&d_cycles, 8));
  CHECK(cudaMemcpy(d_next, next.data(), words * 4, cudaMemcpyHostToDevice));
  const int steps = 20000;
  // Warmed, the 20000 words visited (640 KB of sectors) all sit in L2: a DRAM latency is a cold run.
  if (warm) chase<<<1, 1>>>(d_next, steps, d_out, d_cycles);
  chase<<<1, 1>>>(d_next, steps, d_out, d_cycles);
  long long cycles = 0;
  CHECK(cudaMemcpy(&cycles, d_cycles, 8, cudaMemcpyDeviceToHost));
  const double per_load = static_cast<double>(cycles) / steps;
  std::printf("latency %-28s %7.0f cycles = %6.0f ns a load (SM clock %d MHz)\n", what, per_load,
              per_load / (clock_khz * 1e-6), clock_khz / 1000);
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_cycles));
}

template <int K>
void copy_row(const float* in, float* out, int n, int sms, int max_shared) {
  std::printf("copy %d element(s) a thread:", K);
  for (int blocks_per_sm : {1, 2, 4, 8}) {
    // Blocks of 256 threads: 8 warps each. Shared memory caps them at blocks_per_sm an SM.
    const int shared = blocks_per_sm == 8 ? 0 : std::min(max_shared, 233472 / blocks_per_sm - 1024 - 1024);
    CHECK(cudaFuncSetAttribute(copy_k<K>, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared));
    int resident = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, copy_k<K>, 256, shared));
    const int grid = (n + 256 * K - 1) / (256 * K);
    const float ms = median_ms([&] { copy_k<K><<<grid, 256, shared>>>(in, out, n); });
    std::printf("  %2d warps/SM %6.0f GB/s", resident * 8, 2.0 * n * 4 / (ms * 1e-3) / 1e9);
  }
  std::printf("\n");
  (void)sms;
}

int main() {
  cudaDeviceProp props;
  CHECK(cudaGetDeviceProperties(&props, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  std::printf("%s: %d SMs, %zu KB shared per SM, %d KB L2\n", props.name, props.multiProcessorCount,
              props.sharedMemPerMultiprocessor / 1024, props.l2CacheSize / 1024);

  latency("L2 hit (4 MB, stride 256 B)", (4u << 20) / 4, 64, true, clock_khz);
  latency("DRAM (1 GB, stride 2 MB + 4 KB)", (1u << 30) / 4, (2u << 20) / 4 + 1024 + 1, false, clock_khz);

  const int n = 1 << 26;  // 256 MB each way
  float *in, *out;
  CHECK(cudaMalloc(&in, n * 4ull));
  CHECK(cudaMalloc(&out, n * 4ull));
  CHECK(cudaMemset(in, 1, n * 4ull));
  const int max_shared = props.sharedMemPerBlockOptin;
  copy_row<1>(in, out, n, props.multiProcessorCount, max_shared);
  copy_row<2>(in, out, n, props.multiProcessorCount, max_shared);
  copy_row<4>(in, out, n, props.multiProcessorCount, max_shared);
  copy_row<8>(in, out, n, props.multiProcessorCount, max_shared);
  const float memcpy_ms = median_ms([&] { CHECK(cudaMemcpyAsync(out, in, n * 4ull, cudaMemcpyDeviceToDevice)); });
  std::printf("cudaMemcpy device to device: %.0f GB/s\n", 2.0 * n * 4 / (memcpy_ms * 1e-3) / 1e9);

  int* sink;
  CHECK(cudaMalloc(&sink, 4));
  const long long cycles = 200000;  // about 0.1 ms a block
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, spin, 1024, 0));
  const int wave = resident * props.multiProcessorCount;
  for (int grid : {wave / 2, wave, wave + 1, 2 * wave, 2 * wave + 1}) {
    const float ms = median_ms([&] { spin<<<grid, 1024>>>(cycles, sink); });
    std::printf("waves: %4d blocks of 1024 threads (%d a wave): %.3f ms\n", grid, wave, ms);
  }
  return 0;
}
