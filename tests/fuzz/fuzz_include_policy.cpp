// libFuzzer target that compares include_policy with NVRTC itself: for any text the policy lets
// through, NVRTC must not open a file named by its path (tests/fuzz/include_probe.h is the oracle:
// an in-memory header at /tilecamp/probe.h). A text the policy refuses is never compiled, so
// refusing more than NVRTC would open is allowed; missing one is the bug this finds.
//
// Build as fuzz_ptx_parser.cpp says (clang, -DTILECAMP_FUZZ=ON), then
//   make -C build-fuzz fuzz_include_policy
//   mkdir -p /tmp/include-corpus
//   build-fuzz/tests/fuzz/fuzz_include_policy /tmp/include-corpus tests/fuzz/include_corpus \
//       -dict=tests/fuzz/include.dict -max_len=512 -timeout=20 -max_total_time=600
// NVRTC takes tens of milliseconds a text, so a run finds little per minute: let it run. A finding
// is crash-<sha1>: add it to tests/fuzz/include_corpus/ (the unit test then holds it) and fix the
// policy.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "checker/compile/include_policy.h"
#include "checker/compile/source_text.h"
#include "tests/fuzz/include_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // What tilecamp refuses before NVRTC: bytes that are not text, then the policy's finds.
  if (!tilecamp::non_text_bytes({"kernel.cu", text}).empty()) return 0;
  if (!tilecamp::forbidden_includes({"kernel.cu", text}).empty()) return 0;
  if (tilecamp::test::nvrtc_opens_probe(text)) std::abort();  // the policy let a path through
  return 0;
}
