#include "checker/grade/toml_fields.h"

#include <algorithm>

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

}  // namespace tilecamp::grade
