// What a kernel may include. A submission is one file: it may include the CUDA toolkit's headers
// and the compiler's built-in stand-ins (<cstdio>, <cuda_fp16.h>, <cooperative_groups.h>...), but
// never a file by its path. NVRTC would otherwise open any file the grader can read —
// `#include "/etc/passwd"`, `#include "../../hidden.toml"` — and quote it back in its errors.
//
// This is the first of two walls: the sandbox (checker/sandbox) is the boundary, and NVRTC runs
// there unable to read anything but the toolkit. The scan works on the preprocessor's view of the
// text, as NVRTC's lexer reads it: lines spliced at backslash-newlines, comments, string and
// character literals, digit separators (only inside a number), raw strings (a delimiter over 16
// characters is no raw string to NVRTC) and header names understood, so `#/**/include`,
// `# \<newline>include` and a directive inside a raw string are read as the compiler reads them.
// An include whose name comes from a macro is refused, since its file cannot be known before
// preprocessing; so is `__has_include` not followed by a header's name, and `#line`, which would
// let a kernel choose the lines its findings name. tests/fuzz/fuzz_include_policy.cpp compares the
// scan with NVRTC itself. NvrtcCompiler also names the program /dev/null/kernel.cu, so a relative
// name finds nothing beside the kernel: only the toolkit's headers, which find their own siblings.
#pragma once

#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp {

// One error per refused directive (`#include`, `#include_next`, `#import`, `#embed`,
// `__has_include`, `#line`), at its line, with the source line; empty when the file may be compiled.
std::vector<CompileDiagnostic> forbidden_includes(const SourceFile& source);

}  // namespace tilecamp
