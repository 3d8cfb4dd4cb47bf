// A problem kind (transpose, copy, SGEMM, ...): which cases an exercise is graded on, how one
// case is launched, and how its output is judged against a trusted CPU reference.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "checker/backend.h"

namespace tilecamp::grade {

struct ProblemCase {
  std::string shape;            // "50x37", shown to the learner
  std::vector<int64_t> dims;    // the problem's dimensions, e.g. {width, height}
  bool hidden = false;
  bool performance = false;     // the case the speed thresholds are measured on
};

using LaunchConstants = std::map<std::string, int64_t>;

struct CaseJudgement {
  bool passed = false;
  std::string message;  // what a learner can act on when it failed
};

class Problem {
 public:
  virtual ~Problem() = default;
  virtual std::vector<ProblemCase> cases(uint64_t seed) const = 0;
  // Fresh inputs (seeded, never all zero), outputs poisoned with NaN, grid and block from the
  // dimensions and the learner's launch constants. An Error: the constants make no valid launch.
  virtual Expected<LaunchRequest> make_launch(const ProblemCase& problem_case, const LaunchConstants& constants,
                                              uint64_t seed) const = 0;
  virtual CaseJudgement judge(const ProblemCase& problem_case, const LaunchConstants& constants,
                              const LaunchRequest& request, const LaunchOutcome& outcome) const = 0;
};

Expected<std::unique_ptr<Problem>> make_problem(const std::string& kind);

}  // namespace tilecamp::grade
