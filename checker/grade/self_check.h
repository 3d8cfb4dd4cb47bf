// The course checks itself: the index loads and lists every exercise folder; for every exercise,
// the metadata parses, the stub is marked `// TODO`, it fails for the reasons its metadata names
// (and for no other), the reference solution passes, and the lesson it belongs to exists.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/compile/compiler.h"

namespace tilecamp::grade {

struct SelfCheckResult {
  std::string exercise;
  bool passed = false;
  std::vector<std::string> problems;  // empty when passed
};

struct SelfCheckReport {
  std::vector<std::string> course_problems;  // the index, stray folders, missing lessons
  std::vector<SelfCheckResult> exercises;
  bool passed() const;
};

// Runs on the emulator with a fixed seed, so the result is the same everywhere. `emulator` makes
// the emulator backends (the sandbox's in tilecamp).
using EmulatorFactory = std::function<std::unique_ptr<Backend>()>;
SelfCheckReport self_check_course(const std::filesystem::path& course_root, Compiler& compiler,
                                  const EmulatorFactory& emulator);

}  // namespace tilecamp::grade
