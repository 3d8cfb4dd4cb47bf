// Renders an exercise's Verdict: the text `tilecamp check` prints, and its `--json` object.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "checker/grade/verdict.h"
#include "checker/report/style.h"

namespace tilecamp::report {

std::string verdict_text(const grade::Verdict& verdict, const Style& style);
nlohmann::ordered_json verdict_json(const grade::Verdict& verdict);

}  // namespace tilecamp::report
