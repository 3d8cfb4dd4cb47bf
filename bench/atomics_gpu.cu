// Atomics on a GPU: the access patterns of tests/data/h200-atomics.cu and 10-histogram's kernels.
//   atomics_gpu counts   one small launch of each case, for Nsight Compute's counters (the
//                        emulator runs the same launches in tests/test_emu_atomics.cpp)
//   atomics_gpu time     large launches timed with events: time, atomics per ns
// Build and run: bench/atomics_gpu.sh (on the GPU machine).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../tests/data/h200-atomics.cu"
namespace baseline {
#include "../exercises/10-histogram/baseline.cu"
}
namespace solution {
#include "../solutions/10-histogram/kernel.cu"
}

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t status = (call);                                                     \
    if (status != cudaSuccess) {                                                     \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(status)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// The histogram inputs, also made by tests/test_emu_atomics.cpp: value i is a hash of i below
// 256; in skewed data 7 elements in 8 (by a second hash) are the hot value 7.
unsigned uniform_value(unsigned i) { return (i * 2654435761u) >> 24; }
unsigned skewed_value(unsigned i) { return ((i * 2246822519u) >> 29) != 0 ? 7u : uniform_value(i); }

std::vector<unsigned> make_data(size_t n, bool skewed) {
  std::vector<unsigned> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = skewed ? skewed_value(i) : uniform_value(i);
  return data;
}

template <typename Launch>
float time_ms(Launch launch, int repetitions) {
  launch();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < repetitions; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main(int argc, char** argv) {
  const bool timing = argc > 1 && std::strcmp(argv[1], "time") == 0;
  // counts: 4 blocks of 64 threads, 4 atomics each; time: 1056 blocks (8 per SM) of 256, 64 each.
  const int grid = timing ? 1056 : 4, block = timing ? 256 : 64, iters = timing ? 64 : 4;
  const size_t threads = size_t(grid) * block;
  unsigned *p, *out;
  float* fout;
  CHECK(cudaMalloc(&p, threads * 8 * 4));
  CHECK(cudaMalloc(&out, std::max<size_t>(threads, grid * 1024) * 4));
  CHECK(cudaMalloc(&fout, grid * 1024 * 4));
  CHECK(cudaMemset(p, 0, threads * 8 * 4));
  const int reps = timing ? 9 : 0;
  const double ops = double(threads) * iters;
  auto report = [&](const char* name, float ms, double hot) {
    // hot: the atomics on the busiest word
    std::printf("%-34s %10.3f ms %9.2f Gatom/s  %8.3f ns per atomic on the busiest word\n", name, ms, ops / ms / 1e6,
                hot > 0 ? ms * 1e6 / hot : 0.0);
  };
  struct Global {
    const char* name;
    void (*kernel)(unsigned*, int);
    double hot;
  } globals[] = {{"atomSameAddress", atomSameAddress, ops},
                 {"atomSameSector", atomSameSector, ops / 8},
                 {"atomWarpAddress", atomWarpAddress, 32.0 * iters},
                 {"atomCoalesced", atomCoalesced, double(iters)},
                 {"atomSpread", atomSpread, double(iters)}};
  for (const Global& g : globals) {
    auto launch = [&] { g.kernel<<<grid, block>>>(p, iters); };
    if (timing) report(g.name, time_ms(launch, reps), g.hot);
    else launch();
  }
  {
    auto launch = [&] { atomSameAddressReturn<<<grid, block>>>(p, out, iters); };
    if (timing) report("atomSameAddressReturn", time_ms(launch, reps), ops);
    else launch();
  }
  struct Shared {
    int way, stride;
  } shared[] = {{1, 1}, {2, 1}, {32, 1}, {1, 32}, {4, 1}};
  for (const Shared& s : shared) {
    char name[64];
    std::snprintf(name, sizeof name, "sharedAtomWays way=%d stride=%d", s.way, s.stride);
    auto launch = [&] { sharedAtomWays<<<grid, block>>>(out, s.way, s.stride, iters); };
    if (timing) report(name, time_ms(launch, reps), 0);
    else launch();
  }
  for (int way : {1, 32}) {
    char name[64];
    std::snprintf(name, sizeof name, "sharedAtomWaysF32 way=%d stride=1", way);
    auto launch = [&] { sharedAtomWaysF32<<<grid, block>>>(fout, way, 1, iters); };
    if (timing) report(name, time_ms(launch, reps), 0);
    else launch();
  }
  CHECK(cudaDeviceSynchronize());

  // Histograms: uniform, skewed and half-and-half data (10-histogram's inputs are the last).
  const size_t n = timing ? size_t(1) << 26 : 4096;
  unsigned *data, *bins;
  CHECK(cudaMalloc(&data, n * 4));
  CHECK(cudaMalloc(&bins, 256 * 4));
  const int hist_grid = int(std::min<size_t>((n + 255) / 256, 528));
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<unsigned> host = make_data(n, kind == 1);
    if (kind == 2) {
      std::vector<unsigned> skewed = make_data(n, true);
      std::copy(skewed.begin() + n / 2, skewed.end(), host.begin() + n / 2);
    }
    CHECK(cudaMemcpy(data, host.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<unsigned> expected(256, 0);
    for (unsigned v : host) ++expected[v];
    const char* kinds[] = {"uniform", "skewed", "half"};
    struct Hist {
      const char* name;
      void (*kernel)(const unsigned*, unsigned*, int);
    } hists[] = {{"histogramGlobal", baseline::histogramGlobal},
                 {"histogram (shared)", solution::histogram},
                 {"histogramAggregated", histogramAggregated}};
    for (const Hist& h : hists) {
      CHECK(cudaMemset(bins, 0, 256 * 4));
      h.kernel<<<hist_grid, 256>>>(data, bins, int(n));
      CHECK(cudaDeviceSynchronize());
      std::vector<unsigned> got(256);
      CHECK(cudaMemcpy(got.data(), bins, 256 * 4, cudaMemcpyDeviceToHost));
      const bool right = got == expected;
      if (!timing) {
        if (!right) std::printf("%s on %s data: WRONG\n", h.name, kinds[kind]);
        continue;
      }
      auto launch = [&] { h.kernel<<<hist_grid, 256>>>(data, bins, int(n)); };
      const float ms = time_ms(launch, reps);
      std::printf("%-22s %-8s n=%zu %10.3f ms %8.1f GB/s  hot bin %u%s\n", h.name, kinds[kind], n, ms, n * 4 / ms / 1e6,
                  *std::max_element(expected.begin(), expected.end()), right ? "" : "  WRONG");
    }
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
