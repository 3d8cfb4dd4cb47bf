#include "runner/classroom/roster.h"

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
#include "checker/util/utf8.h"

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

// A student's state file, named by a hash of the id so that any id makes a short name.
fs::path state_file(const fs::path& state_dir, const std::string& student) {
  return state_dir / "students" / (Fingerprint().add(student).hex() + ".json");
}

}  // namespace

std::string escaped_bytes(std::string_view text) {
  std::string out;
  for (unsigned char byte : text) out += byte >= 0x20 && byte < 0x7f ? std::string(1, static_cast<char>(byte)) : fmt::format("\\x{:02x}", byte);
  return out;
}

bool has_control_characters(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7f) return true;
    // U+0080..U+009F, the C1 controls (CSI among them), are 0xC2 0x80..0x9F in UTF-8.
    if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9f) return true;
  }
  return false;
}

bool lies_inside(const fs::path& path, const fs::path& folder) {
  std::error_code error;
  const fs::path resolved_folder = fs::canonical(folder, error);
  if (error) return false;
  const fs::path resolved = fs::weakly_canonical(path, error);
  if (error) return false;
  auto [in_folder, in_path] = std::mismatch(resolved_folder.begin(), resolved_folder.end(), resolved.begin(), resolved.end());
  return in_folder == resolved_folder.end();
}

Expected<Roster> list_students(const fs::path& roster, const fs::path& skip) {
  std::error_code error;
  if (!fs::is_directory(roster, error)) return make_error("the roster " + roster.string() + " is not a folder");
  Roster result;
  for (const fs::directory_entry& entry : fs::directory_iterator(roster, error)) {
    const std::string name = entry.path().filename().string();
    std::error_code ignored;
    if (name.starts_with(".") || !entry.is_directory(ignored) || fs::equivalent(entry.path(), skip, ignored)) continue;
    const std::string shown = escaped_bytes(entry.path().string());
    if (entry.is_symlink(ignored)) {
      result.not_graded.push_back(shown + " is a symbolic link, not a student's folder: not graded (it could be anyone's "
                                  "folder; copy the folder itself into the roster)");
    } else if (!is_valid_utf8(name)) {
      result.not_graded.push_back(shown + ": the folder's name is not valid UTF-8: not graded (no report could name "
                                  "the student); rename it and grade again");
    } else if (has_control_characters(name)) {
      result.not_graded.push_back(shown + ": the folder's name holds control characters (they would reach the terminal "
                                  "and the reports as escape sequences): not graded; rename it and grade again");
    } else {
      result.students.push_back({name, fs::absolute(entry.path())});
    }
  }
  if (error) return make_error("cannot list the roster " + roster.string() + ": " + error.message());
  std::sort(result.students.begin(), result.students.end(), [](const Student& a, const Student& b) { return a.id < b.id; });
  std::sort(result.not_graded.begin(), result.not_graded.end());
  return result;
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

fs::path GradeState::work_dir() const { return m_dir / "work" / std::to_string(getpid()); }

std::string GradeState::work_file_name(const std::string& student, const std::string& exercise) {
  return Fingerprint().add(student).hex() + "." + exercise + ".json";
}

std::optional<uint64_t> GradeState::saved_seed() const {
  auto json = read_json(m_dir / "run.json");
  if (!json || !json->contains("seed") || !(*json)["seed"].is_number_unsigned()) return std::nullopt;
  return (*json)["seed"].get<uint64_t>();
}

Status GradeState::save_seed(uint64_t seed) const {
  return write_file_atomically(m_dir / "run.json", nlohmann::ordered_json({{"seed", seed}}).dump(2) + "\n");
}

std::optional<report::StudentResult> GradeState::load(const std::string& student, const std::string& hash) const {
  auto json = read_json(state_file(m_dir, student));
  if (!json || json->value("version", "") != k_state_version || json->value("hash", "") != hash) return std::nullopt;
  if (!(*json)["student"].is_string() || (*json)["student"].get<std::string>() != student) return std::nullopt;
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
  return write_file_atomically(state_file(m_dir, result.student),
                               json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

namespace {

bool only_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether process `pid` (decimal) may still be running: another run writing into the folder.
bool still_running(std::string_view pid) {
  return pid.size() < 10 && ::kill(static_cast<pid_t>(std::stol(std::string(pid))), 0) == 0;
}

// NAME.tmpPID with PID no longer running.
bool stale_temporary(const std::string& name) {
  const size_t mark = name.rfind(k_temporary_mark);
  if (mark == std::string::npos) return false;
  const std::string_view pid = std::string_view(name).substr(mark + k_temporary_mark.size());
  return only_digits(pid) && !still_running(pid);
}

size_t remove_if_stale(const fs::directory_entry& entry) {
  std::error_code ignored;
  return stale_temporary(entry.path().filename().string()) && entry.is_regular_file(ignored) && !entry.is_symlink(ignored) &&
         fs::remove(entry.path(), ignored);
}

}  // namespace

size_t remove_stale_temporaries(const fs::path& out) {
  size_t removed = 0;
  std::error_code error;
  // Directly in `out`: the class reports' temporaries only.
  for (fs::directory_iterator it(out, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    for (const char* report : {"grades.csv", "grades.json", "junit.xml", "shard.json"}) {
      if (name.starts_with(std::string(report) + std::string(k_temporary_mark))) removed += remove_if_stale(*it);
    }
  }
  // The work folders of runs no longer running (a killed run's job files, verdicts and logs).
  const fs::path work = out / ".state" / "work";
  std::error_code ignored;
  if (!fs::is_symlink(work, ignored)) {
    for (fs::directory_iterator it(work, error), end; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (only_digits(name) && !still_running(name) && it->is_directory(ignored) && !it->is_symlink(ignored)) {
        removed += fs::remove_all(it->path(), ignored) > 0;
      }
    }
  }
  // What grade writes below .state/ and students/.
  for (const char* subtree : {".state", "students"}) {
    const fs::path root = out / subtree;
    if (fs::is_symlink(root, ignored)) continue;
    error.clear();
    for (fs::recursive_directory_iterator it(root, error), end; !error && it != end; it.increment(error)) {
      removed += remove_if_stale(*it);
    }
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
