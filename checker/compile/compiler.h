// Turning a learner's CUDA file into PTX. `Compiler` is an interface so the grading logic can be
// tested with a fake; `NvrtcCompiler` (nvrtc_compiler.h) is the real one.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp {

struct SourceFile {
  std::string path;  // shown in diagnostics and written to the PTX's `.file` directive
  std::string text;
};

struct CompileOptions {
  std::string arch = "compute_90";               // virtual architecture the PTX targets; ptxas
                                                 // assembles it for the matching sm_ as well
  std::vector<std::string> name_expressions;     // e.g. "sgemmTiled<16>": instantiated, lowered
  std::vector<std::string> defines;              // "NAME" or "NAME=VALUE"
  // Device code compiled after the learner's text (so the learner's line numbers are unchanged),
  // e.g. a generated kernel that reports the launch constants the learner chose.
  std::string appended_source;
  // Refuse an #include by path before NVRTC runs (include_policy.h). Only tests turn it off, to
  // show that the sandbox alone keeps such a file unread.
  bool check_includes = true;
};

struct CompileDiagnostic {
  std::string file;
  int line = 0;    // 1-based; 0 when the message names no line
  int column = 0;  // 1-based; 0 when unknown
  std::string severity;  // "error" or "warning"
  std::string message;
  std::string source_line;  // the offending line of source, when the log shows it
  std::string kind;  // empty for the compiler's own; a limit's finding otherwise ("time-limit", see sandbox.h)
};

// What ptxas gave one kernel when it assembled the PTX for the real architecture (sm_90 for
// compute_90): the figures cuFuncGetAttribute reports, read from the cubin (cubin_resources.h).
struct KernelResources {
  std::string kernel;              // the PTX entry (mangled) name
  uint32_t registers = 0;          // per thread
  uint32_t static_shared_bytes = 0;  // per block, the kernel's __shared__ arrays
  uint32_t local_bytes = 0;        // per thread: its stack frame (local arrays, register spills)
  uint32_t max_threads = 0;        // __launch_bounds__'s first figure; 0 when the kernel has none
};

struct CompileResult {
  bool ok = false;
  std::string ptx;   // empty unless ok
  std::string log;   // the compiler's full log, always kept
  std::vector<CompileDiagnostic> diagnostics;
  std::map<std::string, std::string> lowered_names;  // name expression -> mangled PTX name
  // Every kernel's registers and shared memory as ptxas assembled it; empty when the compiler
  // made no machine code (a fake, or an architecture with no real counterpart).
  std::vector<KernelResources> resources;
};

// The kernel named `entry` of `resources`, or nothing.
const KernelResources* find_resources(const std::vector<KernelResources>& resources, const std::string& entry);

class Compiler {
 public:
  virtual ~Compiler() = default;
  // A compile error is a successful call whose result has ok == false; an Error means the
  // compiler itself could not run (library missing, out of memory).
  virtual Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) = 0;
};

}  // namespace tilecamp
