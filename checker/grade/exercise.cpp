#include "checker/grade/exercise.h"

#include <toml++/toml.h>

#include <algorithm>

#include "checker/grade/metrics.h"

namespace tilecamp::grade {
namespace {

std::string field_error(const std::filesystem::path& file, const std::string& field, const std::string& expected) {
  return file.string() + ": field `" + field + "`: expected " + expected;
}

Status read_string(const toml::table& table, const std::filesystem::path& file, const std::string& field,
                   std::string& out) {
  auto value = table[field].value<std::string>();
  if (!value || value->empty()) return make_error(field_error(file, field, "a non-empty string"));
  out = *value;
  return ok();
}

Status read_string_list(const toml::table& table, const std::filesystem::path& file, const std::string& field,
                        bool required, std::vector<std::string>& out) {
  const toml::node* node = table.get(field);
  if (node == nullptr) {
    if (required) return make_error(field_error(file, field, "a list of strings"));
    return ok();
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) return make_error(field_error(file, field, "a list of strings"));
  for (const toml::node& element : *array) {
    auto text = element.value<std::string>();
    if (!text) return make_error(field_error(file, field, "a list of strings"));
    out.push_back(*text);
  }
  return ok();
}

Status read_thresholds(const toml::table& table, const std::filesystem::path& file, Exercise& exercise) {
  const toml::table* thresholds = table["thresholds"]["emulator"].as_table();
  if (thresholds == nullptr) return ok();
  for (const auto& [key, value] : *thresholds) {
    const std::string field = "thresholds.emulator." + std::string(key.str());
    if (!is_known_metric(std::string(key.str()))) {
      std::string known;
      for (const std::string& name : known_metrics()) known += (known.empty() ? "" : ", ") + name;
      return make_error(file.string() + ": field `" + field + "`: unknown metric; known metrics: " + known);
    }
    auto max = value.value<double>();
    if (!max) return make_error(field_error(file, field, "a number"));
    exercise.emulator_thresholds.push_back({std::string(key.str()), *max});
  }
  return ok();
}

}  // namespace

Expected<Exercise> load_exercise(const std::filesystem::path& directory) {
  const std::filesystem::path file = directory / "exercise.toml";
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return make_error(file.string() + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                      ": " + std::string(error.description()));
  }
  Exercise exercise;
  exercise.directory = directory;
  exercise.name = directory.filename().string();
  TC_TRY(read_string(table, file, "title", exercise.title));
  TC_TRY(read_string(table, file, "kernel", exercise.kernel));
  TC_TRY(read_string(table, file, "problem", exercise.problem));
  auto lesson = table["lesson"].value<int64_t>();
  if (!lesson || *lesson < 1) return make_error(field_error(file, "lesson", "a lesson number (1, 2, ...)"));
  exercise.lesson = static_cast<int>(*lesson);
  TC_TRY(read_string_list(table, file, "launch_constants", false, exercise.launch_constants));
  TC_TRY(read_string_list(table, file, "optional_launch_constants", false, exercise.optional_launch_constants));
  TC_TRY(read_string_list(table, file, "hints", true, exercise.hints));
  TC_TRY(read_string_list(table, file, "stub_fails", false, exercise.stub_fails));
  TC_TRY(read_thresholds(table, file, exercise));
  return exercise;
}

std::vector<std::filesystem::path> exercise_folders(const std::filesystem::path& course_root) {
  std::vector<std::filesystem::path> folders;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(course_root / "exercises", error)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

Expected<Exercise> find_exercise(const std::filesystem::path& course_root, const std::string& name) {
  const std::filesystem::path directory = course_root / "exercises" / name;
  std::error_code error;
  if (name.empty() || name.find('/') != std::string::npos || !std::filesystem::is_directory(directory, error)) {
    std::string known;
    for (const auto& folder : exercise_folders(course_root)) known += "\n  " + folder.filename().string();
    return make_error("no exercise named `" + name + "`; the exercises are:" + known);
  }
  return load_exercise(directory);
}

}  // namespace tilecamp::grade
