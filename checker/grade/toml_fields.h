// What every reader of a tilecamp TOML file shares (the exercise format, the course index, an
// instructor's hidden tests): errors that name the file, the dotted field and what was expected.
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::grade {

struct Threshold;  // exercise.h

// "a, b, c"
std::string joined(const std::vector<std::string>& names);

class TomlFields {
 public:
  explicit TomlFields(std::filesystem::path file) : m_file(std::move(file)) {}

  // "FILE: field `problem.cases`: expected a list of cases, ..."
  Error error(const std::string& field, const std::string& expected) const;

  // Unknown keys are typos more often than not: name them and the known ones.
  Status only_known(const toml::table& table, const std::string& prefix, const std::vector<std::string>& known) const;

  // A [thresholds.BACKEND] table of metric = bound (`field` names it): known metrics, finite bounds.
  Status thresholds(const toml::node& node, const std::string& field, const std::string& backend,
                    std::vector<Threshold>& out) const;

  const std::filesystem::path& file() const { return m_file; }

 private:
  std::filesystem::path m_file;
};

}  // namespace tilecamp::grade
