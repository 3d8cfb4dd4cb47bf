// A verdict saved as JSON and read back whole: what the instructor's grader keeps per student
// (a grading child process writes one, the parent reads it; a resumed run reuses it). The same
// object as `check --json` (verdict_json), plus `"hidden": true` on the checks of hidden cases.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "checker/grade/verdict.h"
#include "checker/util/expected.h"

namespace tilecamp::report {

nlohmann::ordered_json verdict_record(const grade::Verdict& verdict);

// An Error names the field that is missing or of the wrong type.
Expected<grade::Verdict> read_verdict_record(const nlohmann::json& record);

}  // namespace tilecamp::report
