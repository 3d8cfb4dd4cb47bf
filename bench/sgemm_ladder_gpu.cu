// The course's SGEMM solutions side by side with cuBLAS, in one process on one GPU: each timed at
// 1024, 2048 and 4096 (square, row-major, FP32: cuBLAS in its default math mode, which uses no
// TF32), median of 20 launches after 3 warm-ups, checked against cuBLAS's C. Prints TFLOP/s and the
// share of cuBLAS's. For lesson 9's ladder: each new rung's solution is one more entry in kRungs.
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

const Rung kRungs[] = {
    {"05-sgemm-tiled", launch_tiled},
    {"05-sgemm-register-blocked", launch_register_blocked},
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
  cublasDestroy(g_cublas);
  return failures == 0 ? 0 : 1;
}
