#include "runner/classroom/roster_hidden.h"

#include <toml++/toml.h>

#include <algorithm>

#include "checker/grade/cases.h"
#include "checker/grade/expression.h"
#include "checker/grade/metrics.h"
#include "checker/grade/toml_fields.h"

namespace tilecamp::runner {
namespace {

using grade::joined;


// Errors about one hidden-tests file, each naming it and the dotted field.
class HiddenReader : public grade::TomlFields {
 public:
  using TomlFields::TomlFields;

  Status cases(const toml::node& node, const std::string& field, const grade::Exercise& exercise,
               std::vector<std::vector<int64_t>>& out) const {
    const std::vector<std::string>& dims = exercise.problem.dims;
    const std::string expected = "a list of cases, each a list of " + std::to_string(dims.size()) +
                                 " positive integers (" + joined(dims) + ")";
    const toml::array* array = node.as_array();
    if (array == nullptr) return error(field, expected);
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::array* values = (*array)[i].as_array();
      std::vector<int64_t> dims_of_case;
      for (size_t d = 0; values != nullptr && d < values->size(); ++d) {
        auto value = (*values)[d].value<int64_t>();
        if (!value || *value < 1) break;
        dims_of_case.push_back(*value);
      }
      if (values == nullptr || dims_of_case.size() != values->size() || dims_of_case.size() != dims.size()) {
        return error(field + "[" + std::to_string(i) + "]", expected.substr(expected.find("each ") + 5));
      }
      TC_TRY(fits(exercise, dims_of_case, field + "[" + std::to_string(i) + "]"));
      out.push_back(std::move(dims_of_case));
    }
    return ok();
  }

  // The case within what grading allows (grade::check_case_fits): a case too large fails here,
  // before grading, not as every submission's error.
  Status fits(const grade::Exercise& exercise, const std::vector<int64_t>& dims, const std::string& field) const {
    if (Status checked = grade::check_case_fits(exercise, dims, true); !checked) {
      return make_error(file().string() + ": field `" + field + "`: " + checked.error());
    }
    return ok();
  }

  Status exercise(const toml::table& table, const std::string& prefix, const grade::Exercise& exercise,
                  HiddenExercise& out) const {
    TC_TRY(only_known(table, prefix, {"cases", "thresholds"}));
    if (const toml::node* node = table.get("cases")) TC_TRY(cases(*node, prefix + "cases", exercise, out.cases));
    const toml::node* node = table.get("thresholds");
    if (node == nullptr) return ok();
    const toml::table* by_backend = node->as_table();
    if (by_backend == nullptr) return error(prefix + "thresholds", "a table with `emulator` and/or `gpu`");
    TC_TRY(only_known(*by_backend, prefix + "thresholds.", {"emulator", "gpu"}));
    if (const toml::node* emulator = by_backend->get("emulator")) {
      TC_TRY(thresholds(*emulator, prefix + "thresholds.emulator", "emulator", out.emulator_thresholds));
    }
    if (const toml::node* gpu = by_backend->get("gpu")) {
      TC_TRY(thresholds(*gpu, prefix + "thresholds.gpu", "gpu", out.gpu_thresholds));
    }
    const bool any = !out.emulator_thresholds.empty() || !out.gpu_thresholds.empty();
    if (any && exercise.problem.performance.empty()) {
      return error(prefix + "thresholds", "none: " + exercise.name + " has no performance case to measure them on");
    }
    const bool speedup = !out.gpu_thresholds.empty() ||
                         std::any_of(out.emulator_thresholds.begin(), out.emulator_thresholds.end(),
                                     [](const grade::Threshold& t) { return t.at_least; });
    if (speedup && exercise.baseline.file.empty()) {
      return error(prefix + "thresholds", "no speedup: " + exercise.name + " has no baseline kernel to measure it against");
    }
    return ok();
  }

};

void override_thresholds(std::vector<grade::Threshold>& thresholds, const std::vector<grade::Threshold>& overrides) {
  for (const grade::Threshold& override : overrides) {
    auto same = std::find_if(thresholds.begin(), thresholds.end(),
                             [&](const grade::Threshold& t) { return t.metric == override.metric; });
    if (same == thresholds.end()) {
      thresholds.push_back(override);
    } else {
      *same = override;
    }
  }
}

}  // namespace

Expected<HiddenTests> load_hidden_tests(const std::filesystem::path& file, const grade::Course& course) {
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(file, ignored)) return make_error("--hidden: cannot read " + file.string());
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return make_error(file.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(error.description()));
  }
  const HiddenReader reader(file);
  TC_TRY(reader.only_known(root, "", {"exercise"}));
  HiddenTests hidden;
  const toml::node* node = root.get("exercise");
  if (node == nullptr) return hidden;
  const toml::table* exercises = node->as_table();
  if (exercises == nullptr) return reader.error("exercise", "[exercise.ID] tables");
  for (const auto& [key, value] : *exercises) {
    const std::string id(key.str());
    const std::string prefix = "exercise." + id + ".";
    auto entry = std::find_if(course.exercises.begin(), course.exercises.end(),
                              [&](const grade::CourseEntry& e) { return e.id == id; });
    if (entry == course.exercises.end()) {
      std::vector<std::string> known;
      for (const grade::CourseEntry& e : course.exercises) known.push_back(e.id);
      return reader.error("exercise." + id, "an exercise of the course; they are: " + joined(known));
    }
    const toml::table* table = value.as_table();
    if (table == nullptr) return reader.error("exercise." + id, "a table with `cases` and/or `thresholds`");
    TC_TRY_ASSIGN(grade::Exercise exercise, grade::load_course_exercise(*entry));
    TC_TRY(reader.exercise(*table, prefix, exercise, hidden[id]));
  }
  return hidden;
}

void apply_hidden_tests(grade::Exercise& exercise, const HiddenTests& hidden) {
  auto found = hidden.find(exercise.name);
  if (found == hidden.end()) return;
  const HiddenExercise& extra = found->second;
  exercise.problem.hidden_cases.insert(exercise.problem.hidden_cases.end(), extra.cases.begin(), extra.cases.end());
  override_thresholds(exercise.emulator_thresholds, extra.emulator_thresholds);
  override_thresholds(exercise.gpu_thresholds, extra.gpu_thresholds);
}

}  // namespace tilecamp::runner
