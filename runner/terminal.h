// What the runner needs to know about where it prints and where the course lives.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "checker/report/style.h"

namespace tilecamp::runner {

// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
report::Style style_for(std::FILE* stream);

// The course folder (the one holding exercises/): $TILECAMP_ROOT, else the nearest folder at or
// above the working directory that has one, else the source tree this program was built from.
std::optional<std::filesystem::path> find_course_root();
// The course a learner's folder was made from (`tilecamp init` keeps its path in
// ROOT/.tilecamp/source): where the hints and solutions are. ROOT itself for the course as shipped.
std::filesystem::path course_source(const std::filesystem::path& root);

// How to run this program from a new shell: "tilecamp" when that name on the PATH is this
// program, else its full path.
std::string tilecamp_command();

inline constexpr const char* k_no_course =
    "cannot find the course: run tilecamp inside the course folder (the one with exercises/course.toml), "
    "or set TILECAMP_ROOT to it";

// Exit codes shared by every command.
constexpr int k_exit_ok = 0;
constexpr int k_exit_failed = 1;
constexpr int k_exit_usage = 2;

bool read_file(const std::filesystem::path& path, std::string& contents, std::string& error);

// Prints "error: MESSAGE" on stderr (red on a terminal, wrapped at its width; one line piped) and
// returns `code`.
int fail_with_code(const std::string& message, int code);

}  // namespace tilecamp::runner
