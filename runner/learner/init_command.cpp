// tilecamp init DIR: a learner's course folder. It holds the lessons and, for each exercise, its
// stub and metadata without the hints; no solutions. tilecamp hands out the hints one at a time
// and a solution once its exercise passes, from the course the folder was made from (its path is
// kept in DIR/.tilecamp/source). The course's own folders stay as shipped, so the test suite,
// which reads them, never sees a learner's work.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/grade/exercise.h"
#include "checker/util/shell.h"
#include "runner/command.h"
#include "runner/learner/learner_course.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

namespace fs = std::filesystem;

// exercise.toml with its `hints = [...]` array emptied (the array opens on a line of its own and
// closes with a `]` at the start of a line, as every exercise of the course writes it).
Expected<std::string> without_hints(const fs::path& file) {
  std::string text, error;
  if (!read_file(file, text, error)) return make_error(error);
  std::string out;
  bool in_hints = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(at, end - at);
    at = end;
    if (!in_hints && line.starts_with("hints = [")) {
      in_hints = line.find(']') == std::string::npos;
      out += "hints = []  # tilecamp gives them one at a time: h on the course's screen, or tilecamp hint\n";
      continue;
    }
    if (in_hints) {
      if (line.starts_with("]")) in_hints = false;
      continue;
    }
    out += line;
  }
  if (in_hints) return make_error(file.string() + ": the `hints` array never closes (expected a line starting with `]`)");
  return out;
}

// Copies the regular files under `from` (recursively) to `to`. A link or a special file is not
// followed: a course folder holds plain files only.
Expected<size_t> copy_tree(const fs::path& from, const fs::path& to, const fs::path& source_root) {
  size_t copied = 0;
  std::error_code error;
  fs::create_directories(to, error);
  if (error) return make_error("cannot create " + to.string() + ": " + error.message());
  for (fs::recursive_directory_iterator it(from, fs::directory_options::none, error), end; !error && it != end;
       it.increment(error)) {
    const fs::path relative = fs::relative(it->path(), from);
    const fs::file_status status = fs::symlink_status(it->path());
    if (fs::is_symlink(status)) {
      return make_error(fs::relative(it->path(), source_root).string() +
                        " is a link; a course folder is made of plain files only (nothing was kept)");
    }
    if (fs::is_directory(status)) {
      fs::create_directories(to / relative, error);
      if (error) break;
      continue;
    }
    if (!fs::is_regular_file(status)) continue;
    if (it->path().filename() == "exercise.toml") {
      TC_TRY_ASSIGN(std::string text, without_hints(it->path()));
      std::ofstream out(to / relative, std::ios::binary);
      out << text;
      if (!out) return make_error("cannot write " + (to / relative).string());
    } else {
      fs::copy_file(it->path(), to / relative, fs::copy_options::overwrite_existing, error);
      if (error) break;
    }
    ++copied;
  }
  if (error) return make_error("copying " + from.string() + " to " + to.string() + ": " + error.message());
  return copied;
}

int run_init(const std::string& directory) {
  const report::Style err = style_for(stderr);
  auto fail = [&](const std::string& message, int code) {
    std::cerr << err.red("error") << ": " << message << "\n";
    return code;
  };
  auto found = find_course_root();
  if (!found) return fail(k_no_course, k_exit_usage);
  const fs::path source = course_source(*found);  // a learner's folder gives the course it came from
  const fs::path target = fs::absolute(directory).lexically_normal();
  std::error_code error;
  if (fs::exists(fs::symlink_status(target, error))) {
    if (!fs::is_directory(fs::symlink_status(target))) {
      return fail(directory + " exists and is not a folder: choose a new folder for the course (nothing was written)",
                  k_exit_usage);
    }
    if (!fs::is_empty(target, error)) {
      return fail(directory + " exists and is not empty: choose a new folder for the course (nothing was written)",
                  k_exit_usage);
    }
  }
  const fs::path canonical_source = fs::weakly_canonical(source);
  const fs::path canonical_target = fs::weakly_canonical(target);
  auto inside = [](const fs::path& path, const fs::path& folder) {
    const auto [end, _] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
    return end == folder.end();
  };
  if (inside(canonical_target, canonical_source / "exercises") || inside(canonical_target, canonical_source / "lessons") ||
      inside(canonical_source, canonical_target)) {
    return fail(directory + " overlaps the course it would copy (" + source.string() + "): choose a folder outside it",
                k_exit_usage);
  }
  size_t files = 0;
  for (const char* part : {"lessons", "exercises"}) {
    auto copied = copy_tree(source / part, target / part, source);
    if (!copied) {
      fs::remove_all(target, error);
      return fail(copied.error(), k_exit_failed);
    }
    files += *copied;
  }
  fs::create_directories(target / ".tilecamp", error);
  std::ofstream origin(target / ".tilecamp" / "source", std::ios::binary);
  origin << fs::weakly_canonical(source).string() << "\n";
  if (!origin) {
    fs::remove_all(target, error);
    return fail("cannot write " + (target / ".tilecamp" / "source").string(), k_exit_failed);
  }
  auto course = grade::load_course(target);
  if (!course) return fail(course.error(), k_exit_failed);
  std::cout << fmt::format(
      "Made a course folder in {}: {} exercises and their lessons ({} files), without the solutions; "
      "hints come from tilecamp one at a time.\nStart it: cd {} && tilecamp\n",
      directory, course->exercises.size(), files, shell_quoted(directory));
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_init_command(CommandLine& app) {
  auto directory = std::make_shared<std::string>();
  CommandLine command = app.subcommand("init", "Make a course folder of your own: the lessons and the stubs, no answers");
  command.footer(
      "Examples:\n"
      "  tilecamp init ~/gpu-course   # then: cd ~/gpu-course && tilecamp\n\n"
      "The folder gets the lessons and every exercise's stub and metadata, without hints or solutions:\n"
      "tilecamp gives the hints one at a time (h, tilecamp hint) and a solution once its exercise\n"
      "passes (s, tilecamp solution), from the course the folder was made from. DIR must be new or empty.");
  command.option("dir", *directory, "the folder to make (new, or empty)").required();
  return [directory] { return run_init(*directory); };
}

}  // namespace tilecamp::runner
