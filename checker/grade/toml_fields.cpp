#include "checker/grade/toml_fields.h"

#include <algorithm>
#include <cmath>

#include "checker/grade/exercise.h"
#include "checker/grade/metrics.h"

namespace tilecamp::grade {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

Error TomlFields::error(const std::string& field, const std::string& expected) const {
  return make_error(m_file.string() + ": field `" + field + "`: expected " + expected);
}

Status TomlFields::only_known(const toml::table& table, const std::string& prefix,
                              const std::vector<std::string>& known) const {
  for (const auto& [key, value] : table) {
    if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
    return make_error(m_file.string() + ": unknown field `" + prefix + std::string(key.str()) + "` (known here: " +
                      joined(known) + ")");
  }
  return ok();
}

Status TomlFields::thresholds(const toml::node& node, const std::string& field, const std::string& backend,
                              std::vector<Threshold>& out) const {
  const toml::table* table = node.as_table();
  if (table == nullptr) return error(field, "a table of metric = bound");
  for (const auto& [key, value] : *table) {
    const std::string metric(key.str());
    if (!is_known_metric(metric, backend)) {
      return make_error(m_file.string() + ": field `" + field + "." + metric + "`: unknown metric; known metrics: " +
                        joined(known_metrics(backend)));
    }
    auto bound = value.value<double>();
    if (!bound || !std::isfinite(*bound)) return error(field + "." + metric, "a finite number");
    out.push_back({metric, *bound, metric_is_lower_bound(metric)});
  }
  return ok();
}

}  // namespace tilecamp::grade
