#include "runner/learner/lessons.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include "runner/learner/markdown_render.h"
#include "runner/learner/pager.h"
#include "runner/terminal.h"
#include "runner/learner/tty.h"

namespace tilecamp::runner {

std::vector<LessonFile> lesson_files(const std::filesystem::path& course_root) {
  std::vector<LessonFile> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(course_root / "lessons", error)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".md" || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[0])) ||
        !std::isdigit(static_cast<unsigned char>(name[1]))) {
      continue;
    }
    files.push_back({std::stoi(name.substr(0, 2)), entry.path()});
  }
  std::sort(files.begin(), files.end(), [](const LessonFile& a, const LessonFile& b) { return a.path < b.path; });
  return files;
}

std::string lesson_title(const std::filesystem::path& course_root, int number) {
  for (const LessonFile& lesson : lesson_files(course_root)) {
    if (lesson.number != number) continue;
    std::ifstream in(lesson.path);
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with("# ")) continue;
      std::string title = line.substr(2);  // "Lesson 1: Coalescing" -> "Coalescing"
      std::erase(title, '`');                 // "`__syncthreads()`" reads as code without the quotes
      const size_t colon = title.find(": ");
      return title.starts_with("Lesson ") && colon != std::string::npos ? title.substr(colon + 2) : title;
    }
  }
  return "";
}

Expected<std::vector<std::string>> render_lesson(const std::filesystem::path& course_root, int number, size_t width,
                                                 bool color) {
  const std::vector<LessonFile> files = lesson_files(course_root);
  for (const LessonFile& lesson : files) {
    if (lesson.number != number) continue;
    std::string markdown, error;
    if (!read_file(lesson.path, markdown, error)) return make_error(error);
    return render_markdown(markdown, {width, color});
  }
  std::string message = fmt::format("there is no lesson {}; the lessons are:", number);
  for (const LessonFile& lesson : files) message += "\n  " + lesson.path.filename().string();
  if (files.empty()) message += fmt::format(" none ({} holds no NN-name.md file)", (course_root / "lessons").string());
  return make_error(message);
}

Status show_lesson(const std::filesystem::path& course_root, int number, bool always) {
  const bool color = style_for(stdout).color();
  auto lines = render_lesson(course_root, number, text_width(), color);
  if (!lines) return make_error(lines.error());
  const std::string title = lesson_title(course_root, number);
  show_paged(*lines, fmt::format("lesson {}{}", number, title.empty() ? "" : ": " + title), color, always);
  return ok();
}

}  // namespace tilecamp::runner
