// The real `Compiler`: NVRTC, in-process. Every program is compiled with `-lineinfo` (so the PTX
// carries `.loc` lines for the emulator's diagnostics), `--std=c++17` and `-arch=sm_NN` for
// `options.arch` compute_NN, with the small headers of builtin_headers.h standing in for the
// system ones NVRTC lacks. The real architecture gives the same PTX, and ptxas assembles it too:
// each kernel's registers and shared memory come back from the cubin (cubin_resources.h).
//
// NVRTC 13 refuses host code: any function without __device__/__global__ (a helper, `main`, even
// a constexpr function) is a compile error. That is deliberate here: we do not pass
// -default-device, so the learner sees the error rather than a silently different program.
//
// Note that NVRTC writes the `.file` directive as an absolute path: a relative `source.path`
// appears there prefixed with the working directory (the log and __FILE__ keep it as given).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp {

// The name under which `CompileOptions::appended_source` is compiled, so that diagnostics (and
// `.loc` lines) in generated code are not blamed on the learner's file.
inline constexpr std::string_view k_appended_source_name = "tilecamp-appended.cu";

// Where the toolkit's device headers are: $TILECAMP_CUDA_INCLUDE, else the toolkit tilecamp was
// built against if it is still there; with its include/cccl (libcu++ in CUDA 13). Empty: none.
std::vector<std::string> toolkit_include_directories();
// The folder NVRTC's library was loaded from (it loads libnvrtc-builtins from there when it first
// compiles); empty when unknown.
std::string nvrtc_library_directory();

class NvrtcCompiler : public Compiler {
 public:
  Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) override;
};

}  // namespace tilecamp
