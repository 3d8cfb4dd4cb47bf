// The course's lessons: lessons/NN-slug.md, numbered, rendered for the terminal.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::runner {

struct LessonFile {
  int number = 0;
  std::filesystem::path path;
};

// The numbered lessons of the course, in order.
std::vector<LessonFile> lesson_files(const std::filesystem::path& course_root);

// The lesson's topic from its `# Lesson N: Topic` title ("Coalescing"); "" when there is none.
std::string lesson_title(const std::filesystem::path& course_root, int number);

// Lesson `number` rendered to lines of `width` columns. An unknown number lists the lessons.
Expected<std::vector<std::string>> render_lesson(const std::filesystem::path& course_root, int number, size_t width,
                                                 bool color);

// Shows lesson `number` on standard output, through the pager on a terminal (`always`: even when
// it fits, so that a screen drawn before it comes back only when the learner leaves it).
Status show_lesson(const std::filesystem::path& course_root, int number, bool always = false);

}  // namespace tilecamp::runner
