#include "runner/learner/stub_store.h"

#include <fmt/format.h>

#include <ctime>
#include <fstream>

#include "runner/learner/learner_course.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

bool write_file(const std::filesystem::path& path, const std::string& contents, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  if (!out.flush()) {
    error = "cannot write " + path.string();
    return false;
  }
  return true;
}

}  // namespace

StubStore::StubStore(const std::filesystem::path& course_root) : m_folder(course_root / ".tilecamp") {}

std::filesystem::path StubStore::stub_path(const std::string& exercise) const { return m_folder / "stubs" / (exercise + ".cu"); }

// .tilecamp/reset/01-vector-add-20261201-195512.cu: every reset keeps its own copy (UTC time, then
// -2, -3... for resets within one second), so no earlier version is ever overwritten.
std::filesystem::path StubStore::kept_path(const std::string& exercise) const {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  const std::string base = exercise + "-" + stamp;
  std::error_code ec;
  std::filesystem::path path = m_folder / "reset" / (base + ".cu");
  for (int n = 2; std::filesystem::exists(path, ec); ++n) path = m_folder / "reset" / (base + "-" + std::to_string(n) + ".cu");
  return path;
}

void StubStore::remember(const std::vector<grade::CourseEntry>& exercises) const {
  for (const grade::CourseEntry& exercise : exercises) {
    std::error_code ec;
    if (std::filesystem::exists(stub_path(exercise.id), ec)) continue;
    std::string contents, error;
    if (read_file(exercise.directory / "kernel.cu", contents, error)) write_file(stub_path(exercise.id), contents, error);
  }
}

Expected<std::string> StubStore::restore(const grade::CourseEntry& exercise) const {
  std::string stub, error;
  if (!read_file(stub_path(exercise.id), stub, error)) {
    return make_error(fmt::format("no copy of {}'s stub was kept ({}); restore exercises/{}/kernel.cu from the course's "
                                  "download (or `git checkout exercises/{}/kernel.cu` in a git checkout)",
                                  exercise.id, error, exercise.id, exercise.id));
  }
  // Named from the course folder, where the learner works.
  const std::filesystem::path file = exercise.directory / "kernel.cu";
  const std::string shown = exercise_file_shown(exercise);
  std::string mine, kept_note;
  if (read_file(file, mine, error)) {
    if (mine == stub) return fmt::format("{} is already the original stub", shown);
    const std::filesystem::path kept = kept_path(exercise.id);
    if (!write_file(kept, mine, error)) return make_error(error + "; nothing was reset");
    kept_note = fmt::format("; your version is kept in .tilecamp/reset/{}", kept.filename().string());
  }
  if (!write_file(file, stub, error)) return make_error(error);
  return fmt::format("{} is the original stub again{}", shown, kept_note);
}

}  // namespace tilecamp::runner
