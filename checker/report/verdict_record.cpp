#include "checker/report/verdict_record.h"

#include <nlohmann/json.hpp>

#include "checker/report/verdict_report.h"

namespace tilecamp::report {
namespace {

// The enumerator whose name (as `name_of` spells it) is `text`.
template <typename Enum, size_t N>
Expected<Enum> enum_named(const std::string& text, const char* (*name_of)(Enum), const Enum (&values)[N],
                          const std::string& field) {
  for (Enum value : values) {
    if (text == name_of(value)) return value;
  }
  return make_error("verdict record: field `" + field + "`: unknown value `" + text + "`");
}

const char* severity_text(Severity severity) { return severity_name(severity); }

constexpr grade::VerdictStatus k_verdict_statuses[] = {grade::VerdictStatus::Pass, grade::VerdictStatus::Fail,
                                                      grade::VerdictStatus::Error};
constexpr grade::CheckStatus k_check_statuses[] = {grade::CheckStatus::Pass, grade::CheckStatus::Fail,
                                                  grade::CheckStatus::Skip, grade::CheckStatus::Error};
constexpr grade::CheckKind k_check_kinds[] = {grade::CheckKind::Compile, grade::CheckKind::Correctness,
                                             grade::CheckKind::Safety, grade::CheckKind::Performance};
constexpr Severity k_severities[] = {Severity::Error, Severity::Warning};

Expected<grade::Check> read_check(const nlohmann::json& item) {
  grade::Check check;
  check.name = item.at("name").get<std::string>();
  TC_TRY_ASSIGN(check.status, enum_named(item.at("status").get<std::string>(), grade::check_status_name,
                                         k_check_statuses, "checks[].status"));
  TC_TRY_ASSIGN(check.kind, enum_named(item.at("kind").get<std::string>(), grade::check_kind_name, k_check_kinds,
                                       "checks[].kind"));
  check.message = item.at("message").get<std::string>();
  if (item.contains("metric")) {
    check.metric = item.at("metric").get<std::string>();
    check.value = item.at("value").get<double>();
    check.threshold = item.at("threshold").get<double>();
  }
  check.hidden = item.value("hidden", false);
  return check;
}

Expected<Diagnostic> read_diagnostic(const nlohmann::json& item) {
  Diagnostic diagnostic;
  TC_TRY_ASSIGN(diagnostic.severity, enum_named(item.at("severity").get<std::string>(), severity_text, k_severities,
                                                "diagnostics[].severity"));
  diagnostic.kind = item.at("kind").get<std::string>();
  diagnostic.file = item.at("file").get<std::string>();
  diagnostic.line = item.at("line").get<int>();
  diagnostic.message = item.at("message").get<std::string>();
  diagnostic.hidden = item.value("hidden", false);
  return diagnostic;
}

Expected<grade::Verdict> read_verdict(const nlohmann::json& record) {
  grade::Verdict verdict;
  verdict.exercise = record.at("exercise").get<std::string>();
  TC_TRY_ASSIGN(verdict.status, enum_named(record.at("status").get<std::string>(), grade::verdict_status_name,
                                           k_verdict_statuses, "status"));
  verdict.file = record.at("file").get<std::string>();
  verdict.backend = record.at("backend").get<std::string>();
  verdict.seed = record.at("seed").get<uint64_t>();
  verdict.notes = record.value("notes", std::vector<std::string>{});
  verdict.error = record.value("error", std::string());
  verdict.constants = record.at("constants").get<std::map<std::string, int64_t>>();
  for (const nlohmann::json& item : record.at("checks")) {
    TC_TRY_ASSIGN(grade::Check check, read_check(item));
    verdict.checks.push_back(std::move(check));
  }
  for (const nlohmann::json& item : record.at("diagnostics")) {
    TC_TRY_ASSIGN(Diagnostic diagnostic, read_diagnostic(item));
    verdict.diagnostics.push_back(std::move(diagnostic));
  }
  if (const auto printed = record.find("printed"); printed != record.end()) {
    verdict.printed = grade::Verdict::Printed{printed->at("case").get<std::string>(), printed->at("text").get<std::string>(),
                                              printed->at("truncated").get<bool>()};
  }
  if (const auto cache = record.find("ptx_cache"); cache != record.end()) {
    verdict.ptx_cache = grade::Verdict::PtxCache{cache->at("hits").get<int>(), cache->at("misses").get<int>()};
  }
  return verdict;
}

}  // namespace

nlohmann::ordered_json verdict_record(const grade::Verdict& verdict) {
  nlohmann::ordered_json record = verdict_json(verdict);
  for (size_t i = 0; i < verdict.checks.size(); ++i) {
    if (verdict.checks[i].hidden) record["checks"][i]["hidden"] = true;
  }
  for (size_t i = 0; i < verdict.diagnostics.size(); ++i) {
    if (verdict.diagnostics[i].hidden) record["diagnostics"][i]["hidden"] = true;
  }
  return record;
}

Expected<grade::Verdict> read_verdict_record(const nlohmann::json& record) {
  try {
    return read_verdict(record);
  } catch (const nlohmann::json::exception& error) {  // a field missing or of another type
    return make_error(std::string("verdict record: ") + error.what());
  }
}

}  // namespace tilecamp::report
