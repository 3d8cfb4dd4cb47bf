// Renders a ProfileReport: the text `tilecamp profile` prints, and its `--json` object.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "checker/diagnostic.h"
#include "checker/profile/profile.h"
#include "checker/report/style.h"

namespace tilecamp::report {

// `source` is the text of the profiled file, to show each line's code beside its counters.
std::string profile_text(const profile::ProfileReport& report, const std::string& source, const Style& style);
nlohmann::ordered_json profile_json(const profile::ProfileReport& report);

// Shared by every report: "error kernel.cu:12 deadlock: ..."
std::string diagnostic_text(const Diagnostic& diagnostic, const Style& style);
nlohmann::ordered_json diagnostic_json(const Diagnostic& diagnostic);
std::vector<Diagnostic> compile_diagnostics(const std::vector<CompileDiagnostic>& diagnostics);

}  // namespace tilecamp::report
