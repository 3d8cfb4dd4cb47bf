// tilecamp lesson N: show a lesson, wrapped to the terminal; `tilecamp` alone starts at lesson 1.
// (Markdown is re-flowed with cmark's CommonMark renderer; a styled renderer comes with the
// terminal experience.)
#include <cmark.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

int terminal_width() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) {
    return std::min<int>(size.ws_col, 100);
  }
  return 80;
}

// HTML comments tie lessons to tested code (`<!-- snippet: ... -->`, `<!-- expect: ... -->`);
// a reader does not need to see them.
std::string without_snippet_markers(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("<!--", 0) == 0) continue;
    out += line + "\n";
  }
  return out;
}

std::string render(const std::string& markdown) {
  const std::string text = without_snippet_markers(markdown);
  std::unique_ptr<cmark_node, void (*)(cmark_node*)> document(
      cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT), cmark_node_free);
  std::unique_ptr<char, void (*)(void*)> rendered(
      cmark_render_commonmark(document.get(), CMARK_OPT_DEFAULT, terminal_width()), std::free);
  return rendered ? rendered.get() : text;
}

// Long text goes through the pager on a terminal (less quits at once if it fits the screen).
void show(const std::string& text) {
  if (isatty(STDOUT_FILENO) && std::getenv("TILECAMP_NO_PAGER") == nullptr) {
    if (FILE* pager = popen("less -FRX 2>/dev/null || cat", "w")) {
      std::fwrite(text.data(), 1, text.size(), pager);
      pclose(pager);
      return;
    }
  }
  std::cout << text;
}

std::vector<std::filesystem::path> lesson_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root / "lessons", error)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0]))) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int show_lesson(int number, const std::string& preface) {
  auto root = find_course_root();
  if (!root) {
    std::cerr << "error: " << k_no_course << "\n";
    return k_exit_usage;
  }
  const std::vector<std::filesystem::path> files = lesson_files(*root);
  for (const auto& file : files) {
    if (std::stoi(file.filename().string().substr(0, 2)) != number) continue;
    std::string markdown, error;
    if (!read_file(file, markdown, error)) {
      std::cerr << "error: " << error << "\n";
      return k_exit_usage;
    }
    show(preface + render(markdown));
    return k_exit_ok;
  }
  std::cerr << "error: there is no lesson " << number << "; the lessons are:";
  for (const auto& file : files) std::cerr << "\n  " << file.filename().string();
  std::cerr << "\n";
  return k_exit_usage;
}

std::function<int()> setup_lesson_command(CLI::App& app) {
  auto number = std::make_shared<int>(1);
  CLI::App* command = app.add_subcommand("lesson", "Show a lesson of the course");
  command->footer("Example:\n  tilecamp lesson 2      # shared-memory tiling\n\nSet TILECAMP_NO_PAGER=1 to print without the pager.");
  command->add_option("number", *number, "the lesson's number, e.g. 1")->required();
  return [number] { return show_lesson(*number, ""); };
}

}  // namespace tilecamp::runner
