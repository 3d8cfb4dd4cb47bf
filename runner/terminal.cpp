#include "runner/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tilecamp::runner {

report::Style style_for(std::FILE* stream) {
  const char* no_color = std::getenv("NO_COLOR");
  const bool color = (no_color == nullptr || no_color[0] == '\0') && isatty(fileno(stream));
  return report::Style(color);
}

std::optional<std::filesystem::path> find_course_root() {
  namespace fs = std::filesystem;
  auto is_course = [](const fs::path& path) {
    std::error_code ignored;
    return fs::is_regular_file(path / "exercises" / "course.toml", ignored);
  };
  if (const char* root = std::getenv("TILECAMP_ROOT"); root != nullptr && root[0] != '\0') {
    if (is_course(root)) return fs::path(root);
    return std::nullopt;
  }
  std::error_code error;
  for (fs::path dir = fs::current_path(error); !error && !dir.empty(); dir = dir.parent_path()) {
    if (is_course(dir)) return dir;
    if (dir == dir.root_path()) break;
  }
  if (is_course(TILECAMP_SOURCE_DIR)) return fs::path(TILECAMP_SOURCE_DIR);
  return std::nullopt;
}

bool read_file(const std::filesystem::path& path, std::string& contents, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = path.string() + " is a folder, not a file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return true;
}

}  // namespace tilecamp::runner
