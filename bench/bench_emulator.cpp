// Emulator throughput against native scalar C++ doing the same work, and check latency.
// Prints figures; asserts nothing (tests never time).
//   build/bench/tilecamp_bench [REPEATS [KERNEL]]   (KERNEL: run only that case, e.g. "sgemmTiled<16>")
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/ptx/kernel_lookup.h"

using namespace tilecamp;
using Clock = std::chrono::steady_clock;

namespace {

// The repository: where it was built, or $TILECAMP_SOURCE_DIR (a build carried to another machine).
std::string source_dir() {
  const char* moved = std::getenv("TILECAMP_SOURCE_DIR");
  return moved != nullptr && *moved != '\0' ? moved : TILECAMP_SOURCE_DIR;
}

std::string read_text(const std::string& path) {
  std::ifstream in(source_dir() + "/" + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

double best_seconds(int repeats, const std::function<void()>& work) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    work();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

std::vector<uint8_t> scalar(int32_t value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return bytes;
}

std::vector<uint8_t> floats(size_t count) {
  std::vector<uint8_t> bytes(count * 4);
  for (size_t i = 0; i < count; ++i) {
    const float value = static_cast<float>(i % 97) * 0.01f;
    std::memcpy(bytes.data() + i * 4, &value, 4);
  }
  return bytes;
}

// Native references: the same arithmetic and memory traffic as the kernels, one thread.
void native_transpose(const float* in, float* out, int n) {
  for (int row = 0; row < n; ++row) {
    for (int col = 0; col < n; ++col) out[col * n + row] = in[row * n + col];
  }
}

void native_sgemm(const float* a, const float* b, float* c, int n) {
  for (int row = 0; row < n; ++row) {
    for (int col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
      c[row * n + col] = sum;
    }
  }
}

struct Case {
  const char* kernel;
  int n;
  Dim3 grid, block;
  int inputs;  // buffers of n*n floats before the output
};

int run_case(emu::EmulatorBackend& backend, const Case& c, int repeats) {
  LaunchRequest request;
  auto mangled = ptx::resolve_kernel_name(backend.module(), c.kernel);
  if (!mangled) return std::fprintf(stderr, "%s\n", mangled.error().c_str()), 1;
  request.kernel = *mangled;
  request.config.grid = c.grid;
  request.config.block = c.block;
  const size_t count = static_cast<size_t>(c.n) * c.n;
  for (int i = 0; i < c.inputs; ++i) {
    request.buffers.push_back({"in" + std::to_string(i), floats(count)});
    request.arguments.push_back({{}, i});
  }
  request.buffers.push_back({"out", std::vector<uint8_t>(count * 4, 0)});
  request.arguments.push_back({{}, c.inputs});
  request.arguments.push_back({scalar(c.n), -1});
  if (c.inputs == 1) request.arguments.push_back({scalar(c.n), -1});  // transposes take width and height
  uint64_t instructions = 0;
  const double emulated = best_seconds(repeats, [&] {
    auto outcome = backend.launch(request);
    if (outcome) instructions = outcome->profile.totals.warp_instructions;
  });
  std::vector<float> a(count), b(count), out(count);
  std::memcpy(a.data(), request.buffers[0].bytes.data(), count * 4);
  std::memcpy(b.data(), request.buffers[0].bytes.data(), count * 4);
  const double native = best_seconds(repeats, [&] {
    if (c.inputs == 1) native_transpose(a.data(), out.data(), c.n);
    else native_sgemm(a.data(), b.data(), out.data(), c.n);
  });
  std::printf("%-16s %5d %10.1f ms %9.2f ms %7.0fx %9.1f M thread-instr/s\n", c.kernel, c.n, emulated * 1e3,
              native * 1e3, emulated / native, instructions * 32.0 / emulated / 1e6);
  return 0;
}

int bench_check(Compiler& compiler, int repeats) {
  auto exercise = grade::load_exercise(source_dir() + "/exercises/02-transpose-tiled");
  if (!exercise) return std::fprintf(stderr, "%s\n", exercise.error().c_str()), 1;
  SourceFile source{"kernel.cu", read_text("solutions/02-transpose-tiled/kernel.cu")};
  const double seconds = best_seconds(repeats, [&] {
    emu::EmulatorBackend backend;
    grade::grade_exercise(*exercise, source, compiler, backend, {1});
  });
  std::printf("check 02-transpose-tiled (compile + 7 cases + thresholds): %.1f ms\n", seconds * 1e3);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string only = argc > 2 ? argv[2] : "";
  NvrtcCompiler compiler;
  auto compiled = compiler.compile({"kernels.cu", read_text("bench/ncu/kernels.cu")}, {});
  if (!compiled || !compiled->ok) return std::fprintf(stderr, "cannot compile bench/ncu/kernels.cu\n"), 1;
  emu::EmulatorBackend backend;
  if (!backend.load(compiled->ptx)) return std::fprintf(stderr, "cannot load the PTX\n"), 1;
  std::printf("best of %d runs, blocks on up to %u host threads ($TILECAMP_EMULATOR_THREADS); native = the same loop "
              "nest in scalar C++ (-O2), one thread\n",
              repeats, emu::default_host_threads());
  std::printf("%-16s %5s %13s %12s %8s %25s\n", "kernel", "n", "emulator", "native", "ratio", "throughput");
  const Case cases[] = {
      {"transposeNaive", 2048, {64, 64, 1}, {32, 32, 1}, 1},
      {"transposePadded", 2048, {64, 64, 1}, {32, 32, 1}, 1},
      {"sgemmNaive", 256, {16, 16, 1}, {16, 16, 1}, 2},
      {"sgemmTiled<16>", 256, {16, 16, 1}, {16, 16, 1}, 2},
  };
  int failures = 0;
  for (const Case& c : cases) {
    if (only.empty() || only == c.kernel) failures += run_case(backend, c, repeats);
  }
  if (only.empty()) failures += bench_check(compiler, repeats);
  return failures == 0 ? 0 : 1;
}
