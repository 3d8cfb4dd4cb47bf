// Turning a learner's CUDA file into PTX. `Compiler` is an interface so the grading logic can be
// tested with a fake; `NvrtcCompiler` (nvrtc_compiler.h) is the real one.
#pragma once

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
  std::string arch = "compute_90";               // virtual architecture the PTX targets
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

struct CompileResult {
  bool ok = false;
  std::string ptx;   // empty unless ok
  std::string log;   // the compiler's full log, always kept
  std::vector<CompileDiagnostic> diagnostics;
  std::map<std::string, std::string> lowered_names;  // name expression -> mangled PTX name
};

class Compiler {
 public:
  virtual ~Compiler() = default;
  // A compile error is a successful call whose result has ok == false; an Error means the
  // compiler itself could not run (library missing, out of memory).
  virtual Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) = 0;
};

}  // namespace tilecamp
