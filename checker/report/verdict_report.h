// Renders an exercise's Verdict: the text `tilecamp check` prints, and its `--json` object.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "checker/grade/verdict.h"
#include "checker/report/style.h"

namespace tilecamp::report {

struct VerdictTextOptions {
  // The checked file's text: each diagnostic in it is followed by its source line, highlighted.
  std::string_view source;
  // End with PASSED / FAILED and what to do next (the watch screen says that in its own words).
  bool next_step = true;
};

std::string verdict_text(const grade::Verdict& verdict, const Style& style, const VerdictTextOptions& options = {});
nlohmann::ordered_json verdict_json(const grade::Verdict& verdict);

}  // namespace tilecamp::report
