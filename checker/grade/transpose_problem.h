// The transpose problem: `in` has `height` rows of `width` floats, `out` its transpose (`width`
// rows of `height`), both row-major.
// Launch: blocks of TILE_DIM x BLOCK_ROWS threads (BLOCK_ROWS defaults to TILE_DIM), one block
// per TILE_DIM x TILE_DIM tile of the input.
#pragma once

#include "checker/grade/problem.h"

namespace tilecamp::grade {

class TransposeProblem : public Problem {
 public:
  std::vector<ProblemCase> cases(uint64_t seed) const override;
  Expected<LaunchRequest> make_launch(const ProblemCase& problem_case, const LaunchConstants& constants,
                                      uint64_t seed) const override;
  CaseJudgement judge(const ProblemCase& problem_case, const LaunchConstants& constants,
                      const LaunchRequest& request, const LaunchOutcome& outcome) const override;
};

}  // namespace tilecamp::grade
