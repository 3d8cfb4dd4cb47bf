// Reading NVRTC's compile log into diagnostics. NVRTC (as of CUDA 13.0) writes each diagnostic as
//
//   kernel.cu(12): error: identifier "x" is undefined
//     a[i] = x;
//            ^
//
// that is, a header `FILE(LINE): SEVERITY[ #NUMBER-D]: MESSAGE`, sometimes more message lines
// indented by ten or more spaces ("argument types are: ...", "detected during instantiation of
// ..."), then the source line and a caret line, both indented by two spaces, then a blank line.
// Errors at the end of the file read `At end of source: error: ...` and name no file or line;
// errors in the options read `Command-line error: ...`.
// Notes (`note #3322-D: ...`) belong to the diagnostic before them and are left out, as are the
// closing lines ("1 error detected in the compilation of ...", "Compilation terminated.",
// "Remark: The warnings can be suppressed ..."); the full log is kept alongside.
#pragma once

#include <string_view>
#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp {

// Severities are "error" (also for "catastrophic error") or "warning". The column is the caret's
// 1-based byte offset in the source line (a tab counts as one); the diagnostic number is dropped.
// Diagnostics "at end of source" are given `end_of_source_file` (the log does not say which file
// ends the program) and line 0; command-line errors keep an empty file.
std::vector<CompileDiagnostic> parse_nvrtc_log(std::string_view log,
                                               std::string_view end_of_source_file = {});

}  // namespace tilecamp
