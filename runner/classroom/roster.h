// A class's submissions as `tilecamp grade` finds them (one folder per student in the roster),
// and what it keeps between runs so that an interrupted run resumes: one state file per student,
// written atomically as soon as the student is graded, keyed by a hash of everything the result
// depends on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/grade/exercise.h"
#include "checker/report/scoring.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

struct Student {
  std::string id;  // the folder's name
  std::filesystem::path folder;  // absolute
};

// The roster's student folders, and a warning for each folder that is not graded although it
// looks like a student's: one that is a symbolic link (it could be anyone's folder), one whose
// name is not valid UTF-8 (no report could name it).
struct Roster {
  std::vector<Student> students;
  std::vector<std::string> not_graded;  // one warning per folder, naming it with odd bytes escaped
};

// Every folder of `roster`, sorted by name, except hidden ones and `skip` (the report folder,
// when it lies inside the roster).
Expected<Roster> list_students(const std::filesystem::path& roster, const std::filesystem::path& skip);

// `text` with every byte that is not printable ASCII written as \xNN.
std::string escaped_bytes(std::string_view text);
// Whether `text` holds C0 or C1 control characters or DEL (escape sequences start with them).
bool has_control_characters(std::string_view text);

// Whether `path`, its symbolic links resolved, lies inside `folder` (resolved too). A path that
// cannot be resolved does not.
bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& folder);

// The only file of a student's folder that grading reads: exercises/ID/kernel.cu.
std::filesystem::path submission_path(const Student& student, const std::string& exercise);
// How reports name it, the same for every student: exercises/ID/kernel.cu.
std::string submission_shown_path(const std::string& exercise);

// A 64-bit FNV-1a hash of a sequence of byte strings (each length-prefixed), in hex: a change
// detector, not a defence against anyone crafting collisions.
class Fingerprint {
 public:
  Fingerprint& add(std::string_view bytes);
  Fingerprint& add_file(const std::filesystem::path& path);  // its bytes, or a marker when absent
  std::string hex() const;

 private:
  void mix(std::string_view bytes);
  uint64_t m_hash = 14695981039346656037ull;
};

// The course's side of every result: course.toml and every file of each graded exercise's folder.
void add_course_metadata(Fingerprint& fingerprint, const grade::Course& course, const std::vector<std::string>& exercises);

// The state kept under REPORT_DIR/.state/.
class GradeState {
 public:
  explicit GradeState(const std::filesystem::path& report_dir);

  // The seed of the last run into this report folder, if any.
  std::optional<uint64_t> saved_seed() const;
  Status save_seed(uint64_t seed) const;

  // The student's saved result, when it was graded with the same `hash` and every submission
  // could be graded.
  std::optional<report::StudentResult> load(const std::string& student, const std::string& hash) const;
  Status save(const report::StudentResult& result, const std::string& hash) const;

  // Where this run's grading jobs write their job files, verdicts and logs:
  // .state/work/PID/, removed at the end of the run (and by remove_stale_temporaries once PID has
  // ended).
  std::filesystem::path work_dir() const;
  // The work files' name for one student's exercise: a hash of the id (any id makes a short name).
  static std::string work_file_name(const std::string& student, const std::string& exercise);

 private:
  std::filesystem::path m_dir;
};

// Writes `contents` to `path` through a temporary file renamed over it, so that a reader (or a
// run killed half-way) sees the old file or the new one, never a part.
Status write_file_atomically(const std::filesystem::path& path, const std::string& contents);

// Removes what a killed run left in the report folder `out`, and only what `grade` writes: the
// temporaries (`NAME.tmpPID`, PID no longer running) of grades.csv, grades.json, junit.xml and a
// shard's shard.json directly in `out` and any below `out`/.state and `out`/students, and the
// work folders .state/work/PID of runs no longer running. Nothing else of `out` is looked at (it
// may be `.`).
// Returns how many files and folders it removed.
size_t remove_stale_temporaries(const std::filesystem::path& out);

}  // namespace tilecamp::runner
