#include "runner/classroom/roster_shards.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "checker/report/verdict_record.h"
#include "checker/util/sha256.h"
#include "checker/util/utf8.h"
#include "runner/classroom/roster.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

constexpr const char* k_shard_version = "tilecamp grade shard 1";
// A shard file larger than this is no shard of a class (a class of 1000 x 12 verdicts is ~50 MB).
constexpr uintmax_t k_largest_shard_file = uintmax_t{1} << 30;

std::optional<uint64_t> whole_number(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A field of a shard file that is not what the merge expects: the file, the field and what it
// should be.
Error bad_field(const fs::path& file, const std::string& field, const std::string& expected) {
  return make_error(file.string() + ": field `" + field + "`: expected " + expected);
}

// Why a student id read from a shard file could not be a roster folder's name (which
// list_students would have graded), or "" when it could: the id becomes the folder students/ID
// of the merged reports, so `/`, `..` and the like would write outside them.
std::string not_a_student_id(const std::string& id) {
  if (id.empty() || id.starts_with(".")) return "empty or starting with `.`";
  if (id.find('/') != std::string::npos || id.find('\0') != std::string::npos) return "holding `/` or a NUL byte";
  if (!is_valid_utf8(id)) return "not valid UTF-8";
  if (has_control_characters(id)) return "holding control characters";
  return "";
}

struct ShardFile {
  fs::path path;
  ShardSpec spec;
  uint64_t seed = 0;
  std::string backend, settings;
  std::vector<std::string> exercises, not_graded;
  std::vector<report::StudentResult> students;
};

Expected<nlohmann::json> read_shard_json(const fs::path& folder, const fs::path& file) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return make_error(folder.string() + ": not a folder (expected a shard's report folder)");
  const fs::file_status status = fs::symlink_status(file, error);
  if (!fs::exists(status)) {
    return make_error(file.string() + ": not found: expected the file that `tilecamp grade ROSTER --out " + folder.string() +
                      " --shard K/N` writes when the shard is done (a shard that was stopped: run it again, it resumes)");
  }
  if (fs::is_symlink(status)) return make_error(file.string() + ": a symbolic link: expected the shard file itself");
  if (!fs::is_regular_file(status)) return make_error(file.string() + ": not a regular file: expected a shard file");
  if (fs::file_size(file, error) > k_largest_shard_file) return make_error(file.string() + ": larger than 1 GiB: not a shard file");
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return make_error(file.string() + ": cannot be read");
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& parse) {
    return make_error(file.string() + ": expected a shard file (JSON) written whole by tilecamp grade --shard; " +
                      "it does not parse (cut short?): " + parse.what());
  }
}

Expected<std::vector<std::string>> string_list(const fs::path& file, const nlohmann::json& json, const std::string& field) {
  if (!json.contains(field) || !json[field].is_array()) return bad_field(file, field, "a list of strings");
  std::vector<std::string> list;
  for (size_t i = 0; i < json[field].size(); ++i) {
    if (!json[field][i].is_string()) return bad_field(file, fmt::format("{}[{}]", field, i), "a string");
    list.push_back(json[field][i].get<std::string>());
  }
  return list;
}

Expected<report::StudentResult> read_student(const fs::path& file, const nlohmann::json& item, size_t s,
                                             const std::vector<std::string>& exercises) {
  const std::string at = fmt::format("students[{}]", s);
  if (!item.is_object()) return bad_field(file, at, "an object {\"student\", \"exercises\"}");
  if (!item.contains("student") || !item["student"].is_string()) return bad_field(file, at + ".student", "the student's id, a string");
  report::StudentResult student{item["student"].get<std::string>(), {}};
  if (const std::string why = not_a_student_id(student.student); !why.empty()) {
    return bad_field(file, at + ".student",
                     "a roster folder's name, not `" + escaped_bytes(student.student) + "` (" + why + ")");
  }
  if (!item.contains("exercises") || !item["exercises"].is_array() || item["exercises"].size() != exercises.size()) {
    return bad_field(file, at + ".exercises", fmt::format("a list of {} results, one per graded exercise", exercises.size()));
  }
  for (size_t e = 0; e < exercises.size(); ++e) {
    const nlohmann::json& entry = item["exercises"][e];
    const std::string here = fmt::format("{}.exercises[{}]", at, e);
    if (!entry.is_object() || entry.value("exercise", nlohmann::json()) != exercises[e]) {
      return bad_field(file, here + ".exercise", "`" + exercises[e] + "`, the file's exercises in order");
    }
    if (!entry.contains("title") || !entry["title"].is_string()) return bad_field(file, here + ".title", "the exercise's title, a string");
    report::ExerciseResult result{exercises[e], entry["title"].get<std::string>(), {}};
    if (!entry.contains("verdict")) return bad_field(file, here + ".verdict", "a verdict record, or null when not submitted");
    if (!entry["verdict"].is_null()) {
      auto verdict = report::read_verdict_record(entry["verdict"]);
      if (!verdict) return bad_field(file, here + ".verdict", "a verdict record (" + verdict.error() + ")");
      if (verdict->exercise != exercises[e]) return bad_field(file, here + ".verdict.exercise", "`" + exercises[e] + "`");
      result.verdict = std::move(*verdict);
    }
    student.exercises.push_back(std::move(result));
  }
  return student;
}

Expected<ShardFile> read_shard_file(const fs::path& folder) {
  ShardFile shard;
  shard.path = folder / k_shard_file;
  const fs::path& file = shard.path;
  TC_TRY_ASSIGN(const nlohmann::json json, read_shard_json(folder, file));
  if (!json.is_object()) return make_error(file.string() + ": expected a shard file: a JSON object");
  if (json.value("version", nlohmann::json()) != k_shard_version) return bad_field(file, "version", fmt::format("\"{}\"", k_shard_version));
  if (!json.contains("shards") || !json["shards"].is_number_unsigned() || json["shards"].get<uint64_t>() < 1 ||
      json["shards"].get<uint64_t>() > UINT32_MAX) {
    return bad_field(file, "shards", "the number of shards N, 1 or more");
  }
  shard.spec.count = json["shards"].get<uint32_t>();
  if (!json.contains("shard") || !json["shard"].is_number_unsigned() || json["shard"].get<uint64_t>() >= shard.spec.count) {
    return bad_field(file, "shard", fmt::format("the shard K, 0 to {}", shard.spec.count - 1));
  }
  shard.spec.index = json["shard"].get<uint32_t>();
  if (!json.contains("seed") || !json["seed"].is_number_unsigned()) return bad_field(file, "seed", "the seed, 0 to 2^64-1");
  shard.seed = json["seed"].get<uint64_t>();
  const nlohmann::json backend = json.value("backend", nlohmann::json());
  if (backend != "emulator" && backend != "gpu") return bad_field(file, "backend", "\"emulator\" or \"gpu\"");
  shard.backend = backend.get<std::string>();
  if (!json.contains("settings") || !json["settings"].is_string()) return bad_field(file, "settings", "a hash, a string");
  shard.settings = json["settings"].get<std::string>();
  TC_TRY_ASSIGN(shard.exercises, string_list(file, json, "exercises"));
  if (shard.exercises.empty()) return bad_field(file, "exercises", "the graded exercises, one or more");
  TC_TRY_ASSIGN(shard.not_graded, string_list(file, json, "not_graded"));
  if (!json.contains("students") || !json["students"].is_array()) return bad_field(file, "students", "a list of students' results");
  std::set<std::string> seen;
  for (size_t s = 0; s < json["students"].size(); ++s) {
    TC_TRY_ASSIGN(report::StudentResult student, read_student(file, json["students"][s], s, shard.exercises));
    if (!seen.insert(student.student).second) {
      return bad_field(file, fmt::format("students[{}].student", s), "each student once, not `" + student.student + "` again");
    }
    shard.students.push_back(std::move(student));
  }
  return shard;
}

std::string shard_name(const ShardSpec& spec) { return fmt::format("{}/{}", spec.index, spec.count); }

}  // namespace

Expected<ShardSpec> parse_shard(const std::string& text) {
  const std::string usage = "`" + escaped_bytes(text) + "`: expected K/N, shard K of N, K from 0 to N-1 (e.g. --shard 0/4)";
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return make_error(usage);
  const auto k = whole_number(std::string_view(text).substr(0, slash));
  const auto n = whole_number(std::string_view(text).substr(slash + 1));
  if (!k || !n) return make_error(usage);
  if (*n == 0 || *n > 100000) return make_error(usage + ": N must be 1 to 100000");
  if (*k >= *n) return make_error(usage + fmt::format(": K must be below N (the shards of {} are 0/{} to {}/{})", *n, *n, *n - 1, *n));
  return ShardSpec{static_cast<uint32_t>(*k), static_cast<uint32_t>(*n)};
}

uint32_t shard_of(const std::string& student, uint32_t count) {
  const Sha256Digest digest = sha256(student);
  uint64_t prefix = 0;
  for (size_t i = 0; i < 8; ++i) prefix = (prefix << 8) | digest[i];
  return static_cast<uint32_t>(prefix % std::max(1u, count));
}

Status write_shard_file(const fs::path& out, const ShardResults& shard) {
  nlohmann::ordered_json json = {{"version", k_shard_version},
                                 {"shard", shard.spec.index},
                                 {"shards", shard.spec.count},
                                 {"seed", shard.results.seed},
                                 {"backend", shard.results.backend},
                                 {"settings", shard.settings},
                                 {"exercises", shard.results.exercises},
                                 {"not_graded", shard.not_graded},
                                 {"students", nlohmann::ordered_json::array()}};
  for (const report::StudentResult& student : shard.results.students) {
    nlohmann::ordered_json item = {{"student", student.student}, {"exercises", nlohmann::ordered_json::array()}};
    for (const report::ExerciseResult& exercise : student.exercises) {
      item["exercises"].push_back({{"exercise", exercise.exercise},
                                   {"title", exercise.title},
                                   {"verdict", exercise.verdict ? report::verdict_record(*exercise.verdict) : nullptr}});
    }
    json["students"].push_back(std::move(item));
  }
  return write_file_atomically(out / k_shard_file, json.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::optional<ShardSpec> shard_in_folder(const fs::path& out) {
  std::ifstream in(out / k_shard_file, std::ios::binary);
  if (!in) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (!json.is_object() || !json.contains("shard") || !json.contains("shards") || !json["shard"].is_number_unsigned() ||
      !json["shards"].is_number_unsigned()) {
    return std::nullopt;
  }
  return ShardSpec{json["shard"].get<uint32_t>(), json["shards"].get<uint32_t>()};
}

Expected<MergedClass> merge_shards(const std::vector<fs::path>& folders) {
  std::vector<ShardFile> shards;
  for (const fs::path& folder : folders) {
    TC_TRY_ASSIGN(ShardFile shard, read_shard_file(folder));
    shards.push_back(std::move(shard));
  }
  const ShardFile& first = shards.front();
  std::map<uint32_t, const ShardFile*> by_index;
  std::map<std::string, const ShardFile*> owner;
  for (const ShardFile& shard : shards) {
    const std::string file = shard.path.string(), other = first.path.string();
    if (shard.spec.count != first.spec.count) {
      return make_error(fmt::format("{}: shard {}, but {} is shard {}: expected the shards of one class, all of N = {}", file,
                                    shard_name(shard.spec), other, shard_name(first.spec), first.spec.count));
    }
    if (shard.seed != first.seed) {
      return make_error(fmt::format("{}: graded with seed {}, but {} with seed {}: expected every shard graded with the same --seed",
                                    file, shard.seed, other, first.seed));
    }
    if (shard.backend != first.backend) {
      return make_error(fmt::format("{}: graded on the {}, but {} on the {}: expected every shard on the same backend", file,
                                    shard.backend, other, first.backend));
    }
    if (shard.exercises != first.exercises) {
      return make_error(fmt::format("{}: grades {}, but {} grades {}: expected the same --exercises in every shard", file,
                                    fmt::join(shard.exercises, ","), other, fmt::join(first.exercises, ",")));
    }
    if (shard.settings != first.settings) {
      return make_error(file + ": graded with another course, hidden-tests file, --gpu or limits than " + other +
                        " (their settings hashes differ): expected every shard graded with the same ones");
    }
    if (auto [at, fresh] = by_index.emplace(shard.spec.index, &shard); !fresh) {
      return make_error(fmt::format("{} and {} are both shard {}: expected each shard once", at->second->path.string(), file,
                                    shard_name(shard.spec)));
    }
    for (const report::StudentResult& student : shard.students) {
      if (auto [at, fresh] = owner.emplace(student.student, &shard); !fresh) {
        return make_error(fmt::format("student `{}` is graded in both {} and {}: expected each student in one shard alone",
                                      student.student, at->second->path.string(), file));
      }
    }
  }
  // Once no student is claimed twice: each in the shard that their id gives.
  for (const ShardFile& shard : shards) {
    for (const report::StudentResult& student : shard.students) {
      const std::string file = shard.path.string();
      const uint32_t home = shard_of(student.student, shard.spec.count);
      if (home != shard.spec.index) {
        return make_error(fmt::format("{}: student `{}` belongs to shard {}/{}, not to this file's shard {}", file, student.student,
                                      home, shard.spec.count, shard_name(shard.spec)));
      }
    }
  }
  for (uint32_t k = 0; k < first.spec.count; ++k) {
    if (by_index.count(k) == 0) {
      std::vector<std::string> given;
      for (const auto& [index, shard] : by_index) given.push_back(shard_name(shard->spec) + " in " + shard->path.parent_path().string());
      return make_error(fmt::format("shard {}/{} is missing: expected the folders of all {} shards (given: {})", k, first.spec.count,
                                    first.spec.count, fmt::join(given, ", ")));
    }
  }
  MergedClass merged;
  merged.results = {first.seed, first.backend, first.exercises, {}};
  std::set<std::string> warnings;
  for (ShardFile& shard : shards) {
    for (report::StudentResult& student : shard.students) merged.results.students.push_back(std::move(student));
    warnings.insert(shard.not_graded.begin(), shard.not_graded.end());
  }
  std::sort(merged.results.students.begin(), merged.results.students.end(),
            [](const report::StudentResult& a, const report::StudentResult& b) { return a.student < b.student; });
  merged.not_graded.assign(warnings.begin(), warnings.end());
  return merged;
}

}  // namespace tilecamp::runner
