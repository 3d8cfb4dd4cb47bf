#include "runner/roster.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/report/verdict_record.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view k_temporary_mark = ".tmp";  // NAME.tmpPID, renamed over NAME when whole

constexpr const char* k_state_version = "tilecamp grade state 1";

std::optional<std::string> read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::optional<nlohmann::json> read_json(const fs::path& path) {
  auto text = read_whole(path);
  if (!text) return std::nullopt;
  auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  return json;
}

nlohmann::ordered_json exercise_state(const report::ExerciseResult& exercise) {
  return {{"exercise", exercise.exercise},
          {"title", exercise.title},
          {"verdict", exercise.verdict ? report::verdict_record(*exercise.verdict) : nullptr}};
}

std::optional<report::StudentResult> read_student_state(const nlohmann::json& json) {
  report::StudentResult result;
  result.student = json.at("student").get<std::string>();
  for (const nlohmann::json& item : json.at("exercises")) {
    report::ExerciseResult exercise{item.at("exercise").get<std::string>(), item.at("title").get<std::string>(), {}};
    if (!item.at("verdict").is_null()) {
      auto verdict = report::read_verdict_record(item.at("verdict"));
      if (!verdict) return std::nullopt;
      exercise.verdict = std::move(*verdict);
    }
    result.exercises.push_back(std::move(exercise));
  }
  return result;
}

}  // namespace

Expected<std::vector<Student>> list_students(const fs::path& roster, const fs::path& skip) {
  std::error_code error;
  if (!fs::is_directory(roster, error)) return make_error("the roster " + roster.string() + " is not a folder");
  std::vector<Student> students;
  for (const fs::directory_entry& entry : fs::directory_iterator(roster, error)) {
    const std::string name = entry.path().filename().string();
    std::error_code ignored;
    if (name.starts_with(".") || !entry.is_directory(ignored) || fs::equivalent(entry.path(), skip, ignored)) continue;
    students.push_back({name, fs::absolute(entry.path())});
  }
  if (error) return make_error("cannot list the roster " + roster.string() + ": " + error.message());
  std::sort(students.begin(), students.end(), [](const Student& a, const Student& b) { return a.id < b.id; });
  return students;
}

fs::path submission_path(const Student& student, const std::string& exercise) {
  return student.folder / submission_shown_path(exercise);
}

std::string submission_shown_path(const std::string& exercise) { return "exercises/" + exercise + "/kernel.cu"; }

void Fingerprint::mix(std::string_view bytes) {
  for (unsigned char byte : bytes) {
    m_hash ^= byte;
    m_hash *= 1099511628211ull;
  }
}

Fingerprint& Fingerprint::add(std::string_view bytes) {
  mix(std::to_string(bytes.size()) + ":");
  mix(bytes);
  return *this;
}

Fingerprint& Fingerprint::add_file(const fs::path& path) {
  std::error_code ignored;
  auto text = fs::is_regular_file(path, ignored) ? read_whole(path) : std::nullopt;
  return text ? add("file").add(*text) : add("absent");
}

std::string Fingerprint::hex() const { return fmt::format("{:016x}", m_hash); }

void add_course_metadata(Fingerprint& fingerprint, const grade::Course& course, const std::vector<std::string>& exercises) {
  fingerprint.add_file(course.root / "exercises" / "course.toml");
  for (const std::string& id : exercises) {
    const fs::path folder = course.root / "exercises" / id;
    std::vector<fs::path> files;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    fingerprint.add(id);
    for (const fs::path& file : files) fingerprint.add(file.filename().string()).add_file(file);
  }
}

GradeState::GradeState(const fs::path& report_dir) : m_dir(fs::absolute(report_dir) / ".state") {}

std::optional<uint64_t> GradeState::saved_seed() const {
  auto json = read_json(m_dir / "run.json");
  if (!json || !json->contains("seed") || !(*json)["seed"].is_number_unsigned()) return std::nullopt;
  return (*json)["seed"].get<uint64_t>();
}

Status GradeState::save_seed(uint64_t seed) const {
  return write_file_atomically(m_dir / "run.json", nlohmann::ordered_json({{"seed", seed}}).dump(2) + "\n");
}

std::optional<report::StudentResult> GradeState::load(const std::string& student, const std::string& hash) const {
  auto json = read_json(m_dir / "students" / (student + ".json"));
  if (!json || json->value("version", "") != k_state_version || json->value("hash", "") != hash) return std::nullopt;
  std::optional<report::StudentResult> result;
  try {
    result = read_student_state(*json);
  } catch (const nlohmann::json::exception&) {  // a state file from elsewhere: grade again
    return std::nullopt;
  }
  if (!result) return std::nullopt;
  // What tilecamp could not grade (a crash, a full disk) is not the student's doing: grade again.
  const bool all_graded = std::none_of(result->exercises.begin(), result->exercises.end(), [](const report::ExerciseResult& e) {
    return e.verdict && e.verdict->status == grade::VerdictStatus::Error;
  });
  return all_graded ? result : std::nullopt;
}

Status GradeState::save(const report::StudentResult& result, const std::string& hash) const {
  nlohmann::ordered_json json = {{"version", k_state_version},
                                 {"student", result.student},
                                 {"hash", hash},
                                 {"exercises", nlohmann::ordered_json::array()}};
  for (const report::ExerciseResult& exercise : result.exercises) json["exercises"].push_back(exercise_state(exercise));
  return write_file_atomically(m_dir / "students" / (result.student + ".json"),
                               json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

size_t remove_stale_temporaries(const fs::path& folder) {
  size_t removed = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const size_t mark = name.rfind(k_temporary_mark);
    if (mark == std::string::npos || mark + k_temporary_mark.size() == name.size()) continue;
    const std::string_view pid = std::string_view(name).substr(mark + k_temporary_mark.size());
    if (!std::all_of(pid.begin(), pid.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    // Another grading run still writing into this folder keeps its file.
    if (pid.size() < 10 && ::kill(static_cast<pid_t>(std::stol(std::string(pid))), 0) == 0) continue;
    std::error_code ignored;
    if (it->is_regular_file(ignored) && fs::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

Status write_file_atomically(const fs::path& path, const std::string& contents) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) return make_error("cannot create " + path.parent_path().string() + ": " + error.message());
  const fs::path temporary = path.string() + fmt::format("{}{}", k_temporary_mark, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << contents;
    out.flush();
    if (!out) return make_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
  }
  fs::rename(temporary, path, error);
  if (error) return make_error("cannot rename " + temporary.string() + " to " + path.string() + ": " + error.message());
  return ok();
}

}  // namespace tilecamp::runner
