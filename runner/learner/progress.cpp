#include "runner/learner/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tilecamp::runner {
namespace {

constexpr int k_version = 1;

// One exercise's entry; fields of the wrong type are left at their defaults and named in `dropped`.
ExerciseProgress entry_from(const nlohmann::json& json, const std::string& name, std::vector<std::string>& dropped) {
  ExerciseProgress entry;
  auto field = [&](const char* key, auto& value, auto is_type) {
    if (!json.contains(key)) return;
    if ((json[key].*is_type)()) {
      json[key].get_to(value);
    } else {
      dropped.push_back(name + "." + key);
    }
  };
  field("passed", entry.passed, &nlohmann::json::is_boolean);
  field("hash", entry.hash, &nlohmann::json::is_string);
  field("hints_shown", entry.hints_shown, &nlohmann::json::is_number_integer);
  entry.hints_shown = std::max(entry.hints_shown, 0);
  return entry;
}

}  // namespace

std::string Progress::hash_of(const std::string& contents) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a: enough to notice an edit
  for (unsigned char c : contents) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", hash);
}

Progress Progress::load(const std::filesystem::path& course_root) {
  Progress progress;
  progress.m_file = course_root / ".tilecamp" / "progress.json";
  std::ifstream in(progress.m_file);
  if (!in) return progress;
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> dropped;
  try {
    const nlohmann::json json = nlohmann::json::parse(text.str());
    if (!json.is_object() || !json.contains("version") || json["version"] != k_version) {
      progress.set_aside("it is not a version " + std::to_string(k_version) + " progress file");
      return progress;
    }
    if (json.contains("current") && json["current"].is_string()) progress.m_current = json["current"].get<std::string>();
    if (json.contains("welcome_seen") && json["welcome_seen"].is_boolean()) progress.m_welcome_seen = json["welcome_seen"].get<bool>();
    const nlohmann::json exercises = json.contains("exercises") ? json["exercises"] : nlohmann::json::object();
    for (auto it = exercises.begin(); exercises.is_object() && it != exercises.end(); ++it) {
      if (!it->is_object()) {  // an entry someone broke by hand: forget just that one
        dropped.push_back(it.key());
        continue;
      }
      progress.m_exercises[it.key()] = entry_from(*it, it.key(), dropped);
    }
  } catch (const nlohmann::json::exception& error) {
    progress.set_aside(error.what());
    return progress;
  }
  if (!dropped.empty()) {
    std::string names;
    for (const std::string& name : dropped) names += (names.empty() ? "" : ", ") + name;
    progress.m_repair_note = fmt::format("{}: ignored what could not be read ({}); it is rewritten at the next change",
                                         progress.m_file.string(), names);
  }
  return progress;
}

void Progress::set_aside(const std::string& problem) {
  std::filesystem::path aside = m_file;
  aside += ".corrupt";
  std::error_code ignored;
  std::filesystem::rename(m_file, aside, ignored);
  m_exercises.clear();
  m_current.reset();
  m_welcome_seen = false;
  m_repair_note = fmt::format("{} could not be read ({}); it was moved to {} and progress starts afresh "
                              "(run `tilecamp check-all` to record what already passes)",
                              m_file.string(), problem, aside.string());
}

bool Progress::record(const std::string& exercise, const std::string& contents, bool passed, std::string& error) {
  ExerciseProgress& entry = m_exercises[exercise];
  entry.passed = passed;
  entry.hash = hash_of(contents);
  return save(error);
}

bool Progress::set_current(const std::string& exercise, std::string& error) {
  m_current = exercise;
  return save(error);
}

int Progress::hints_shown(const std::string& exercise) const {
  auto found = m_exercises.find(exercise);
  return found == m_exercises.end() ? 0 : found->second.hints_shown;
}

bool Progress::reveal_hint(const std::string& exercise, int available, std::string& error) {
  ExerciseProgress& entry = m_exercises[exercise];
  entry.hints_shown = std::min(entry.hints_shown + 1, available);
  return save(error);
}

bool Progress::set_welcome_seen(std::string& error) {
  m_welcome_seen = true;
  return save(error);
}

bool Progress::done(const std::string& exercise, const std::string& current_contents) const {
  auto found = m_exercises.find(exercise);
  return found != m_exercises.end() && found->second.passed && found->second.hash == hash_of(current_contents);
}

bool Progress::save(std::string& error) const {
  nlohmann::ordered_json json = {{"version", k_version}};
  if (m_current) json["current"] = *m_current;
  if (m_welcome_seen) json["welcome_seen"] = true;
  json["exercises"] = nlohmann::ordered_json::object();
  for (const auto& [name, entry] : m_exercises) {
    json["exercises"][name] = {{"passed", entry.passed}, {"hash", entry.hash}};
    if (entry.hints_shown > 0) json["exercises"][name]["hints_shown"] = entry.hints_shown;
  }
  std::error_code ec;
  std::filesystem::create_directories(m_file.parent_path(), ec);
  std::filesystem::path temporary = m_file;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json.dump(2) << "\n";
    if (!out.flush()) {
      error = "cannot write " + temporary.string();
      return false;
    }
  }
  std::filesystem::rename(temporary, m_file, ec);
  if (ec) {
    error = "cannot replace " + m_file.string() + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace tilecamp::runner
