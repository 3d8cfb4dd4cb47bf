// The course's SGEMM solutions side by side with cuBLAS, in one process on one GPU: each timed at
// 1024, 2048 and 4096 (square, row-major, FP32: cuBLAS in its default math mode, which uses no
// TF32), median of 20 launches after 3 warm-ups, checked against cuBLAS's C. Prints TFLOP/s and the
// share of cuBLAS's. Then lesson 9's autotuning sweep: other shapes of 09-sgemm-warptiled's template
// (block and warp tiles, BK, cp.async or registers for B, the register cap), each at 4096 with its
// registers, resident blocks per SM and waves; and a wave-quantization table (sizes just below and
// above one full wave of the chosen shape).
//   bench/sgemm_ladder_gpu.sh OUT_DIR      (on the GPU machine, from the repository root)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Each solution in a namespace of its own; its macros are read, then undefined.
namespace tiled {
#include "../solutions/05-sgemm-tiled/kernel.cu"
constexpr int kTile = TILE;
#undef TILE
}  // namespace tiled
namespace register_blocked {
#include "../solutions/05-sgemm-register-blocked/kernel.cu"
constexpr int kBM = BM, kBN = BN, kThreads = THREADS;
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
#undef THREADS
}  // namespace register_blocked
namespace vectorized {
#include "../solutions/09-sgemm-vectorized/kernel.cu"
constexpr int kBM = BM, kBN = BN, kThreads = THREADS;
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
#undef THREADS
}  // namespace vectorized
namespace warptiled {
#include "../solutions/09-sgemm-warptiled/kernel.cu"
constexpr int kBM = BM, kBN = BN, kThreads = THREADS;
#undef BM
#undef BN
#undef BK
#undef WM
#undef WN
#undef TM
#undef TN
#undef THREADS
}  // namespace warptiled

namespace {

#define CHECK_CUDA(call)                                                                        \
  do {                                                                                          \
    cudaError_t status_ = (call);                                                               \
    if (status_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_));    \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

int ceil_div(int a, int b) { return (a + b - 1) / b; }

using Launch = void (*)(const float* a, const float* b, float* c, int n);

struct Rung {
  const char* name;
  Launch launch;
};

void launch_tiled(const float* a, const float* b, float* c, int n) {
  const dim3 block(tiled::kTile, tiled::kTile), grid(ceil_div(n, tiled::kTile), ceil_div(n, tiled::kTile));
  tiled::sgemmTiled<<<grid, block>>>(a, b, c, n, n, n);
}

void launch_register_blocked(const float* a, const float* b, float* c, int n) {
  const dim3 block(register_blocked::kThreads),
      grid(ceil_div(n, register_blocked::kBN), ceil_div(n, register_blocked::kBM));
  register_blocked::sgemmRegisterBlocked<<<grid, block>>>(a, b, c, n, n, n);
}

void launch_vectorized(const float* a, const float* b, float* c, int n) {
  const dim3 block(vectorized::kThreads), grid(ceil_div(n, vectorized::kBN), ceil_div(n, vectorized::kBM));
  vectorized::sgemmVectorized<<<grid, block>>>(a, b, c, n, n, n);
}

void launch_warptiled(const float* a, const float* b, float* c, int n) {
  const dim3 block(warptiled::kThreads), grid(ceil_div(n, warptiled::kBN), ceil_div(n, warptiled::kBM));
  warptiled::sgemmWarptiled<<<grid, block>>>(a, b, c, n, n, n);
}

const Rung kRungs[] = {
    {"05-sgemm-tiled", launch_tiled},
    {"05-sgemm-register-blocked", launch_register_blocked},
    {"09-sgemm-vectorized", launch_vectorized},
    {"09-sgemm-warptiled", launch_warptiled},
};

// The sweep: the solution's template in other shapes. MIN_BLOCKS is __launch_bounds__'s second
// argument (the blocks per SM the register allocation must allow; 1 leaves registers uncapped).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, bool ASYNC_B, int MIN_BLOCKS>
__global__ void __launch_bounds__((BM_ / WM_) * (BN_ / WN_) * 32, MIN_BLOCKS)
    sweepKernel(const float* A, const float* B, float* C, int M, int N, int K) {
  warptiled::sgemmWarptiledBody<BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B>(A, B, C, M, N, K);
}

struct Variant {
  const char* name;
  Launch launch;
  const void* kernel;
  int threads;
  int bm, bn;
};

template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, bool ASYNC_B, int MIN_BLOCKS>
void launch_variant(const float* a, const float* b, float* c, int n) {
  const dim3 block((BM_ / WM_) * (BN_ / WN_) * 32), grid(ceil_div(n, BN_), ceil_div(n, BM_));
  sweepKernel<BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B, MIN_BLOCKS><<<grid, block>>>(a, b, c, n, n, n);
}

#define VARIANT(NAME, BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B, MIN_BLOCKS)                               \
  Variant {                                                                                                \
    NAME, launch_variant<BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B, MIN_BLOCKS>,                          \
        reinterpret_cast<const void*>(sweepKernel<BM_, BN_, BK_, WM_, WN_, TM_, TN_, ASYNC_B, MIN_BLOCKS>), \
        (BM_ / WM_) * (BN_ / WN_) * 32, BM_, BN_                                                           \
  }

// name: block BMxBNxBK / warp WMxWN / thread TMxTN / how B travels / min blocks per SM
const Variant kVariants[] = {
    VARIANT("128x128x8 w16x128 t8x8 async 2", 128, 128, 8, 16, 128, 8, 8, true, 2),
    VARIANT("128x128x8 w16x128 t8x8 regs 2", 128, 128, 8, 16, 128, 8, 8, false, 2),
    VARIANT("128x128x8 w32x64 t8x8 async 2", 128, 128, 8, 32, 64, 8, 8, true, 2),
    VARIANT("128x128x8 w64x32 t8x8 async 2", 128, 128, 8, 64, 32, 8, 8, true, 2),
    VARIANT("128x128x8 w16x128 t8x8 async 1", 128, 128, 8, 16, 128, 8, 8, true, 1),
    VARIANT("128x128x16 w16x128 t8x8 async 2", 128, 128, 16, 16, 128, 8, 8, true, 2),
    VARIANT("128x128x16 w32x64 t8x8 async 2", 128, 128, 16, 32, 64, 8, 8, true, 2),
    VARIANT("128x128x16 w16x128 t8x8 regs 2", 128, 128, 16, 16, 128, 8, 8, false, 2),
    VARIANT("64x128x8 w16x128 t8x8 async 4", 64, 128, 8, 16, 128, 8, 8, true, 4),
    VARIANT("128x64x8 w32x64 t8x8 async 4", 128, 64, 8, 32, 64, 8, 8, true, 4),
    VARIANT("128x256x8 w32x128 t16x8 async 1", 128, 256, 8, 32, 128, 16, 8, true, 1),
    VARIANT("128x256x8 w32x128 t16x8 regs 1", 128, 256, 8, 32, 128, 16, 8, false, 1),
    VARIANT("128x256x8 w16x256 t8x16 async 1", 128, 256, 8, 16, 256, 8, 16, true, 1),
    VARIANT("256x128x8 w32x128 t16x8 async 1", 256, 128, 8, 32, 128, 16, 8, true, 1),
    VARIANT("128x256x8 w64x64 t16x8 async 1", 128, 256, 8, 64, 64, 16, 8, true, 1),
};

// Row-major C = A B is column-major C^T = B^T A^T: cuBLAS multiplies the buffers as they are,
// B first.
cublasHandle_t g_cublas;
void launch_cublas(const float* a, const float* b, float* c, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(g_cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n);
}

// Median milliseconds of 20 launches, after 3 warm-ups.
double median_ms(Launch launch, const float* a, const float* b, float* c, int n) {
  for (int i = 0; i < 3; ++i) launch(a, b, c, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> times;
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < 20; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    launch(a, b, c, n);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  CHECK_CUDA(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return (times[9] + times[10]) / 2;
}

// The largest |difference| over the largest |cuBLAS value|.
double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0, scale = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - want[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  return scale > 0 ? worst / scale : worst;
}


// Random A and B of n x n on the GPU, and cuBLAS's product of them.
struct Problem {
  int n;
  float *a, *b, *c, *reference;
  std::vector<float> want;
  double cublas_ms;
  explicit Problem(int size) : n(size), want(static_cast<size_t>(size) * size) {
    const size_t count = want.size();
    std::vector<float> host(count);
    srand(n);
    CHECK_CUDA(cudaMalloc(&a, count * 4));
    CHECK_CUDA(cudaMalloc(&b, count * 4));
    CHECK_CUDA(cudaMalloc(&c, count * 4));
    CHECK_CUDA(cudaMalloc(&reference, count * 4));
    for (float& x : host) x = static_cast<float>(rand()) / RAND_MAX * 2.0f - 1.0f;
    CHECK_CUDA(cudaMemcpy(a, host.data(), count * 4, cudaMemcpyHostToDevice));
    for (float& x : host) x = static_cast<float>(rand()) / RAND_MAX * 2.0f - 1.0f;
    CHECK_CUDA(cudaMemcpy(b, host.data(), count * 4, cudaMemcpyHostToDevice));
    cublas_ms = median_ms(launch_cublas, a, b, reference, n);
    CHECK_CUDA(cudaMemcpy(want.data(), reference, count * 4, cudaMemcpyDeviceToHost));
  }
  ~Problem() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(reference);
  }
  // Times a kernel, checks its C; prints ms, TFLOP/s, share of cuBLAS, error. False when wrong.
  bool time(const char* name, Launch launch, const char* extra) {
    CHECK_CUDA(cudaMemset(c, 0xff, want.size() * 4));
    const double ms = median_ms(launch, a, b, c, n);
    std::vector<float> got(want.size());
    CHECK_CUDA(cudaMemcpy(got.data(), c, want.size() * 4, cudaMemcpyDeviceToHost));
    const double error = relative_error(got, want), flops = 2.0 * n * n * n;
    std::printf("%-6d %-32s %8.3f %8.2f %8.0f%% %10.2e %s%s\n", n, name, ms, flops / ms / 1e9, 100.0 * cublas_ms / ms,
                error, extra, error < 1e-4 ? "" : "  WRONG");
    return error < 1e-4;
  }
};

int sweep(const cudaDeviceProp& properties) {
  int failures = 0;
  std::printf("\n# Autotuning sweep at 4096: shapes of 09-sgemm-warptiled's template (block BMxBNxBK, warp WMxWN,\n"
              "# thread TMxTN, B by cp.async or registers, __launch_bounds__ min blocks), with registers per thread,\n"
              "# resident blocks per SM and waves (blocks / (SMs x resident blocks))\n");
  std::printf("%-6s %-32s %8s %8s %9s %10s %s\n", "n", "variant", "ms", "TFLOP/s", "of cuBLAS", "rel. error",
              "regs blocks/SM waves");
  {
    Problem problem(4096);
    std::printf("%-6d %-32s %8.3f %8.2f %8.0f%% %10s\n", 4096, "cuBLAS", problem.cublas_ms,
                2.0 * 4096.0 * 4096.0 * 4096.0 / problem.cublas_ms / 1e9, 100.0, "-");
    for (const Variant& v : kVariants) {
      cudaFuncAttributes attributes{};
      CHECK_CUDA(cudaFuncGetAttributes(&attributes, v.kernel));
      int resident = 0;
      CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, v.kernel, v.threads, 0));
      const double blocks = static_cast<double>(ceil_div(4096, v.bm)) * ceil_div(4096, v.bn);
      char extra[96];
      std::snprintf(extra, sizeof extra, "%4d %10d %6.2f", attributes.numRegs, resident,
                    blocks / (properties.multiProcessorCount * std::max(resident, 1)));
      failures += !problem.time(v.name, v.launch, extra);
    }
  }
  // Wave quantization: the solution's shape just below and just above one full wave.
  int resident = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &resident, reinterpret_cast<const void*>(warptiled::sgemmWarptiled), warptiled::kThreads, 0));
  const int wave = properties.multiProcessorCount * resident;
  std::printf("\n# Wave quantization: 09-sgemm-warptiled (%d blocks per wave: %d SMs x %d) and cuBLAS at sizes\n"
              "# around one and two waves\n",
              wave, properties.multiProcessorCount, resident);
  std::printf("%-6s %-32s %8s %8s %9s %10s %s\n", "n", "kernel", "ms", "TFLOP/s", "of cuBLAS", "rel. error",
              "blocks waves");
  for (int n : {2048, 2176, 2816, 2944}) {
    Problem problem(n);
    const int blocks = ceil_div(n, warptiled::kBM) * ceil_div(n, warptiled::kBN);
    char extra[64];
    std::snprintf(extra, sizeof extra, "%6d %5.2f", blocks, static_cast<double>(blocks) / wave);
    std::printf("%-6d %-32s %8.3f %8.2f %8.0f%% %10s\n", n, "cuBLAS", problem.cublas_ms,
                2.0 * n * n * static_cast<double>(n) / problem.cublas_ms / 1e9, 100.0, "-");
    failures += !problem.time("09-sgemm-warptiled", launch_warptiled, extra);
  }
  return failures;
}

}  // namespace

int main() {
  cudaDeviceProp properties{};
  CHECK_CUDA(cudaGetDeviceProperties(&properties, 0));
  if (cublasCreate(&g_cublas) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "cublasCreate failed\n"), 1;
  cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH);
  std::printf("# %s, %d SMs; cuBLAS SGEMM in its default math mode (no TF32); median of 20 after 3 warm-ups\n",
              properties.name, properties.multiProcessorCount);
  std::printf("%-6s %-28s %10s %10s %10s %12s\n", "n", "kernel", "ms", "TFLOP/s", "of cuBLAS", "rel. error");
  int failures = 0;
  for (int n : {1024, 2048, 4096}) {
    const size_t count = static_cast<size_t>(n) * n;
    std::vector<float> host(count);
    srand(n);
    for (float& x : host) x = static_cast<float>(rand()) / RAND_MAX * 2.0f - 1.0f;
    float *a, *b, *c, *reference;
    CHECK_CUDA(cudaMalloc(&a, count * 4));
    CHECK_CUDA(cudaMalloc(&b, count * 4));
    CHECK_CUDA(cudaMalloc(&c, count * 4));
    CHECK_CUDA(cudaMalloc(&reference, count * 4));
    CHECK_CUDA(cudaMemcpy(a, host.data(), count * 4, cudaMemcpyHostToDevice));
    for (float& x : host) x = static_cast<float>(rand()) / RAND_MAX * 2.0f - 1.0f;
    CHECK_CUDA(cudaMemcpy(b, host.data(), count * 4, cudaMemcpyHostToDevice));
    const double flops = 2.0 * n * n * n;
    const double cublas_ms = median_ms(launch_cublas, a, b, reference, n);
    std::vector<float> want(count), got(count);
    CHECK_CUDA(cudaMemcpy(want.data(), reference, count * 4, cudaMemcpyDeviceToHost));
    std::printf("%-6d %-28s %10.3f %10.2f %9.0f%% %12s\n", n, "cuBLAS", cublas_ms, flops / cublas_ms / 1e9, 100.0, "-");
    for (const Rung& rung : kRungs) {
      CHECK_CUDA(cudaMemset(c, 0xff, count * 4));
      const double ms = median_ms(rung.launch, a, b, c, n);
      CHECK_CUDA(cudaMemcpy(got.data(), c, count * 4, cudaMemcpyDeviceToHost));
      const double error = relative_error(got, want);
      const bool agrees = error < 1e-4;
      failures += !agrees;
      std::printf("%-6d %-28s %10.3f %10.2f %9.0f%% %12.2e%s\n", n, rung.name, ms, flops / ms / 1e9,
                  100.0 * cublas_ms / ms, error, agrees ? "" : "  WRONG");
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(reference);
  }
  failures += sweep(properties);
  cublasDestroy(g_cublas);
  return failures == 0 ? 0 : 1;
}
