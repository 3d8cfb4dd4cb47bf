// An exercise as its metadata file (exercises/NN-name/exercise.toml) describes it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::grade {

// An upper bound on a figure the emulator measures on the exercise's performance case.
struct Threshold {
  std::string metric;  // e.g. "global_st_sectors_per_request"
  double max = 0;
};

struct Exercise {
  std::string name;      // "02-transpose-tiled", the folder's name
  std::string title;
  int lesson = 0;
  std::string kernel;    // the kernel the learner completes
  std::string problem;   // the problem kind: how cases, inputs and the reference are made
  std::vector<std::string> launch_constants;           // macros the learner's file must define
  std::vector<std::string> optional_launch_constants;  // macros it may define
  std::vector<Threshold> emulator_thresholds;
  std::vector<std::string> hints;
  // What the shipped stub must fail (substrings of check names), and nothing else: the course
  // self-check holds every stub to it.
  std::vector<std::string> stub_fails;
  std::filesystem::path directory;

  std::filesystem::path stub_path() const { return directory / "kernel.cu"; }
};

// Reads `directory`/exercise.toml. Errors name the file, the field and what was expected.
Expected<Exercise> load_exercise(const std::filesystem::path& directory);

// The exercise folders of the course at `course_root` (exercises/*/), in name order.
std::vector<std::filesystem::path> exercise_folders(const std::filesystem::path& course_root);

// The exercise called `name` in the course at `course_root` (exercises/<name>/).
Expected<Exercise> find_exercise(const std::filesystem::path& course_root, const std::string& name);

}  // namespace tilecamp::grade
