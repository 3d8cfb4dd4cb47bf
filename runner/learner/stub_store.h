// The exercises' stubs as tilecamp first saw them, so that `tilecamp reset` can restore one.
//
// The learner edits exercises/NN-name/kernel.cu in place, and the course folder need not be a git
// checkout, so tilecamp keeps its own copy: every command a learner starts with (`tilecamp`,
// `watch`, `list`, `hint`, `next`, `reset`, `solution`) copies each exercise's kernel.cu that has
// no copy yet to .tilecamp/stubs/NN-name.cu. The first run of `tilecamp` therefore keeps the
// stubs as shipped. A reset also keeps the learner's version, in .tilecamp/reset/NN-name.cu.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "checker/grade/exercise.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

class StubStore {
 public:
  explicit StubStore(const std::filesystem::path& course_root);

  // Copies every exercise's kernel.cu that has no copy yet. Failures are ignored: a course
  // folder that cannot be written to still works, only `reset` cannot.
  void remember(const std::vector<grade::CourseEntry>& exercises) const;

  // Writes the remembered stub over the exercise's kernel.cu, after keeping the learner's
  // version; the message says where it went.
  Expected<std::string> restore(const grade::CourseEntry& exercise) const;

  std::filesystem::path stub_path(const std::string& exercise) const;
  std::filesystem::path kept_path(const std::string& exercise) const;

 private:
  std::filesystem::path m_folder;
};

}  // namespace tilecamp::runner
