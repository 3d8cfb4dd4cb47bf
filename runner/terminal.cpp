#include "runner/terminal.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "checker/util/shell.h"
#include "runner/learner/tty.h"

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

std::filesystem::path course_source(const std::filesystem::path& root) {
  std::string text, ignored;
  if (!read_file(root / ".tilecamp" / "source", text, ignored)) return root;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  std::error_code error;
  const std::filesystem::path source(text);
  if (text.empty() || !std::filesystem::is_regular_file(source / "exercises" / "course.toml", error)) return root;
  return source;
}

std::string tilecamp_command() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "tilecamp";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "tilecamp";
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) {
      return fs::equivalent(candidate, self, error) ? "tilecamp" : shell_quoted(self.string());
    }
    start = end + 1;
  }
  return shell_quoted(self.string());
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

int fail_with_code(const std::string& message, int code) {
  std::cerr << wrap_for_terminal(STDERR_FILENO, style_for(stderr).red("error") + ": " + message) << "\n";
  return code;
}

}  // namespace tilecamp::runner
