// The course checks itself: for every exercise, the stub is marked `// TODO`, it fails for the
// reason its metadata names (and for no other), and the reference solution passes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp::grade {

struct SelfCheckResult {
  std::string exercise;
  bool passed = false;
  std::vector<std::string> problems;  // empty when passed
};

// Runs on the emulator with a fixed seed, so the result is the same everywhere.
std::vector<SelfCheckResult> self_check_course(const std::filesystem::path& course_root, Compiler& compiler);

}  // namespace tilecamp::grade
