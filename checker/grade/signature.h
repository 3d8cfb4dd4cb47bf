// The learner's kernel against the exercise's parameter list, in source terms, before anything
// runs: a wrong count or a `double*` where the checker passes floats would otherwise surface as
// a mangled name or an out-of-bounds access far from its cause.
#pragma once

#include <string>

#include "checker/grade/exercise.h"
#include "checker/ptx/module.h"

namespace tilecamp::grade {

// Empty when the kernel `entry` of `module` takes what the exercise passes; else what differs:
// "your `vectorAdd` takes 5 parameters (float const*, ...); the exercise passes 4: ...".
std::string signature_mismatch(const Exercise& exercise, const ptx::Module& module, const std::string& entry);

}  // namespace tilecamp::grade
