// `tilecamp grade --shard K/N` and `--merge`: a class graded in three shards and merged gives the
// reports of one run, byte for byte; a student's shard never moves when others join; and a merge
// refuses, naming the file and what it expected, every shard folder that is not what a shard
// wrote: cut short, forged, a link, a student twice or in the wrong shard, another seed or
// course, a shard missing. Only 01-vector-add is graded, to keep it to seconds.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/test_runner_support.h"
#include "tests/test_support.h"
#include "tests/tilecamp_process.h"

namespace tilecamp {
namespace {
namespace fs = std::filesystem;
using test::RunResult;
using test::TilecampProcess;

constexpr const char* k_seed = "424242";

constexpr const char* k_vector_subtract =
    "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] - b[i];\n"
    "}\n";

// Six students: two pass, one computes the wrong answer, one does not compile, one hands in
// nothing, one hands in the stub; and a hidden case.
void write_class(const test::ScratchFolder& folder) {
  const std::string solution = test::read_text(test::source_path("solutions/01-vector-add/kernel.cu"));
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu", solution);
  folder.write("roster/bob/exercises/01-vector-add/kernel.cu", k_vector_subtract);
  folder.write("roster/carol/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("tests/fixtures/compile_error.cu")));
  folder.write("roster/dave/README.md", "nothing\n");
  folder.write("roster/erin/exercises/01-vector-add/kernel.cu", "// erin\n" + solution);
  folder.write("roster/frank/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("exercises/01-vector-add/kernel.cu")));
  folder.write("hidden.toml", "[exercise.01-vector-add]\ncases = [[4097]]\n");
}

std::vector<std::string> grade_arguments(const test::ScratchFolder& folder, const std::string& out,
                                         std::vector<std::string> extra = {}) {
  std::vector<std::string> arguments = {"grade", (folder.path() / "roster").string(), "--out", (folder.path() / out).string(),
                                        "--hidden", (folder.path() / "hidden.toml").string(), "--seed", k_seed,
                                        "--exercises", "01-vector-add", "--backend", "emulator", "--jobs", "2"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return arguments;
}

RunResult run(const test::ScratchFolder& folder, const std::vector<std::string>& arguments, const std::string& name = "run") {
  return TilecampProcess(folder, arguments, name).wait();
}

RunResult merge(const test::ScratchFolder& folder, const std::vector<std::string>& shards, const std::string& out) {
  std::vector<std::string> arguments = {"grade", "--merge"};
  for (const std::string& shard : shards) arguments.push_back((folder.path() / shard).string());
  arguments.push_back("--out");
  arguments.push_back((folder.path() / out).string());
  return run(folder, arguments, "merge");
}

// Every report file (not the state kept for resuming, not a shard's own file).
std::vector<fs::path> report_files(const fs::path& out) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(out)) {
    const fs::path relative = fs::relative(entry.path(), out);
    if (entry.is_regular_file() && !relative.string().starts_with(".state") && relative != "shard.json") files.push_back(relative);
  }
  std::sort(files.begin(), files.end());
  return files;
}

nlohmann::json json_file(const fs::path& path) { return nlohmann::json::parse(test::read_text(path)); }

void write_json(const fs::path& path, const nlohmann::json& json) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << json.dump(1);
}

std::set<std::string> shard_students(const fs::path& shard) {
  std::set<std::string> students;
  const nlohmann::json file = json_file(shard / "shard.json");  // alive through the loop
  for (const nlohmann::json& student : file["students"]) {
    students.insert(student["student"].get<std::string>());
  }
  return students;
}

TEST_CASE("grade --shard: three shards merged are byte for byte one run's reports, and a stopped shard resumes") {
  test::ScratchFolder folder;
  write_class(folder);
  const RunResult whole = run(folder, grade_arguments(folder, "whole"));
  INFO(whole.out, whole.err);
  REQUIRE(whole.exit == 0);
  std::set<std::string> graded;
  for (int k = 0; k < 3; ++k) {
    const std::string shard = "shard-" + std::to_string(k);
    const RunResult part = run(folder, grade_arguments(folder, shard, {"--shard", std::to_string(k) + "/3"}));
    INFO(part.out, part.err);
    REQUIRE(part.exit == 0);
    CHECK(test::contains(part.err, "shard " + std::to_string(k) + "/3 of the roster's 6 students: grading "));
    CHECK(test::contains(part.out, "tilecamp grade --merge SHARD_DIR... --out REPORT_DIR"));
    CHECK_FALSE(fs::exists(folder.path() / shard / "grades.csv"));  // the class reports come from the merge
    for (const std::string& student : shard_students(folder.path() / shard)) {
      CHECK(graded.insert(student).second);
      CHECK(fs::exists(folder.path() / shard / "students" / student / "results.json"));
    }
  }
  CHECK(graded == std::set<std::string>{"alice", "bob", "carol", "dave", "erin", "frank"});

  const RunResult merged = merge(folder, {"shard-2", "shard-0", "shard-1"}, "merged");
  INFO(merged.out, merged.err);
  REQUIRE(merged.exit == 0);
  CHECK(test::contains(merged.err, "merged 3 shards: 6 students x 1 exercises, seed 424242"));
  // The summary table too, up to the folder the reports are in.
  CHECK(merged.out.substr(0, merged.out.find("Reports in")) == whole.out.substr(0, whole.out.find("Reports in")));
  const std::vector<fs::path> files = report_files(folder.path() / "whole");
  CHECK(files.size() == 3 + 2 * 6);
  CHECK(report_files(folder.path() / "merged") == files);
  for (const fs::path& file : files) {
    CAPTURE(file);
    CHECK(test::read_text(folder.path() / "merged" / file) == test::read_text(folder.path() / "whole" / file));
  }

  // A shard stopped before its end has no shard.json yet (or a part of one, swept on the rerun);
  // run again, it keeps what it had graded.
  fs::remove(folder.path() / "shard-1/shard.json");
  folder.write("shard-1/shard.json.tmp999999999", "{\"version\": ");
  CHECK(test::contains(merge(folder, {"shard-0", "shard-1", "shard-2"}, "merged").err,
                       (folder.path() / "shard-1/shard.json").string() + ": not found: expected the file that `tilecamp grade"));
  const RunResult resumed = run(folder, grade_arguments(folder, "shard-1", {"--shard", "1/3"}));
  INFO(resumed.err);
  CHECK(resumed.exit == 0);
  CHECK(test::contains(resumed.err, " unchanged since the last run kept"));
  CHECK_FALSE(fs::exists(folder.path() / "shard-1/shard.json.tmp999999999"));
  REQUIRE(merge(folder, {"shard-0", "shard-1", "shard-2"}, "again").exit == 0);
  for (const fs::path& file : files) CHECK(test::read_text(folder.path() / "again" / file) == test::read_text(folder.path() / "whole" / file));
}

TEST_CASE("grade --shard: a student's shard depends on the id alone: students who join move no one") {
  test::ScratchFolder folder;
  for (int s = 0; s < 24; ++s) folder.write("roster/student" + std::to_string(s) + "/README.md", "nothing submitted\n");
  folder.write("hidden.toml", "");
  auto shards = [&](const std::string& prefix) {
    std::map<std::string, int> where;
    for (int k = 0; k < 3; ++k) {
      const std::string out = prefix + std::to_string(k);
      const RunResult part = run(folder, grade_arguments(folder, out, {"--shard", std::to_string(k) + "/3"}));
      INFO(part.err);
      REQUIRE(part.exit == 0);
      const std::set<std::string> students = shard_students(folder.path() / out);
      CHECK_FALSE(students.empty());  // 24 ids spread over 3 shards
      for (const std::string& student : students) CHECK(where.emplace(student, k).second);
    }
    return where;
  };
  const std::map<std::string, int> before = shards("before-");
  CHECK(before.size() == 24);
  for (int s = 100; s < 112; ++s) folder.write("roster/late" + std::to_string(s) + "/README.md", "nothing submitted\n");
  fs::remove_all(folder.path() / "roster/student7");  // and one leaves
  const std::map<std::string, int> after = shards("after-");
  CHECK(after.size() == 24 + 12 - 1);
  for (const auto& [student, shard] : before) {
    CAPTURE(student);
    if (student != "student7") CHECK(after.at(student) == shard);
  }
}

TEST_CASE("grade --shard: without --seed, or into another shard's folder, is refused before grading") {
  test::ScratchFolder folder;
  write_class(folder);
  std::vector<std::string> no_seed = grade_arguments(folder, "shard-0", {"--shard", "0/2"});
  no_seed.erase(no_seed.begin() + 6, no_seed.begin() + 8);  // "--seed", k_seed
  const RunResult unseeded = run(folder, no_seed);
  CHECK(unseeded.exit == 2);
  CHECK(test::contains(unseeded.err, "--shard 0/2: give every shard the same --seed"));
  folder.write("shared/shard.json", "{\"shard\": 1, \"shards\": 2}");
  const RunResult shared = run(folder, grade_arguments(folder, "shared", {"--shard", "0/2"}));
  CHECK(shared.exit == 2);
  CHECK(test::contains(shared.err, "--shard 0/2: " + (folder.path() / "shared/shard.json").string() +
                                       " holds shard 1/2's reports: give each shard a report folder of its own"));
}

// Three shards of a class whose one student hands in work (the rest nothing, to be quick).
void grade_three_shards(const test::ScratchFolder& folder, const std::string& hidden = "") {
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu", k_vector_subtract);
  for (int s = 0; s < 12; ++s) folder.write("roster/s" + std::to_string(s) + "/README.md", "nothing\n");
  folder.write("hidden.toml", hidden);
  for (int k = 0; k < 3; ++k) {
    const RunResult part = run(folder, grade_arguments(folder, "shard-" + std::to_string(k), {"--shard", std::to_string(k) + "/3"}));
    INFO(part.err);
    REQUIRE(part.exit == 0);
  }
}

// A copy of shard K's folder whose shard.json `change` edits; returns the copy's name.
std::string forged(const test::ScratchFolder& folder, int k, const std::function<void(nlohmann::json&)>& change) {
  const std::string copy = "forged-" + std::to_string(k);
  fs::remove_all(folder.path() / copy);
  fs::copy(folder.path() / ("shard-" + std::to_string(k)), folder.path() / copy, fs::copy_options::recursive);
  nlohmann::json json = json_file(folder.path() / copy / "shard.json");
  change(json);
  write_json(folder.path() / copy / "shard.json", json);
  return copy;
}

// The shard (of 3) that holds `student`.
int shard_holding(const test::ScratchFolder& folder, const std::string& student) {
  for (int k = 0; k < 3; ++k) {
    if (shard_students(folder.path() / ("shard-" + std::to_string(k))).count(student)) return k;
  }
  FAIL("no shard holds ", student);
  return -1;
}

void expect_refused(const test::ScratchFolder& folder, const std::vector<std::string>& shards, const std::string& error) {
  fs::remove_all(folder.path() / "merged");
  const RunResult merged = merge(folder, shards, "merged");
  INFO(merged.out, merged.err);
  CHECK(merged.exit == 2);
  CHECK(test::contains(merged.err, "error: " + error));
  CHECK_FALSE(fs::exists(folder.path() / "merged/grades.csv"));
  CHECK_FALSE(fs::exists(folder.path() / "merged/students"));
}

TEST_CASE("grade --merge: a shard file cut short, forged, a link, or out of place is refused, naming it") {
  test::ScratchFolder folder;
  grade_three_shards(folder);
  REQUIRE(merge(folder, {"shard-0", "shard-1", "shard-2"}, "merged").exit == 0);
  const std::string file0 = (folder.path() / "forged-0/shard.json").string();
  const int home = shard_holding(folder, "alice");
  const int other = (home + 1) % 3;
  const std::string home_name = "shard-" + std::to_string(home), other_name = "shard-" + std::to_string(other);
  auto others_than = [](int k, const std::string& replacement) {
    std::vector<std::string> shards;
    for (int j = 0; j < 3; ++j) shards.push_back(j == k ? replacement : "shard-" + std::to_string(j));
    return shards;
  };

  SUBCASE("cut short") {
    forged(folder, 0, [](nlohmann::json&) {});
    const std::string text = test::read_text(file0);
    std::ofstream(file0, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() / 2);
    expect_refused(folder, others_than(0, "forged-0"), file0 + ": expected a shard file (JSON) written whole by tilecamp grade --shard");
  }
  SUBCASE("a student id that leads out of the report folder") {
    forged(folder, 0, [](nlohmann::json& json) {
      json["students"][0]["student"] = "../../escaped";
    });
    expect_refused(folder, others_than(0, "forged-0"),
                   file0 + ": field `students[0].student`: expected a roster folder's name, not `../../escaped`");
    CHECK_FALSE(fs::exists(folder.path() / "escaped"));
  }
  SUBCASE("a forged verdict") {
    const std::string copy = forged(folder, home, [](nlohmann::json& json) {
      for (nlohmann::json& student : json["students"]) {
        if (student["student"] == "alice") student["exercises"][0]["verdict"]["status"] = "excellent";
      }
    });
    const std::string file = (folder.path() / copy / "shard.json").string();
    const RunResult merged = merge(folder, others_than(home, copy), "merged");
    CHECK(merged.exit == 2);
    CHECK(test::contains(merged.err, file + ": field `students["));
    CHECK(test::contains(merged.err, "].exercises[0].verdict`: expected a verdict record (verdict record: field `status`: unknown value `excellent`"));
  }
  SUBCASE("an escape sequence in a shard's warning reaches the terminal escaped") {
    const std::string copy = forged(folder, home, [](nlohmann::json& json) {
      json["not_graded"].push_back("roster/x\x1b[2J: a forged warning");
    });
    const RunResult merged = merge(folder, others_than(home, copy), "merged");
    INFO(merged.out, merged.err);
    CHECK(merged.exit == 1);  // a roster folder was not graded, as the forged warning says
    CHECK(test::contains(merged.err, "warning: roster/x\\x1b[2J: a forged warning"));
    CHECK_FALSE(test::contains(merged.out + merged.err, "\x1b"));
  }
  SUBCASE("a forged seed field") {
    forged(folder, 0, [](nlohmann::json& json) { json["seed"] = -5; });
    expect_refused(folder, others_than(0, "forged-0"), file0 + ": field `seed`: expected the seed, 0 to 2^64-1");
  }
  SUBCASE("a shard number out of range") {
    forged(folder, 0, [](nlohmann::json& json) { json["shard"] = 3; });
    expect_refused(folder, others_than(0, "forged-0"), file0 + ": field `shard`: expected the shard K, 0 to 2");
  }
  SUBCASE("a symbolic link out of the shard folder") {
    folder.write("elsewhere/shard.json", test::read_text(folder.path() / "shard-0/shard.json"));
    forged(folder, 0, [](nlohmann::json&) {});
    fs::remove(file0);
    fs::create_symlink(folder.path() / "elsewhere/shard.json", file0);
    expect_refused(folder, others_than(0, "forged-0"), file0 + ": a symbolic link: expected the shard file itself");
  }
  SUBCASE("not a shard's folder") {
    fs::create_directories(folder.path() / "empty");
    expect_refused(folder, others_than(0, "empty"), (folder.path() / "empty/shard.json").string() + ": not found");
    expect_refused(folder, others_than(0, "nowhere"), (folder.path() / "nowhere").string() + ": not a folder");
  }
  SUBCASE("two shards claiming one student") {
    const nlohmann::json alice = [&] {
      const nlohmann::json file = json_file(folder.path() / home_name / "shard.json");
      for (const nlohmann::json& student : file["students"]) {
        if (student["student"] == "alice") return student;
      }
      return nlohmann::json();
    }();
    const std::string copy = forged(folder, other, [&](nlohmann::json& json) { json["students"].push_back(alice); });
    const std::string files[] = {(folder.path() / home_name / "shard.json").string(), (folder.path() / copy / "shard.json").string()};
    // Named in the order given to --merge.
    expect_refused(folder, others_than(other, copy),
                   "student `alice` is graded in both " + files[home > other] + " and " + files[home < other] +
                       ": expected each student in one shard alone");
  }
  SUBCASE("a student moved to another shard") {
    nlohmann::json alice;
    const std::string moved_out = forged(folder, home, [&](nlohmann::json& json) {
      nlohmann::json kept = nlohmann::json::array();
      for (const nlohmann::json& student : json["students"]) {
        if (student["student"] == "alice") {
          alice = student;
        } else {
          kept.push_back(student);
        }
      }
      json["students"] = kept;
    });
    fs::rename(folder.path() / moved_out, folder.path() / "moved-out");
    const std::string moved_in = forged(folder, other, [&](nlohmann::json& json) { json["students"].push_back(alice); });
    std::vector<std::string> shards = others_than(home, "moved-out");
    shards[other] = moved_in;
    expect_refused(folder, shards,
                   (folder.path() / moved_in / "shard.json").string() + ": student `alice` belongs to shard " +
                       std::to_string(home) + "/3, not to this file's shard " + std::to_string(other) + "/3");
  }
  SUBCASE("a shard given twice, or one missing") {
    expect_refused(folder, {"shard-0", "shard-1", "shard-1"},
                   (folder.path() / "shard-1/shard.json").string() + " and " + (folder.path() / "shard-1/shard.json").string() +
                       " are both shard 1/3: expected each shard once");
    expect_refused(folder, {"shard-0", "shard-2"}, "shard 1/3 is missing: expected the folders of all 3 shards (given: 0/3 in ");
  }
}

TEST_CASE("grade --merge: shards graded with another seed, course, N or exercises are refused, naming the file") {
  test::ScratchFolder folder;
  grade_three_shards(folder);
  const std::string other_file = (folder.path() / "other/shard.json").string();
  const std::string first_file = (folder.path() / "shard-0/shard.json").string();
  auto grade_other = [&](std::vector<std::string> arguments) {
    fs::remove_all(folder.path() / "other");
    const RunResult part = run(folder, arguments);
    INFO(part.err);
    REQUIRE(part.exit == 0);
  };
  SUBCASE("another seed") {
    std::vector<std::string> arguments = grade_arguments(folder, "other", {"--shard", "2/3"});
    arguments[7] = "7";
    grade_other(arguments);
    expect_refused(folder, {"shard-0", "shard-1", "other"},
                   other_file + ": graded with seed 7, but " + first_file + " with seed 424242: expected every shard graded with the same --seed");
  }
  SUBCASE("other hidden tests") {
    folder.write("hidden.toml", "[exercise.01-vector-add]\ncases = [[999]]\n");
    grade_other(grade_arguments(folder, "other", {"--shard", "2/3"}));
    expect_refused(folder, {"shard-0", "shard-1", "other"},
                   other_file + ": graded with another course, hidden-tests file, --gpu or limits than " + first_file);
  }
  SUBCASE("another number of shards") {
    grade_other(grade_arguments(folder, "other", {"--shard", "1/2"}));
    expect_refused(folder, {"shard-0", "other", "shard-2"},
                   other_file + ": shard 1/2, but " + first_file + " is shard 0/3: expected the shards of one class, all of N = 3");
  }
  SUBCASE("other exercises") {
    std::vector<std::string> arguments = grade_arguments(folder, "other", {"--shard", "2/3"});
    arguments[9] = "01-vector-add,02-transpose-tiled";
    grade_other(arguments);
    expect_refused(folder, {"shard-0", "shard-1", "other"},
                   other_file + ": grades 01-vector-add,02-transpose-tiled, but " + first_file + " grades 01-vector-add");
  }
}

TEST_CASE("grade --merge with a roster or grading options is refused: the shards decide them") {
  test::ScratchFolder folder;
  const RunResult merged = run(folder, {"grade", "--merge", (folder.path() / "a").string(), "--out", (folder.path() / "m").string(),
                                        "--seed", "5"});
  CHECK(merged.exit == 2);
  CHECK(test::contains(merged.err, "--merge takes the shards' report folders and --out alone"));
}

}  // namespace
}  // namespace tilecamp
