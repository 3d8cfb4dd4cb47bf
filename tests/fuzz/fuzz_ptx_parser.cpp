// libFuzzer target for the PTX front end (checker/ptx): whatever the bytes, parse_module must
// return a module or an error, never crash, hang or trip a sanitizer. A learner's kernel reaches
// the parser only through NVRTC, but the checker also parses PTX handed to it (`tilecamp
// profile`, cached PTX), and the kernel lookup runs on every name the parser lets through.
//
// Build (clang only; the sanitizers and libFuzzer come with it, Debian: clang-14 and
// libclang-rt-14-dev), in a build folder of its own:
//   cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
//         -DTILECAMP_FUZZ=ON -DTILECAMP_BUILD_TESTS=OFF
//   make -C build-fuzz fuzz_ptx_parser
// Run (new inputs go to the first folder, so keep the checked-in seeds read-only in the second):
//   mkdir -p /tmp/ptx-corpus
//   build-fuzz/tests/fuzz/fuzz_ptx_parser /tmp/ptx-corpus tests/fuzz/corpus \
//       -dict=tests/fuzz/ptx.dict -max_len=65536 -timeout=10 -max_total_time=300
// A crash leaves crash-<sha1> in the working folder; shrink it with `-minimize_crash=1 -runs=100000
// crash-<sha1>`, fix it, and add the shrunk input to tests/test_ptx_parser.cpp as a regression test.
//
// The seeds in tests/fuzz/corpus/ are the PTX of tests/fixtures/*.cu, tests/data/h200-access-rules.cu
// and tests/fuzz/seed_kernels.cu: `nvcc -ptx -arch=sm_90 -lineinfo -O3 FILE.cu -o corpus/FILE.ptx`.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checker/ptx/kernel_lookup.h"
#include "checker/ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = tilecamp::ptx::parse_module(text);
  if (!module) return 0;
  (void)tilecamp::ptx::resolve_kernel_name(*module, "k");
  for (const tilecamp::ptx::Function& function : module->functions) {
    (void)tilecamp::ptx::readable_kernel_name(function.name);
    (void)tilecamp::ptx::resolve_kernel_name(*module, function.name);
  }
  return 0;
}
