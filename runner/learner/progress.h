// The learner's progress, kept in a small JSON file in their course folder
// (.tilecamp/progress.json): which exercise they are on, which passed with which contents of
// their kernel.cu, how many hints of each they have asked for, and whether they have seen the
// welcome. A pass counts only while the file is unchanged: an edit after passing makes the
// exercise pending again until the next check.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace tilecamp::runner {

struct ExerciseProgress {
  bool passed = false;
  std::string hash;  // of kernel.cu when it was last checked
  int hints_shown = 0;
};

class Progress {
 public:
  // Reads the course's progress file. A missing file is a fresh start; an unreadable or
  // hand-broken one is set aside (renamed *.corrupt) and `repair_note()` says so. A broken field
  // (a hint count that is not a number) is dropped alone, with a note too.
  static Progress load(const std::filesystem::path& course_root);

  // Records a check of `exercise` whose kernel.cu had `contents`, and writes the file (atomically:
  // a temporary file renamed over the old one). False, with `error`, when it cannot be written.
  bool record(const std::string& exercise, const std::string& contents, bool passed, std::string& error);

  // Passed, with kernel.cu still as it was then.
  bool done(const std::string& exercise, const std::string& current_contents) const;

  const std::optional<std::string>& current() const { return m_current; }
  bool set_current(const std::string& exercise, std::string& error);

  int hints_shown(const std::string& exercise) const;
  // One more hint of `exercise` shown, up to `available`; saved.
  bool reveal_hint(const std::string& exercise, int available, std::string& error);

  bool welcome_seen() const { return m_welcome_seen; }
  bool set_welcome_seen(std::string& error);

  const std::string& repair_note() const { return m_repair_note; }

  static std::string hash_of(const std::string& contents);

 private:
  bool save(std::string& error) const;
  void set_aside(const std::string& problem);

  std::filesystem::path m_file;
  std::map<std::string, ExerciseProgress> m_exercises;
  std::optional<std::string> m_current;
  bool m_welcome_seen = false;
  std::string m_repair_note;
};

}  // namespace tilecamp::runner
