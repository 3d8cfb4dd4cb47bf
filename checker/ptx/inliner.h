// Calls of device functions are expanded in place before a kernel runs: the callee's
// instructions are copied into the caller with fresh registers, its parameters renamed to the
// caller's argument variables, and each `ret` turned into a branch past the copy. The emulator
// then sees one flat function per kernel, and per-line figures still name the callee's lines.
// Calls of extern functions (vprintf, __assertfail) stay calls: the emulator implements them.
#pragma once

#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp::ptx {

// Errors: recursion (deeper than a fixed limit), a call with the wrong number of arguments.
Status inline_calls(Module& module);

}  // namespace tilecamp::ptx
