// An exercise as its metadata file (exercises/NN-name/exercise.toml) describes it, and the course
// index (exercises/course.toml) that orders the exercises. docs/exercise-format.md is the
// reference for authors; this is its in-memory form.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::grade {

enum class ParamRole { In, Out, InOut, Scalar };
enum class ElementType { F32, I32, U32 };

// One kernel parameter: a buffer (pointer) or a scalar. Sizes and values are expressions.
struct Param {
  std::string name;
  std::string type;  // as written: "const float*"
  ElementType element = ElementType::F32;
  bool pointer = false;
  ParamRole role = ParamRole::Scalar;
  std::string size;                // pointers: elements, an expression
  std::vector<std::string> shape;  // pointers, optional: rows, columns (then size = rows * columns)
  std::string value;               // scalars: an expression
  double low = -1, high = 1;       // inputs are uniform in [low, high], never 0
  // Inputs, optional: in the buffer's second half each element is one "hot" value (drawn once per
  // case from [low, high]) with this probability, uniform otherwise (0: all uniform). A histogram
  // meets skewed and uniform data in one input.
  double hot_share = 0;

  bool is_input() const { return role == ParamRole::In || role == ParamRole::InOut; }
  bool is_output() const { return role == ParamRole::Out || role == ParamRole::InOut; }
};

// A launch written as expressions of the dimensions and the launch constants.
struct LaunchSpec {
  std::vector<std::string> block;  // 1 to 3 expressions
  std::vector<std::string> grid;
  std::string shared_bytes;        // dynamic shared memory, optional
  bool cooperative = false;        // a cooperative launch: every block resident (grid-wide sync)
};

// A kernel other than the learner's, in a file of the exercise folder.
struct KernelFile {
  std::string file;    // relative to the exercise folder; empty: none
  std::string kernel;
  LaunchSpec launch;
};

struct ReferenceSpec {
  std::string builtin;  // a C++ reference (reference.h), or
  KernelFile kernel;    // a trusted kernel run on the same backend
  std::map<std::string, double> options;  // builtin options, e.g. radius
};

struct Comparison {
  bool relative = false;  // else bit for bit
  double tol = 0;         // |actual - expected| <= tol + |expected| * eps
  double eps = 0;
};

struct ProblemSpec {
  std::vector<std::string> dims;
  std::vector<std::vector<int64_t>> public_cases;
  std::vector<std::vector<int64_t>> hidden_cases;  // fixed hidden cases
  std::vector<int64_t> performance;                // the case thresholds are measured on
  std::vector<int64_t> gpu_performance;            // on a GPU, a larger one to time (optional)
  std::map<std::string, std::pair<int64_t, int64_t>> ranges;  // hidden draws, inclusive
  std::map<std::string, std::vector<int64_t>> choices;        // a dimension drawn from a list
  std::string fmas;  // multiply-adds, for the *_per_fma metrics; optional
};

// A bound on a figure measured on the performance case: at most `bound`, or at least it for the
// speedups.
struct Threshold {
  std::string metric;  // e.g. "global_st_sectors_per_request", "modelled_speedup"
  double bound = 0;
  bool at_least = false;
};

struct Exercise {
  std::string name;   // "02-transpose-tiled", the folder's name
  std::string title;
  int lesson = 0;     // from the course index
  std::string kernel; // the kernel the learner completes
  std::vector<std::string> required_constants;          // macros the learner's file must define
  std::map<std::string, std::string> optional_constants;  // may define; else this expression
  ProblemSpec problem;
  std::vector<Param> params;
  LaunchSpec launch;
  ReferenceSpec reference;
  Comparison compare;
  KernelFile baseline;
  std::vector<Threshold> emulator_thresholds;
  std::vector<Threshold> gpu_thresholds;
  std::vector<std::string> errors;  // emulator warning kinds this exercise fails on
  // The techniques the exercise teaches, checked on the performance case where speed alone would
  // not show them: "shared_memory" (data staged through a shared tile), "barrier" (__syncthreads()).
  std::vector<std::string> requirements;
  std::vector<std::string> hints;
  // What the shipped stub must fail (check kinds or parts of check names), and nothing else: the
  // course self-check holds every stub to it.
  std::vector<std::string> stub_fails;
  std::filesystem::path directory;

  std::filesystem::path stub_path() const { return directory / "kernel.cu"; }
  std::filesystem::path metadata_path() const { return directory / "exercise.toml"; }
};

// Reads `directory`/exercise.toml. Errors name the file, the field and what was expected.
Expected<Exercise> load_exercise(const std::filesystem::path& directory);

// The course index, exercises/course.toml: the order of the exercises and their lessons.
struct CourseEntry {
  std::string id;
  int lesson = 0;
  std::filesystem::path directory;
};

struct Course {
  std::filesystem::path root;
  std::vector<CourseEntry> exercises;
};

Expected<Course> load_course(const std::filesystem::path& course_root);

// The exercise called `name` in the course: its metadata, with the lesson from the index. An
// unknown name lists the known ones.
Expected<Exercise> find_exercise(const std::filesystem::path& course_root, const std::string& name);

// The exercise a mistyped name most likely meant: one whose id holds it ("transpose-tiled"), or
// one within a few edits ("02-transpose-tilde"); nullptr when none is close.
const CourseEntry* closest_exercise(const Course& course, const std::string& name);
Expected<Exercise> load_course_exercise(const CourseEntry& entry);

}  // namespace tilecamp::grade
