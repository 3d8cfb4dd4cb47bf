// The instructor's hidden tests, `tilecamp grade --hidden FILE`: per exercise, cases added to the
// ones drawn from the seed and thresholds that replace the course's, without touching any
// student's folder. The format (docs/instructors.md, "Hidden tests"):
//
//   [exercise.02-transpose-tiled]
//   cases = [[1023, 7], [1, 2049]]              # one value per dimension: width, height
//   thresholds.emulator = { modelled_speedup = 1.3 }
//   thresholds.gpu = { speedup = 1.5 }
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "checker/grade/exercise.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

struct HiddenExercise {
  std::vector<std::vector<int64_t>> cases;  // graded after the drawn hidden cases
  std::vector<grade::Threshold> emulator_thresholds;  // each replaces the course's bound on its metric, or adds one
  std::vector<grade::Threshold> gpu_thresholds;
};

using HiddenTests = std::map<std::string, HiddenExercise>;  // by exercise id

// Reads `file` and checks it against the course: every exercise exists, every case has one
// positive integer per dimension, every metric is known. Errors name the file and the field.
Expected<HiddenTests> load_hidden_tests(const std::filesystem::path& file, const grade::Course& course);

// `exercise` with its hidden cases added and its thresholds overridden.
void apply_hidden_tests(grade::Exercise& exercise, const HiddenTests& hidden);

}  // namespace tilecamp::runner
