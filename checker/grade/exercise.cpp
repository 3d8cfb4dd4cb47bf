#include "checker/grade/exercise.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "checker/grade/cases.h"
#include "checker/grade/expression.h"
#include "checker/grade/metrics.h"
#include "checker/grade/reference.h"
#include "checker/grade/toml_fields.h"

namespace tilecamp::grade {
namespace {

// Reads typed fields of one TOML file; every error names the file, the dotted field and what was
// expected there.
class FieldReader : public TomlFields {
 public:
  using TomlFields::TomlFields;

  Status string(const toml::table& table, const std::string& prefix, const std::string& key, bool required,
                std::string& out) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return required ? Status(error(prefix + key, "a non-empty string")) : ok();
    auto value = node->value<std::string>();
    if (!value || value->empty()) return error(prefix + key, "a non-empty string");
    out = *value;
    return ok();
  }

  Status number(const toml::table& table, const std::string& prefix, const std::string& key, double& out) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return ok();
    auto value = node->value<double>();
    if (!value || !std::isfinite(*value)) return error(prefix + key, "a finite number");
    out = *value;
    return ok();
  }

  Status boolean(const toml::table& table, const std::string& prefix, const std::string& key, bool& out) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return ok();
    if (!node->is_boolean()) return error(prefix + key, "true or false");
    out = node->value<bool>().value_or(false);
    return ok();
  }

  Status strings(const toml::table& table, const std::string& prefix, const std::string& key, bool required,
                 std::vector<std::string>& out) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return required ? Status(error(prefix + key, "a list of strings")) : ok();
    const toml::array* array = node->as_array();
    if (array == nullptr) return error(prefix + key, "a list of strings");
    for (const toml::node& element : *array) {
      auto text = element.value<std::string>();
      if (!text || text->empty()) return error(prefix + key, "a list of non-empty strings");
      out.push_back(*text);
    }
    return ok();
  }

  Status integers(const toml::node& node, const std::string& field, std::vector<int64_t>& out) const {
    const toml::array* array = node.as_array();
    if (array == nullptr) return error(field, "a list of integers");
    for (const toml::node& element : *array) {
      auto value = element.value<int64_t>();
      if (!value) return error(field, "a list of integers");
      out.push_back(*value);
    }
    return ok();
  }

  // A list of cases, each a list of one integer per dimension, every one at least 1.
  Status cases(const toml::table& table, const std::string& key, size_t dims,
               std::vector<std::vector<int64_t>>& out) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return ok();
    const std::string field = "problem." + key;
    const std::string expected = "a list of cases, each a list of " + std::to_string(dims) + " positive integers";
    const toml::array* array = node->as_array();
    if (array == nullptr) return error(field, expected);
    for (const toml::node& element : *array) {
      std::vector<int64_t> values;
      if (!integers(element, field, values) || values.size() != dims ||
          std::any_of(values.begin(), values.end(), [](int64_t v) { return v < 1; })) {
        return error(field, expected);
      }
      out.push_back(std::move(values));
    }
    return ok();
  }

  // A string that must be an expression over `names`: checked now, with every name bound to 1,
  // so a typo is reported when the exercise loads, not in the middle of a check.
  Status expression(const toml::table& table, const std::string& prefix, const std::string& key, bool required,
                    const Bindings& names, std::string& out) const {
    TC_TRY(string(table, prefix, key, required, out));
    if (out.empty()) return ok();
    auto value = evaluate(out, names);
    if (!value) return error(prefix + key, "an expression: " + value.error());
    return ok();
  }

  Status launch(const toml::table& table, const std::string& prefix, const Bindings& names, LaunchSpec& out) const {
    TC_TRY(only_known(table, prefix, {"block", "grid", "shared_bytes", "cooperative", "file", "kernel", "builtin", "radius"}));
    TC_TRY(boolean(table, prefix, "cooperative", out.cooperative));
    TC_TRY(strings(table, prefix, "block", true, out.block));
    TC_TRY(strings(table, prefix, "grid", true, out.grid));
    if (out.block.size() > 3) return error(prefix + "block", "1 to 3 expressions");
    if (out.grid.size() > 3) return error(prefix + "grid", "1 to 3 expressions");
    for (const std::string& text : out.block) {
      if (auto value = evaluate(text, names); !value) return error(prefix + "block", "expressions: " + value.error());
    }
    for (const std::string& text : out.grid) {
      if (auto value = evaluate(text, names); !value) return error(prefix + "grid", "expressions: " + value.error());
    }
    return expression(table, prefix, "shared_bytes", false, names, out.shared_bytes);
  }

};

const toml::table* table_at(const toml::table& table, const std::string& key) {
  const toml::node* node = table.get(key);
  return node == nullptr ? nullptr : node->as_table();
}

Status read_problem(const FieldReader& reader, const toml::table& root, Exercise& exercise) {
  const toml::table* problem = table_at(root, "problem");
  if (problem == nullptr) return reader.error("problem", "a [problem] table with `dims` and `public` cases");
  ProblemSpec& spec = exercise.problem;
  TC_TRY(reader.only_known(*problem, "problem.", {"dims", "public", "performance", "gpu_performance", "hidden", "hidden_ranges", "hidden_choices", "fmas"}));
  TC_TRY(reader.strings(*problem, "problem.", "dims", true, spec.dims));
  if (spec.dims.empty()) return reader.error("problem.dims", "at least one dimension name");
  TC_TRY(reader.cases(*problem, "public", spec.dims.size(), spec.public_cases));
  if (spec.public_cases.empty()) return reader.error("problem.public", "at least one public case");
  TC_TRY(reader.cases(*problem, "hidden", spec.dims.size(), spec.hidden_cases));
  for (auto [key, out] : {std::pair{"performance", &spec.performance}, std::pair{"gpu_performance", &spec.gpu_performance}}) {
    const toml::node* node = problem->get(key);
    if (node == nullptr) continue;
    const std::string field = std::string("problem.") + key;
    if (!reader.integers(*node, field, *out) || out->size() != spec.dims.size() ||
        std::any_of(out->begin(), out->end(), [](int64_t v) { return v < 1; })) {
      return reader.error(field, "one case: a list of " + std::to_string(spec.dims.size()) + " positive integers");
    }
  }
  if (!spec.gpu_performance.empty() && spec.performance.empty()) {
    return reader.error("problem.performance", "a performance case, since gpu_performance enlarges it on a GPU");
  }
  auto is_dim = [&](std::string_view name) { return std::find(spec.dims.begin(), spec.dims.end(), name) != spec.dims.end(); };
  if (const toml::node* node = problem->get("hidden_ranges")) {
    const toml::table* ranges = node->as_table();
    if (ranges == nullptr) return reader.error("problem.hidden_ranges", "a table of dimension = [low, high]");
    for (const auto& [key, value] : *ranges) {
      const std::string field = "problem.hidden_ranges." + std::string(key.str());
      if (!is_dim(key.str())) return reader.error(field, "one of the dimensions (" + joined(spec.dims) + ")");
      std::vector<int64_t> bounds;
      if (!reader.integers(value, field, bounds) || bounds.size() != 2 || bounds[0] < 1 || bounds[1] < bounds[0]) {
        return reader.error(field, "[low, high] with 1 <= low <= high");
      }
      spec.ranges[std::string(key.str())] = {bounds[0], bounds[1]};
    }
  }
  if (const toml::node* node = problem->get("hidden_choices")) {
    const toml::table* choices = node->as_table();
    if (choices == nullptr) return reader.error("problem.hidden_choices", "a table of dimension = [values...]");
    for (const auto& [key, value] : *choices) {
      const std::string field = "problem.hidden_choices." + std::string(key.str());
      if (!is_dim(key.str())) return reader.error(field, "one of the dimensions (" + joined(spec.dims) + ")");
      std::vector<int64_t> values;
      if (!reader.integers(value, field, values) || values.empty() ||
          std::any_of(values.begin(), values.end(), [](int64_t v) { return v < 1; })) {
        return reader.error(field, "a non-empty list of positive integers");
      }
      spec.choices[std::string(key.str())] = std::move(values);
    }
  }
  for (const std::string& dim : spec.dims) {
    if (!spec.ranges.count(dim) && !spec.choices.count(dim)) {
      return reader.error("problem.hidden_ranges." + dim, "a range [low, high] (or a list in hidden_choices) for every dimension");
    }
  }
  Bindings dims;
  for (const std::string& dim : spec.dims) dims[dim] = 1;
  return reader.expression(*problem, "problem.", "fmas", false, dims, spec.fmas);
}

Expected<ElementType> element_type(std::string type, bool& pointer) {
  if (type.starts_with("const ")) type = type.substr(6);
  pointer = !type.empty() && type.back() == '*';
  if (pointer) type.pop_back();
  while (!type.empty() && type.back() == ' ') type.pop_back();
  if (type == "float") return ElementType::F32;
  if (type == "int") return ElementType::I32;
  if (type == "unsigned" || type == "unsigned int") return ElementType::U32;
  return make_error("unknown type");
}

Status read_params(const FieldReader& reader, const toml::table& root, const Bindings& names, Exercise& exercise) {
  const toml::array* params = root.get("param") == nullptr ? nullptr : root.get("param")->as_array();
  if (params == nullptr || params->empty()) return reader.error("param", "one [[param]] table per kernel parameter");
  for (size_t i = 0; i < params->size(); ++i) {
    const toml::table* table = (*params)[i].as_table();
    const std::string prefix = "param[" + std::to_string(i) + "].";
    if (table == nullptr) return reader.error("param", "[[param]] tables");
    TC_TRY(reader.only_known(*table, prefix, {"name", "type", "role", "size", "shape", "value", "values", "hot_share"}));
    Param param;
    TC_TRY(reader.string(*table, prefix, "name", true, param.name));
    TC_TRY(reader.string(*table, prefix, "type", true, param.type));
    auto element = element_type(param.type, param.pointer);
    if (!element) return reader.error(prefix + "type", "float, int or unsigned, as a pointer (`const float*`) or a scalar");
    param.element = *element;
    std::string role;
    TC_TRY(reader.string(*table, prefix, "role", true, role));
    static const std::map<std::string, ParamRole> k_roles = {
        {"in", ParamRole::In}, {"out", ParamRole::Out}, {"inout", ParamRole::InOut}, {"scalar", ParamRole::Scalar}};
    auto found = k_roles.find(role);
    if (found == k_roles.end()) return reader.error(prefix + "role", "in, out, inout or scalar");
    param.role = found->second;
    if (param.pointer == (param.role == ParamRole::Scalar)) {
      return reader.error(prefix + "role", param.pointer ? "in, out or inout for a pointer" : "scalar for a non-pointer type");
    }
    if (param.pointer) {
      TC_TRY(reader.strings(*table, prefix, "shape", false, param.shape));
      if (!param.shape.empty()) {
        if (param.shape.size() != 2) return reader.error(prefix + "shape", "[rows, columns]");
        for (const std::string& text : param.shape) {
          if (auto value = evaluate(text, names); !value) return reader.error(prefix + "shape", "expressions: " + value.error());
        }
        param.size = "(" + param.shape[0] + ") * (" + param.shape[1] + ")";
      } else {
        TC_TRY(reader.expression(*table, prefix, "size", true, names, param.size));
      }
      if (const toml::node* node = table->get("values")) {
        const toml::array* range = node->as_array();
        auto low = range && range->size() == 2 ? (*range)[0].value<double>() : std::nullopt;
        auto high = range && range->size() == 2 ? (*range)[1].value<double>() : std::nullopt;
        if (!low || !high || *low >= *high) return reader.error(prefix + "values", "[low, high] with low < high");
        param.low = *low;
        param.high = *high;
      }
      if (const toml::node* node = table->get("hot_share")) {
        const std::optional<double> share = node->value<double>();
        if (!share || *share < 0 || *share > 1) return reader.error(prefix + "hot_share", "a probability in [0, 1]");
        if (!param.is_input()) return reader.error(prefix + "hot_share", "an input (role in or inout)");
        param.hot_share = *share;
      }
    } else {
      TC_TRY(reader.expression(*table, prefix, "value", true, names, param.value));
    }
    exercise.params.push_back(std::move(param));
  }
  return ok();
}

Status read_kernel_file(const FieldReader& reader, const toml::table& table, const std::string& prefix,
                        const Bindings& dims, const std::filesystem::path& directory, KernelFile& out) {
  TC_TRY(reader.string(table, prefix, "file", true, out.file));
  TC_TRY(reader.string(table, prefix, "kernel", true, out.kernel));
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(directory / out.file, ignored)) {
    return reader.error(prefix + "file", "a kernel file in the exercise folder; there is no " + (directory / out.file).string());
  }
  return reader.launch(table, prefix, dims, out.launch);
}

Status read_reference(const FieldReader& reader, const toml::table& root, const Bindings& dims, Exercise& exercise) {
  const toml::table* table = table_at(root, "reference");
  const std::string expected = "a [reference] table with `builtin` (" + joined(builtin_references()) +
                               ") or `file`, `kernel`, `block` and `grid`";
  if (table == nullptr) return reader.error("reference", expected);
  ReferenceSpec& spec = exercise.reference;
  if (table->get("builtin") != nullptr) {
    TC_TRY(reader.only_known(*table, "reference.", {"builtin", "radius", "segment"}));
    TC_TRY(reader.string(*table, "reference.", "builtin", true, spec.builtin));
    if (const toml::node* radius = table->get("radius")) {
      auto value = radius->value<int64_t>();
      if (!value || *value < 0) return reader.error("reference.radius", "a non-negative integer");
      spec.options["radius"] = static_cast<double>(*value);
    }
    if (const toml::node* segment = table->get("segment")) {
      auto value = segment->value<int64_t>();
      if (!value || *value < 1) return reader.error("reference.segment", "a positive integer");
      spec.options["segment"] = static_cast<double>(*value);
    }
    auto missing = check_builtin_reference(spec.builtin, exercise);
    if (!missing) return reader.error("reference.builtin", missing.error());
    return ok();
  }
  if (table->get("file") == nullptr) return reader.error("reference", expected);
  return read_kernel_file(reader, *table, "reference.", dims, exercise.directory, spec.kernel);
}

Status read_compare(const FieldReader& reader, const toml::table& root, Exercise& exercise) {
  const toml::table* table = table_at(root, "compare");
  if (table == nullptr) return ok();  // exact
  TC_TRY(reader.only_known(*table, "compare.", {"mode", "tol", "eps"}));
  std::string mode = "exact";
  TC_TRY(reader.string(*table, "compare.", "mode", false, mode));
  if (mode != "exact" && mode != "relative") return reader.error("compare.mode", "\"exact\" or \"relative\"");
  exercise.compare.relative = mode == "relative";
  TC_TRY(reader.number(*table, "compare.", "tol", exercise.compare.tol));
  TC_TRY(reader.number(*table, "compare.", "eps", exercise.compare.eps));
  if (exercise.compare.tol < 0 || exercise.compare.eps < 0) return reader.error("compare.tol", "non-negative tol and eps");
  if (exercise.compare.relative && exercise.compare.tol == 0 && exercise.compare.eps == 0) {
    return reader.error("compare.eps", "a positive tol or eps for a relative comparison");
  }
  return ok();
}

Status read_thresholds(const FieldReader& reader, const toml::table& root, const std::string& backend,
                       std::vector<Threshold>& out) {
  const toml::node* node = root.at_path("thresholds." + backend).node();
  return node == nullptr ? ok() : reader.thresholds(*node, "thresholds." + backend, backend, out);
}

// Every case the exercise can draw fits what grading allows (cases.h): the public, fixed hidden and
// performance cases, and the largest draw of the hidden ranges and choices.
Status check_cases_fit(const FieldReader& reader, const ProblemSpec& problem, const Exercise& exercise) {
  auto fits = [&](const std::vector<int64_t>& dims, const std::string& field, bool on_emulator) -> Status {
    if (Status checked = check_case_fits(exercise, dims, on_emulator); !checked) {
      return make_error(reader.file().string() + ": field `" + field + "`: " + checked.error());
    }
    return ok();
  };
  for (size_t i = 0; i < problem.public_cases.size(); ++i) {
    TC_TRY(fits(problem.public_cases[i], "problem.public[" + std::to_string(i) + "]", true));
  }
  for (size_t i = 0; i < problem.hidden_cases.size(); ++i) {
    TC_TRY(fits(problem.hidden_cases[i], "problem.hidden[" + std::to_string(i) + "]", true));
  }
  if (!problem.performance.empty()) TC_TRY(fits(problem.performance, "problem.performance", true));
  if (!problem.gpu_performance.empty()) TC_TRY(fits(problem.gpu_performance, "problem.gpu_performance", false));
  std::vector<int64_t> largest;
  for (const std::string& dim : problem.dims) {
    const auto range = problem.ranges.find(dim);
    const auto choices = problem.choices.find(dim);
    largest.push_back(range != problem.ranges.end() ? range->second.second
                                                    : *std::max_element(choices->second.begin(), choices->second.end()));
  }
  return fits(largest, "problem.hidden_ranges", true);
}

Status read_exercise(const FieldReader& reader, const toml::table& root, Exercise& exercise) {
  TC_TRY(reader.only_known(root, "", {"title", "kernel", "errors", "stub_fails", "hints", "requires", "constants", "problem",
                                      "param", "launch", "reference", "compare", "baseline", "thresholds"}));
  TC_TRY(reader.string(root, "", "title", true, exercise.title));
  TC_TRY(reader.string(root, "", "kernel", true, exercise.kernel));
  TC_TRY(reader.strings(root, "", "hints", true, exercise.hints));
  TC_TRY(reader.strings(root, "", "stub_fails", false, exercise.stub_fails));
  TC_TRY(reader.strings(root, "", "errors", false, exercise.errors));
  TC_TRY(reader.strings(root, "", "requires", false, exercise.requirements));
  for (const std::string& requirement : exercise.requirements) {
    if (requirement != "shared_memory" && requirement != "barrier" && requirement != "tensor_cores") {
      return reader.error("requires", "shared_memory, barrier or tensor_cores");
    }
  }
  TC_TRY(read_problem(reader, root, exercise));
  Bindings dims, names;
  for (const std::string& dim : exercise.problem.dims) dims[dim] = 1;
  names = dims;
  if (const toml::table* constants = table_at(root, "constants")) {
    TC_TRY(reader.only_known(*constants, "constants.", {"required", "optional"}));
    TC_TRY(reader.strings(*constants, "constants.", "required", false, exercise.required_constants));
    for (const std::string& name : exercise.required_constants) names[name] = 1;
    if (const toml::node* node = constants->get("optional")) {
      const toml::table* optional = node->as_table();
      if (optional == nullptr) return reader.error("constants.optional", "a table of NAME = \"default expression\"");
      for (const auto& [key, value] : *optional) {
        std::string text;
        TC_TRY(reader.expression(*optional, "constants.optional.", std::string(key.str()), true, names, text));
        exercise.optional_constants[std::string(key.str())] = text;
      }
      for (const auto& [name, text] : exercise.optional_constants) names[name] = 1;
    }
  } else if (root.get("constants") != nullptr) {
    return reader.error("constants", "a [constants] table");
  }
  TC_TRY(read_params(reader, root, names, exercise));
  const toml::table* launch = table_at(root, "launch");
  if (launch == nullptr) return reader.error("launch", "a [launch] table with `block` and `grid`");
  TC_TRY(reader.launch(*launch, "launch.", names, exercise.launch));
  TC_TRY(read_reference(reader, root, dims, exercise));
  TC_TRY(read_compare(reader, root, exercise));
  if (const toml::table* baseline = table_at(root, "baseline")) {
    TC_TRY(read_kernel_file(reader, *baseline, "baseline.", dims, exercise.directory, exercise.baseline));
  }
  TC_TRY(read_thresholds(reader, root, "emulator", exercise.emulator_thresholds));
  TC_TRY(read_thresholds(reader, root, "gpu", exercise.gpu_thresholds));
  const bool wants_speedup = std::any_of(exercise.emulator_thresholds.begin(), exercise.emulator_thresholds.end(),
                                         [](const Threshold& t) { return t.metric == "modelled_speedup"; }) ||
                             !exercise.gpu_thresholds.empty();
  if (wants_speedup && exercise.baseline.file.empty()) {
    return reader.error("baseline", "a [baseline] kernel: a speedup threshold measures against it");
  }
  if (exercise.problem.performance.empty() && (!exercise.emulator_thresholds.empty() || !exercise.requirements.empty())) {
    return reader.error("problem.performance", "a performance case: the thresholds and `requires` are checked on it");
  }
  return check_cases_fit(reader, exercise.problem, exercise);
}

}  // namespace

Expected<Exercise> load_exercise(const std::filesystem::path& directory) {
  const std::filesystem::path file = directory / "exercise.toml";
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return make_error(file.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(error.description()));
  }
  Exercise exercise;
  exercise.directory = directory;
  exercise.name = directory.filename().string();
  TC_TRY(read_exercise(FieldReader(file), table, exercise));
  return exercise;
}

Expected<Course> load_course(const std::filesystem::path& course_root) {
  const std::filesystem::path file = course_root / "exercises" / "course.toml";
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    if (where.line == 0) return make_error("cannot read the course index " + file.string());
    return make_error(file.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(error.description()));
  }
  const FieldReader reader(file);
  const toml::array* entries = table.get("exercise") == nullptr ? nullptr : table.get("exercise")->as_array();
  if (entries == nullptr) return reader.error("exercise", "one [[exercise]] table per exercise, with `id` and `lesson`");
  Course course;
  course.root = course_root;
  std::set<std::string> seen;
  for (size_t i = 0; i < entries->size(); ++i) {
    const toml::table* entry = (*entries)[i].as_table();
    const std::string prefix = "exercise[" + std::to_string(i) + "].";
    if (entry == nullptr) return reader.error("exercise", "[[exercise]] tables");
    TC_TRY(reader.only_known(*entry, prefix, {"id", "lesson"}));
    CourseEntry item;
    TC_TRY(reader.string(*entry, prefix, "id", true, item.id));
    auto lesson = entry->get("lesson") == nullptr ? std::nullopt : entry->get("lesson")->value<int64_t>();
    if (!lesson || *lesson < 1) return reader.error(prefix + "lesson", "a lesson number (1, 2, ...)");
    item.lesson = static_cast<int>(*lesson);
    if (!seen.insert(item.id).second) return reader.error(prefix + "id", "a unique id; `" + item.id + "` is listed twice");
    item.directory = course_root / "exercises" / item.id;
    std::error_code ignored;
    if (!std::filesystem::is_directory(item.directory, ignored)) {
      return reader.error(prefix + "id", "an exercise folder; there is no " + item.directory.string());
    }
    course.exercises.push_back(std::move(item));
  }
  return course;
}

Expected<Exercise> load_course_exercise(const CourseEntry& entry) {
  TC_TRY_ASSIGN(Exercise exercise, load_exercise(entry.directory));
  exercise.lesson = entry.lesson;
  return exercise;
}

namespace {

// Edits (insertions, deletions, substitutions) between two names.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substituted = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substituted});
    }
  }
  return row[b.size()];
}

}  // namespace

const CourseEntry* closest_exercise(const Course& course, const std::string& name) {
  const CourseEntry* best = nullptr;
  size_t best_distance = std::max<size_t>(3, name.size() / 4) + 1;
  for (const CourseEntry& entry : course.exercises) {
    // "transpose-tild" is one edit from 02-transpose-tiled once its lesson number is set aside.
    const size_t dash = entry.id.find('-');
    const std::string bare = dash == std::string::npos ? entry.id : entry.id.substr(dash + 1);
    const size_t distance = name.size() >= 4 && entry.id.find(name) != std::string::npos
                                ? 1
                                : std::min(edit_distance(name, entry.id), edit_distance(name, bare));
    if (distance < best_distance) {
      best = &entry;
      best_distance = distance;
    }
  }
  return best;
}

Expected<Exercise> find_exercise(const std::filesystem::path& course_root, const std::string& name) {
  TC_TRY_ASSIGN(Course course, load_course(course_root));
  for (const CourseEntry& entry : course.exercises) {
    if (entry.id == name) return load_course_exercise(entry);
  }
  if (const CourseEntry* guess = closest_exercise(course, name)) {
    return make_error("no exercise named `" + name + "`; did you mean " + guess->id + "? (tilecamp list shows them all)");
  }
  std::string known;
  for (const CourseEntry& entry : course.exercises) known += "\n  " + entry.id;
  return make_error("no exercise named `" + name + "`; the exercises are:" + known);
}

}  // namespace tilecamp::grade
