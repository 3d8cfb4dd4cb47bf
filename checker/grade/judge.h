// Judging one case: the kernel's buffers against the reference's, with a message a learner can
// act on (the first wrong elements with their coordinates, and what the pattern suggests).
#pragma once

#include <string>
#include <vector>

#include "checker/backend/launch.h"
#include "checker/grade/cases.h"
#include "checker/grade/exercise.h"

namespace tilecamp::grade {

struct CaseJudgement {
  bool passed = false;
  std::string message;  // why it failed
};

// `expected` and `actual` hold one byte vector per buffer of `data`, in the same order.
CaseJudgement judge_case(const Exercise& exercise, const CaseData& data,
                         const std::vector<std::vector<uint8_t>>& expected,
                         const std::vector<std::vector<uint8_t>>& actual, const LaunchConfig& config);

}  // namespace tilecamp::grade
