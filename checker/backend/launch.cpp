#include "checker/backend/launch.h"

namespace tilecamp {

bool LaunchResult::has_error() const {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) return true;
  }
  return false;
}

void show_path_as_given(LaunchResult& result, const std::string& given) {
  auto relabel = [&](std::string& file) {
    if (file.size() > given.size() && file.ends_with(given) && file[file.size() - given.size() - 1] == '/') {
      file = given;
    }
  };
  for (LineProfile& line : result.lines) relabel(line.file);
  for (Diagnostic& diagnostic : result.diagnostics) relabel(diagnostic.file);
}

}  // namespace tilecamp
