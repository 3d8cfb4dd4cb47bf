// What a kernel may include. A submission is one file: it may include the CUDA toolkit's headers
// and the compiler's built-in stand-ins (<cstdio>, <cuda_fp16.h>, <cooperative_groups.h>...), but
// never a file by its path. NVRTC would otherwise open any file the grader can read —
// `#include "/etc/passwd"`, `#include "../../hidden.toml"` — and quote it back in its errors.
//
// The scan works on the preprocessor's view of the text: lines spliced at backslash-newlines,
// comments and string literals understood, so `#/**/include`, `# \<newline>include` and a
// directive inside a raw string are all read as the compiler would read them. An include whose
// name comes from a macro is refused too, since its file cannot be known before preprocessing.
// NvrtcCompiler also passes -no-source-include, so a relative name is looked up only among the
// toolkit's headers, never beside the kernel.
#pragma once

#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp {

// One error per refused directive (`#include`, `#include_next`, `#import`, `#embed`,
// `__has_include`), at its line, with the source line; empty when the file may be compiled.
std::vector<CompileDiagnostic> forbidden_includes(const SourceFile& source);

}  // namespace tilecamp
