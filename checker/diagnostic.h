// A finding about a kernel, pointing at a source line: what the emulator, the compiler and the
// grader report, and what every report format renders.
#pragma once

#include <string>

namespace tilecamp {

enum class Severity { Error, Warning };

inline const char* severity_name(Severity severity) {
  return severity == Severity::Error ? "error" : "warning";
}

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string kind;  // e.g. "deadlock", "early-exit-barrier", "out-of-bounds", "unsupported"
  std::string file;
  int line = 0;
  std::string message;
  // Seen only while running hidden cases: a student's view shows no line or detail of it, since
  // a kernel can choose its line by the case's size.
  bool hidden = false;
};

}  // namespace tilecamp
