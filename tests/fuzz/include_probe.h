// The oracle that tells whether NVRTC itself opens a file named by path in a kernel's text: the
// program is given one in-memory header, /tilecamp/probe.h, whose only line is an #error, and
// NVRTC checks its in-memory headers before the disk for any name. If a line of the log starts
// with an error located in that header, NVRTC included it (the kernel's own text appears in the
// log only indented, as the quoted source line, or after a location of its own). include_policy must refuse every such text; the
// unit test checks the corpus in tests/fuzz/include_corpus/ and fuzz_include_policy searches for
// more.
#pragma once

#include <nvrtc.h>

#include <string>

namespace tilecamp::test {

inline constexpr const char* k_probe_header = "/tilecamp/probe.h";

// True when compiling `text` made NVRTC read /tilecamp/probe.h.
inline bool nvrtc_opens_probe(const std::string& text) {
  const char* names[] = {k_probe_header};
  const char* contents[] = {"#error the probe header was included\n"};
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, text.c_str(), "kernel.cu", 1, contents, names) != NVRTC_SUCCESS) return false;
  const char* options[] = {"--std=c++17", "-no-source-include"};
  nvrtcCompileProgram(program, 2, options);
  size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  nvrtcDestroyProgram(&program);
  const std::string location = std::string(k_probe_header) + "(1): ";
  return log.starts_with(location) || log.find("\n" + location) != std::string::npos;
}

}  // namespace tilecamp::test
