// Emulator throughput and check latency. Prints figures; asserts nothing (tests never time).
//   build/bench/tilecamp_bench [REPEATS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/grade/grade.h"
#include "checker/ptx/kernel_lookup.h"

using namespace tilecamp;
using Clock = std::chrono::steady_clock;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(TILECAMP_SOURCE_DIR "/" + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<uint8_t> scalar(int32_t value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return bytes;
}

int bench_transpose(Compiler& compiler, const std::string& kernel, int n, int repeats) {
  auto compiled = compiler.compile({"transpose_kernels.cu", read_text("tests/fixtures/transpose_kernels.cu")}, {});
  if (!compiled || !compiled->ok) return std::fprintf(stderr, "compile failed\n"), 1;
  emu::EmulatorBackend backend;
  if (!backend.load(compiled->ptx)) return std::fprintf(stderr, "load failed\n"), 1;
  LaunchRequest request;
  request.kernel = *ptx::resolve_kernel_name(backend.module(), kernel);
  request.config.grid = {static_cast<uint32_t>(n / 32), static_cast<uint32_t>(n / 32), 1};
  request.config.block = {32, 32, 1};
  const size_t bytes = static_cast<size_t>(n) * n * 4;
  request.buffers = {{"in", std::vector<uint8_t>(bytes, 1)}, {"out", std::vector<uint8_t>(bytes, 0)}};
  request.arguments = {{{}, 0}, {{}, 1}, {scalar(n), -1}, {scalar(n), -1}};
  double best = 1e30;
  uint64_t instructions = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    auto outcome = backend.launch(request);
    best = std::min(best, seconds_since(start));
    if (!outcome) return std::fprintf(stderr, "%s\n", outcome.error().c_str()), 1;
    instructions = outcome->profile.totals.warp_instructions;
  }
  std::printf("%-18s %5dx%-5d %10.1f ms  %8.2f M warp-instr/s  %8.1f M thread-instr/s\n", kernel.c_str(), n, n,
              best * 1e3, instructions / best / 1e6, instructions * 32.0 / best / 1e6);
  return 0;
}

int bench_check(Compiler& compiler, int repeats) {
  auto exercise = grade::load_exercise(TILECAMP_SOURCE_DIR "/exercises/02-transpose-tiled");
  if (!exercise) return std::fprintf(stderr, "%s\n", exercise.error().c_str()), 1;
  SourceFile source{"kernel.cu", read_text("solutions/02-transpose-tiled/kernel.cu")};
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    emu::EmulatorBackend backend;
    const auto start = Clock::now();
    const grade::Verdict verdict = grade::grade_exercise(*exercise, source, compiler, backend, {static_cast<uint64_t>(r + 1)});
    best = std::min(best, seconds_since(start));
    if (verdict.status != grade::VerdictStatus::Pass) return std::fprintf(stderr, "solution did not pass\n"), 1;
  }
  std::printf("%-18s %11s %10.1f ms  (compile + 7 cases + thresholds)\n", "check 02-transpose", "", best * 1e3);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  NvrtcCompiler compiler;
  std::printf("best of %d runs, one thread\n", repeats);
  int failures = 0;
  for (const char* kernel : {"copyCoalesced", "transposeNaive", "transposeTiled", "transposePadded"}) {
    failures += bench_transpose(compiler, kernel, 2048, repeats);
  }
  failures += bench_check(compiler, repeats);
  return failures == 0 ? 0 : 1;
}
