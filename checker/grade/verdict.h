// The result of checking one exercise: what every report format (text, JSON, later JUnit and
// Gradescope) renders.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/diagnostic.h"

namespace tilecamp::grade {

enum class CheckStatus { Pass, Fail, Skip, Info };
enum class VerdictStatus { Pass, Fail, Error };

const char* check_status_name(CheckStatus status);
const char* verdict_status_name(VerdictStatus status);

struct Check {
  std::string name;     // "compiles", "public case 50x37", "stores are coalesced"
  CheckStatus status = CheckStatus::Pass;
  std::string message;  // why it failed, or a figure worth showing
};

struct Verdict {
  std::string exercise;
  std::string file;     // the checked kernel file
  std::string backend;
  uint64_t seed = 0;
  VerdictStatus status = VerdictStatus::Pass;
  std::string error;    // when status is Error: why the exercise could not be checked
  std::map<std::string, int64_t> constants;  // the launch constants read from the file
  std::vector<Check> checks;
  std::vector<Diagnostic> diagnostics;  // compiler and emulator findings, with source lines
};

}  // namespace tilecamp::grade
