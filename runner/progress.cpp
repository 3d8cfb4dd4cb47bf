#include "runner/progress.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tilecamp::runner {
namespace {

constexpr int k_version = 1;

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
  std::string problem;
  try {
    const nlohmann::json json = nlohmann::json::parse(text.str());
    if (!json.is_object() || json.value("version", 0) != k_version) {
      problem = "it is not a version " + std::to_string(k_version) + " progress file";
    } else {
      if (json.contains("current") && json["current"].is_string()) progress.m_current = json["current"].get<std::string>();
      const nlohmann::json& exercises = json.value("exercises", nlohmann::json::object());
      for (auto it = exercises.begin(); exercises.is_object() && it != exercises.end(); ++it) {
        if (!it->is_object()) continue;  // an entry someone broke by hand: forget just that one
        ExerciseProgress entry;
        entry.passed = it->value("passed", false);
        entry.hash = it->value("hash", std::string());
        progress.m_exercises[it.key()] = entry;
      }
    }
  } catch (const nlohmann::json::exception& error) {
    problem = error.what();
  }
  if (!problem.empty()) {
    std::filesystem::path aside = progress.m_file;
    aside += ".corrupt";
    std::error_code ignored;
    std::filesystem::rename(progress.m_file, aside, ignored);
    progress.m_exercises.clear();
    progress.m_current.reset();
    progress.m_repair_note = fmt::format("{} could not be read ({}); it was moved to {} and progress starts afresh "
                                         "(run `tilecamp check-all` to record what already passes)",
                                         progress.m_file.string(), problem, aside.string());
  }
  return progress;
}

bool Progress::record(const std::string& exercise, const std::string& contents, bool passed, std::string& error) {
  m_exercises[exercise] = {passed, hash_of(contents)};
  return save(error);
}

bool Progress::set_current(const std::string& exercise, std::string& error) {
  m_current = exercise;
  return save(error);
}

bool Progress::done(const std::string& exercise, const std::string& current_contents) const {
  auto found = m_exercises.find(exercise);
  return found != m_exercises.end() && found->second.passed && found->second.hash == hash_of(current_contents);
}

bool Progress::save(std::string& error) const {
  nlohmann::ordered_json json = {{"version", k_version}};
  if (m_current) json["current"] = *m_current;
  json["exercises"] = nlohmann::ordered_json::object();
  for (const auto& [name, entry] : m_exercises) json["exercises"][name] = {{"passed", entry.passed}, {"hash", entry.hash}};
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
