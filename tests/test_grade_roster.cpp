// `tilecamp grade` on a small class, run as an instructor runs it: nine students whose
// submissions pass, do not compile, deadlock, never end, compute the wrong answer, are missing,
// are correct but slow, or #include the instructor's hidden tests; every report checked, then a
// run killed half-way and resumed.
// Only 01-vector-add and 02-transpose-tiled are graded, to keep it to seconds.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/test_runner_support.h"
#include "tests/tilecamp_process.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {
namespace fs = std::filesystem;
using test::RunResult;
using test::TilecampProcess;

constexpr const char* k_seed = "987654321";
constexpr const char* k_hidden_size = "77777";  // a hidden case of 01-vector-add: n = 77777
constexpr const char* k_hidden_tests =
    "[exercise.01-vector-add]\n"
    "cases = [[77777]]\n"
    "[exercise.02-transpose-tiled.thresholds.emulator]\n"
    "modelled_speedup = 1.1\n";

// 01-vector-add with the wrong operation: every element is wrong, in every case.
constexpr const char* k_vector_subtract =
    "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] - b[i];\n"
    "}\n";

// The class: student -> {exercise -> the kernel file in the repository, or the kernel's text}.
struct Submission {
  const char* student;
  const char* exercise;
  const char* source;  // a path in the repository, or (with `text`) the file's contents
  bool text = false;
};

const Submission k_class[] = {
    {"alice", "01-vector-add", "solutions/01-vector-add/kernel.cu"},
    {"alice", "02-transpose-tiled", "solutions/02-transpose-tiled/kernel.cu"},
    {"bob", "01-vector-add", "solutions/01-vector-add/kernel.cu"},
    {"bob", "02-transpose-tiled", "tests/fixtures/compile_error.cu"},
    {"carol", "01-vector-add", "solutions/01-vector-add/kernel.cu"},
    {"carol", "02-transpose-tiled", "tests/fixtures/divergent_barrier.cu"},
    {"dave", "01-vector-add", "solutions/01-vector-add/kernel.cu"},
    {"dave", "02-transpose-tiled", "tests/fixtures/infinite_loop.cu"},
    {"erin", "01-vector-add", k_vector_subtract, true},
    {"erin", "02-transpose-tiled", "solutions/02-transpose-tiled/kernel.cu"},
    {"frank", "01-vector-add", "solutions/01-vector-add/kernel.cu"},  // 02 not submitted
    {"grace", "01-vector-add", "solutions/01-vector-add/kernel.cu"},
    {"grace", "02-transpose-tiled", "tests/data/wrong/02-transpose-tiled/uncoalesced-store.cu"},
};

// The roster, with a student folder holding nothing graded, one whose own metadata would let
// anything pass (it must be ignored), one whose kernel breaks a toolkit header (its compile errors
// lie in the grader's files, which must not be quoted to the student), and the hidden tests beside
// it. (A kernel that includes the hidden tests by path is refused before NVRTC opens anything:
// test_compile_include_policy.cpp.)
void write_class(const test::ScratchFolder& folder) {
  for (const Submission& s : k_class) {
    const std::string text = s.text ? s.source : test::read_text(test::source_path(s.source));
    folder.write(std::string("roster/") + s.student + "/exercises/" + s.exercise + "/kernel.cu", text);
  }
  folder.write("roster/ivan/exercises/01-vector-add/kernel.cu", "#define half int\n#include <cuda_fp16.h>\n");
  folder.write("roster/ivan/exercises/02-transpose-tiled/kernel.cu", test::read_text(test::source_path("solutions/02-transpose-tiled/kernel.cu")));
  folder.write("roster/henry/README.md", "nothing submitted\n");
  folder.write("roster/alice/exercises/course.toml", "this is not TOML");
  folder.write("roster/erin/exercises/01-vector-add/exercise.toml", "[thresholds.emulator]\n");
  folder.write("hidden.toml", k_hidden_tests);
}

std::vector<std::string> grade_arguments(const test::ScratchFolder& folder, const std::string& out, const char* jobs = "2") {
  return {"grade", (folder.path() / "roster").string(), "--out", (folder.path() / out).string(), "--hidden",
          (folder.path() / "hidden.toml").string(), "--seed", k_seed, "--exercises", "01-vector-add,02-transpose-tiled",
          "--backend", "emulator", "--jobs", jobs};
}

RunResult grade(const test::ScratchFolder& folder, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> arguments = grade_arguments(folder, out);
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return TilecampProcess(folder, arguments, out).wait();
}

nlohmann::json json_file(const fs::path& path) { return nlohmann::json::parse(test::read_text(path)); }

// grades.json's entry for one student's exercise.
nlohmann::json graded(const nlohmann::json& grades, const std::string& student, const std::string& exercise) {
  for (const nlohmann::json& item : grades["students"]) {
    if (item["student"] != student) continue;
    for (const nlohmann::json& entry : item["exercises"]) {
      if (entry["exercise"] == exercise) return entry;
    }
  }
  FAIL("no grade for ", student, " ", exercise);
  return {};
}

// Every file of a report folder that the reports consist of (not the state kept for resuming).
std::vector<fs::path> report_files(const fs::path& out) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(out)) {
    const fs::path relative = fs::relative(entry.path(), out);
    if (entry.is_regular_file() && !relative.string().starts_with(".state")) files.push_back(relative);
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_CASE("grade: a class of nine is graded, each submission on its own, into every report") {
  test::ScratchFolder folder;
  write_class(folder);
  const RunResult run = grade(folder, "reports");
  INFO(run.out, run.err);
  REQUIRE(run.exit == 0);
  const fs::path out = folder.path() / "reports";

  // The progress display (not a terminal here: a line per student), and the summary table.
  CHECK(test::contains(run.err, "grading 9 students x 2 exercises on the emulator, seed 987654321\n"));
  CHECK(test::contains(run.err, "[9/9] "));
  CHECK(test::contains(run.err, "dave  2/4 points  02-transpose-tiled: runaway"));
  CHECK(test::contains(run.out, "01-vector-add                      8/9       6/9       6/9    67%"));
  CHECK(test::contains(run.out, "02-transpose-tiled                 7/9       4/9       3/9    33%"));
  CHECK(test::contains(run.out, "Most common reasons for lost points:\n      3  not submitted\n"));

  CHECK(test::read_text(out / "grades.csv") ==
        "student,01-vector-add,01-vector-add status,02-transpose-tiled,02-transpose-tiled status,total,max_total\n"
        "alice,2,pass,2,pass,4,4\n"
        "bob,2,pass,0,fail,2,4\n"
        "carol,2,pass,0,fail,2,4\n"
        "dave,2,pass,0,fail,2,4\n"
        "erin,0,fail,2,pass,2,4\n"
        "frank,2,pass,0,missing,2,4\n"
        "grace,2,pass,1,fail,3,4\n"
        "henry,0,missing,0,missing,0,4\n"
        "ivan,0,fail,2,pass,2,4\n");

  const nlohmann::json grades = json_file(out / "grades.json");
  CHECK(grades["seed"] == 987654321u);
  CHECK(grades["backend"] == "emulator");
  CHECK(grades["students"].size() == 9);
  CHECK(graded(grades, "bob", "02-transpose-tiled")["reason"] == "compile error");
  CHECK(graded(grades, "carol", "02-transpose-tiled")["reason"] == "deadlock");
  CHECK(graded(grades, "dave", "02-transpose-tiled")["reason"] == "runaway");
  CHECK(graded(grades, "erin", "01-vector-add")["reason"] == "wrong results");
  CHECK(graded(grades, "frank", "02-transpose-tiled")["verdict"].is_null());
  CHECK(graded(grades, "grace", "02-transpose-tiled")["reason"] == "slow: global_st_efficiency");
  CHECK(graded(grades, "grace", "02-transpose-tiled")["points"] == 1);
  // The instructor sees the hidden case and the overridden threshold; the student's own
  // exercise.toml changed nothing.
  const std::string erin = graded(grades, "erin", "01-vector-add")["verdict"].dump();
  CHECK(test::contains(erin, "hidden case 7 (n=77777)"));
  CHECK(test::contains(graded(grades, "alice", "02-transpose-tiled")["verdict"].dump(), "modelled_speedup >= 1.1"));
  CHECK(test::contains(erin, "global_ld_sectors_per_request"));
  CHECK(grades["summary"]["reasons"][0] == nlohmann::json({{"reason", "not submitted"}, {"count", 3}}));

  const std::string junit = test::read_text(out / "junit.xml");
  CHECK(test::contains(junit, "<testsuites name=\"tilecamp grade\" tests=\"18\" failures=\"6\" errors=\"0\" skipped=\"3\">"));
  CHECK(test::contains(junit, "<testcase classname=\"alice\" name=\"01-vector-add\"/>"));
  CHECK(test::contains(junit, "<testcase classname=\"carol\" name=\"02-transpose-tiled\">\n      <failure message=\"0/2 points: deadlock\""));
  CHECK(test::contains(junit, "<testcase classname=\"frank\" name=\"02-transpose-tiled\">\n      <skipped message=\"not submitted\"/>"));

  // What the students receive: their score and why, never the hidden cases or the seed.
  const nlohmann::json alice = json_file(out / "students/alice/results.json");
  CHECK(alice["score"] == 4);
  CHECK(alice["max_score"] == 4);
  REQUIRE(alice["tests"].size() == 2);
  CHECK(alice["tests"][1]["name"] == "02-transpose-tiled: Tiled transpose");
  CHECK(alice["tests"][1]["status"] == "passed");
  CHECK(alice["tests"][1]["visibility"] == "visible");
  CHECK(test::contains(alice["tests"][1]["output"].get<std::string>(), "PASS  hidden case 1\n"));
  const nlohmann::json grace = json_file(out / "students/grace/results.json");
  CHECK(grace["score"] == 3);
  CHECK(grace["tests"][1]["status"] == "failed");
  CHECK(test::contains(test::read_text(out / "students/bob/feedback.txt"), "compile_error.cu") == false);
  CHECK(test::contains(test::read_text(out / "students/bob/feedback.txt"), "exercises/02-transpose-tiled/kernel.cu:9:"));
  CHECK(test::contains(test::read_text(out / "students/carol/feedback.txt"),
                       "a deadlock: a barrier that not every thread of the block reaches"));
  CHECK(test::contains(test::read_text(out / "students/dave/feedback.txt"), "a runaway kernel"));
  CHECK(test::contains(test::read_text(out / "students/erin/feedback.txt"),
                       "FAIL  hidden case 5\n          some elements of `c` are wrong"));
  CHECK(test::contains(test::read_text(out / "students/frank/feedback.txt"),
                       "02-transpose-tiled  Tiled transpose  0/2 points  (not submitted)"));
  CHECK(test::contains(test::read_text(out / "students/henry/feedback.txt"), "tilecamp: 0 of 4 points for henry"));
  CHECK(test::contains(test::read_text(out / "students/ivan/feedback.txt"), "the first error is in a file your kernel includes"));
  CHECK(test::contains(graded(grades, "ivan", "01-vector-add")["verdict"].dump(), "cuda_fp16.h:"));
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(out / "students")) {
    if (!entry.is_regular_file()) continue;
    const std::string text = test::read_text(entry.path());
    CAPTURE(entry.path());
    CHECK_FALSE(test::contains(text, k_seed));
    CHECK_FALSE(test::contains(text, k_hidden_size));
    CHECK_FALSE(test::contains(text, "hidden.toml"));
    CHECK_FALSE(test::contains(text, folder.path().string()));
    CHECK_FALSE(test::contains(text, "cuda_fp16.h:"));
  }
}

// 01-vector-add that would take minutes on the emulator without ever tripping its runaway
// budget: every thread loops half a million times first.
constexpr const char* k_vector_add_slowly =
    "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  float waste = 0;\n"
    "  for (int k = 0; k < 500000; ++k) waste += 0.5f;\n"
    "  if (i < n) c[i] = a[i] + b[i] + waste * 0.0f;\n"
    "}\n";

// The same, running for seconds rather than minutes: long enough for a test to find and kill its
// grading process (found within milliseconds of its start), short enough that the run which
// grades it again does not dominate the suite (500000 trips took 99 s there).
constexpr const char* k_vector_add_for_seconds =
    "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  float waste = 0;\n"
    "  for (int k = 0; k < 40000; ++k) waste += 0.5f;\n"
    "  if (i < n) c[i] = a[i] + b[i] + waste * 0.0f;\n"
    "}\n";

// A roster of alice (the solution of 01-vector-add) and sam, graded on 01-vector-add alone, with
// one more option: "--time-limit=1", or "--force=" for a flag.
RunResult grade_alice_and_sam(const test::ScratchFolder& folder, const std::string& sam, const std::string& option) {
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  folder.write("roster/sam/exercises/01-vector-add/kernel.cu", sam);
  std::vector<std::string> arguments = {"grade", (folder.path() / "roster").string(), "--out",
                                              (folder.path() / "reports").string(), "--seed", "5", "--exercises",
                                              "01-vector-add", "--backend", "emulator", option.substr(0, option.find('='))};
  if (!option.ends_with("=")) arguments.push_back(option.substr(option.find('=') + 1));
  return TilecampProcess(folder, arguments, "reports").wait();
}

TEST_CASE("grade: a rerun keeps the unchanged results, --force regrades them") {
  test::ScratchFolder folder;
  const std::string solution = test::read_text(test::source_path("solutions/01-vector-add/kernel.cu"));
  CHECK(grade_alice_and_sam(folder, solution, "--jobs=2").exit == 0);
  const RunResult again = grade_alice_and_sam(folder, solution, "--jobs=2");
  CHECK(test::contains(again.err, "; 2 unchanged since the last run kept (--force regrades them)\n"));
  CHECK_FALSE(test::contains(again.err, "[1/2] "));  // nothing graded
  CHECK(test::contains(test::read_text(folder.path() / "reports/grades.csv"), "sam,2,pass,2,2\n"));
  const RunResult forced = grade_alice_and_sam(folder, solution, "--force=");
  CHECK_FALSE(test::contains(forced.err, "unchanged since the last run"));
  CHECK(test::contains(forced.err, "[2/2] "));
  CHECK(test::contains(forced.err, "] sam  2/2 points\n"));
}

TEST_CASE("grade: a kernel.cu that is a symbolic link is not read: it could point at any file of the grader") {
  test::ScratchFolder folder;
  folder.write("secret.txt", "the instructor's notes\n");
  fs::create_directories(folder.path() / "roster/mallory/exercises/01-vector-add");
  fs::create_symlink(folder.path() / "secret.txt", folder.path() / "roster/mallory/exercises/01-vector-add/kernel.cu");
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=1");
  REQUIRE(run.exit == 0);
  const std::string feedback = test::read_text(folder.path() / "reports/students/mallory/feedback.txt");
  CHECK(test::contains(feedback, "FAIL  compiles\n          exercises/01-vector-add/kernel.cu: a symbolic link; submit the file itself"));
  CHECK_FALSE(test::contains(test::read_text(folder.path() / "reports/grades.json"), "instructor's notes"));
}

TEST_CASE("grade: a symbolic link on the submission's path is not followed out of the student's folder") {
  test::ScratchFolder folder;
  // mallory's exercise folder is the course's solution; oscar's whole exercises folder is alice's.
  fs::create_directories(folder.path() / "roster/mallory/exercises");
  fs::create_directory_symlink(test::source_path("solutions/01-vector-add"), folder.path() / "roster/mallory/exercises/01-vector-add");
  fs::create_directories(folder.path() / "roster/oscar");
  fs::create_directory_symlink(folder.path() / "roster/alice/exercises", folder.path() / "roster/oscar/exercises");
  // A link inside the student's own folder is harmless.
  folder.write("roster/petra/mine/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  fs::create_directories(folder.path() / "roster/petra/exercises");
  fs::create_directory_symlink(folder.path() / "roster/petra/mine", folder.path() / "roster/petra/exercises/01-vector-add");
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 0);
  const std::string csv = test::read_text(folder.path() / "reports/grades.csv");
  CHECK(test::contains(csv, "mallory,0,fail,0,2\n"));
  CHECK(test::contains(csv, "oscar,0,fail,0,2\n"));
  CHECK(test::contains(csv, "petra,2,pass,2,2\n"));
  CHECK(test::contains(test::read_text(folder.path() / "reports/students/mallory/feedback.txt"),
                       "FAIL  compiles\n          exercises/01-vector-add/kernel.cu: lies outside your folder"));
}

TEST_CASE("grade: a student folder that is a symbolic link is not graded: a warning names it, exit 1") {
  test::ScratchFolder folder;
  folder.write("elsewhere/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  fs::create_directories(folder.path() / "roster");
  fs::create_directory_symlink(folder.path() / "elsewhere", folder.path() / "roster/trent");
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 1);
  CHECK(test::contains(run.err, "warning: " + (folder.path() / "roster/trent").string() + " is a symbolic link, not a student's folder: not graded"));
  CHECK(test::read_text(folder.path() / "reports/grades.csv") ==
        "student,01-vector-add,01-vector-add status,total,max_total\nalice,2,pass,2,2\nsam,0,fail,0,2\n");
  CHECK_FALSE(fs::exists(folder.path() / "reports/students/trent"));
}

TEST_CASE("grade: a folder whose name is not UTF-8 is skipped with a warning, the class is graded, exit 1") {
  test::ScratchFolder folder;
  folder.write("roster/z\xff\xfe/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 1);
  CHECK(test::contains(run.err, "roster/z\\xff\\xfe: the folder's name is not valid UTF-8: not graded"));
  CHECK(test::contains(run.err, "rename it"));
  CHECK(test::read_text(folder.path() / "reports/grades.csv") ==
        "student,01-vector-add,01-vector-add status,total,max_total\nalice,2,pass,2,2\nsam,0,fail,0,2\n");
}

// What a student tries, to take the hidden tests or a classmate's work through their own
// feedback: every way of making NVRTC open a file and quote it back that include_policy once let
// through, aimed at the hidden-tests file, a classmate's kernel, /proc/self/environ and the
// grading process's job file (found through /proc/self/cwd).
std::string hostile_kernel(const std::string& target) {
  return "#define Q x'/*'\n#include \"" + target + "\"\n// */\n"
         "#define TEXT(x) #x\nstatic_assert(0, TEXT(\n#include \"" + target + "\"\n));\n"
         "const char* s = R\"aaaaaaaaaaaaaaaaaaaaaaaaaaa(\n#include \"" + target + "\"\n)aaaaaaaaaaaaaaaaaaaaaaaaaaa\";\n"
         "__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {}\n";
}

TEST_CASE("grade: a student's kernel reads nothing of the hidden tests, a classmate's kernel or the grader") {
  test::ScratchFolder folder;
  const std::string hidden_secret = "hidden-secret-4242", classmate_secret = "classmate-secret-2424";
  folder.write("hidden.toml", std::string("# ") + hidden_secret + "\n" + k_hidden_tests);
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu",
               "// " + classmate_secret + "\n" + test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  const std::string targets[] = {(folder.path() / "hidden.toml").string(),
                                 (folder.path() / "roster/alice/exercises/01-vector-add/kernel.cu").string(),
                                 "/proc/self/environ", "/proc/self/cwd/../01-vector-add.json.job"};
  for (size_t i = 0; i < std::size(targets); ++i) {
    folder.write("roster/mallory" + std::to_string(i) + "/exercises/01-vector-add/kernel.cu", hostile_kernel(targets[i]));
  }
  const RunResult run = TilecampProcess(folder,
                                        {"grade", (folder.path() / "roster").string(), "--out", (folder.path() / "reports").string(),
                                         "--hidden", (folder.path() / "hidden.toml").string(), "--seed", k_seed,
                                         "--exercises", "01-vector-add", "--backend", "emulator"},
                                        "reports")
                            .wait();
  INFO(run.out, run.err);
  CHECK(run.exit == 0);
  for (size_t i = 0; i < std::size(targets); ++i) {
    const std::string student = "mallory" + std::to_string(i);
    CHECK(graded(json_file(folder.path() / "reports/grades.json"), student, "01-vector-add")["reason"] == "compile error");
    for (const char* report : {"feedback.txt", "results.json"}) {
      const std::string text = test::read_text(folder.path() / "reports/students" / student / report);
      INFO(student, " ", report);
      CHECK_FALSE(test::contains(text, hidden_secret));
      CHECK_FALSE(test::contains(text, classmate_secret));
      CHECK_FALSE(test::contains(text, k_seed));
      CHECK_FALSE(test::contains(text, "PATH="));
    }
  }
}

TEST_CASE("grade: a folder whose name holds an escape sequence is skipped, named escaped, the class is graded") {
  test::ScratchFolder folder;
  folder.write("roster/evil\x1b]0;owned\x07\x1b[2J/exercises/01-vector-add/kernel.cu",
               test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 1);
  CHECK(test::contains(run.err, "roster/evil\\x1b]0;owned\\x07\\x1b[2J: the folder's name holds control characters"));
  CHECK_FALSE(test::contains(run.out + run.err, "\x1b"));
  CHECK(test::read_text(folder.path() / "reports/grades.csv") ==
        "student,01-vector-add,01-vector-add status,total,max_total\nalice,2,pass,2,2\nsam,0,fail,0,2\n");
}

TEST_CASE("grade: hidden tests with a NaN threshold, or a case too much work to emulate, are refused before grading") {
  test::ScratchFolder folder;
  folder.write("roster/alice/exercises/05-sgemm-tiled/kernel.cu", test::read_text(test::source_path("solutions/05-sgemm-tiled/kernel.cu")));
  const std::pair<std::string, std::string> hidden[] = {
      {"[exercise.05-sgemm-tiled.thresholds.emulator]\nmodelled_speedup = nan\n",
       "field `exercise.05-sgemm-tiled.thresholds.emulator.modelled_speedup`: expected a finite number"},
      {"[exercise.05-sgemm-tiled]\ncases = [[1000, 1000, 1000]]\n",
       "field `exercise.05-sgemm-tiled.cases[0]`: the case would take 1000000000 multiply-adds"},
  };
  for (const auto& [toml, error] : hidden) {
    folder.write("hidden.toml", toml);
    const RunResult run = TilecampProcess(folder,
                                          {"grade", (folder.path() / "roster").string(), "--out",
                                           (folder.path() / "reports").string(), "--hidden", (folder.path() / "hidden.toml").string(),
                                           "--exercises", "05-sgemm-tiled", "--backend", "emulator"},
                                          "reports")
                              .wait();
    INFO(run.err);
    CHECK(run.exit == 2);
    CHECK(test::contains(run.err, (folder.path() / "hidden.toml").string() + ": " + error));
    CHECK_FALSE(fs::exists(folder.path() / "reports/grades.csv"));
  }
}

TEST_CASE("grade: only what grade writes is swept from REPORT_DIR, an unrelated *.tmpN file survives") {
  test::ScratchFolder folder;
  folder.write("reports/notes/file.tmp4000000", "mine\n");
  folder.write("reports/file.tmp4000000", "mine too\n");
  folder.write("reports/grades.csv.tmp4000000", "student,");
  folder.write("reports/.state/work/4000000/0123456789abcdef.01-vector-add.json.log", "a killed run's log");
  REQUIRE(::kill(4000000, 0) != 0);  // no such process
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 0);
  CHECK(test::read_text(folder.path() / "reports/notes/file.tmp4000000") == "mine\n");
  CHECK(test::read_text(folder.path() / "reports/file.tmp4000000") == "mine too\n");
  CHECK_FALSE(fs::exists(folder.path() / "reports/grades.csv.tmp4000000"));
  CHECK_FALSE(fs::exists(folder.path() / "reports/.state/work/4000000"));
  CHECK(fs::is_empty(folder.path() / "reports/.state/work"));  // this run's own work folder is gone too
}

TEST_CASE("grade: a student id of 250 characters is graded (work and state files are named by a hash)") {
  test::ScratchFolder folder;
  const std::string id(250, 'q');
  folder.write("roster/" + id + "/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2");
  INFO(run.err);
  CHECK(run.exit == 0);
  CHECK(test::contains(test::read_text(folder.path() / "reports/grades.csv"), id + ",2,pass,2,2\n"));
  CHECK(test::contains(grade_alice_and_sam(folder, k_vector_subtract, "--jobs=2").err, "3 unchanged since the last run kept"));
}

TEST_CASE("grade: a negative --seed is refused") {
  test::ScratchFolder folder;
  const RunResult run = grade_alice_and_sam(folder, k_vector_subtract, "--seed=-1");
  CHECK(run.exit != 0);
  CHECK(run.exit != 1);
  CHECK(test::contains(run.err, "the seed is a non-negative integer"));
  CHECK_FALSE(fs::exists(folder.path() / "reports/grades.csv"));
}

TEST_CASE("grade: a submission over the time limit is stopped and fails alone, the rest of the class is graded") {
  test::ScratchFolder folder;
  const RunResult run = grade_alice_and_sam(folder, k_vector_add_slowly, "--time-limit=1");
  INFO(run.out, run.err);
  CHECK(run.exit == 0);
  CHECK(test::read_text(folder.path() / "reports/grades.csv") ==
        "student,01-vector-add,01-vector-add status,total,max_total\nalice,2,pass,2,2\nsam,0,fail,0,2\n");
  CHECK(graded(json_file(folder.path() / "reports/grades.json"), "sam", "01-vector-add")["reason"] == "time-limit");
  const std::string feedback = test::read_text(folder.path() / "reports/students/sam/feedback.txt");
  // The emulator stops itself a little before the limit, to say where the time went.
  CHECK(test::contains(feedback, "the kernel was still running when the check's time ran out, and was stopped"));
  CHECK(test::contains(feedback, "Its instructions went to line 4"));
  CHECK_FALSE(test::contains(feedback, "--time-limit"));  // a student cannot change the class's limits
}

pid_t grading_process_of(const test::ScratchFolder& folder, const std::string& student);  // below

TEST_CASE("grade: a grading process that crashes is an error for that submission, never a crash of the run, exit 1") {
  test::ScratchFolder folder;
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  folder.write("roster/sam/exercises/01-vector-add/kernel.cu", k_vector_add_for_seconds);
  const std::vector<std::string> arguments = {"grade", (folder.path() / "roster").string(), "--out",
                                              (folder.path() / "reports").string(), "--seed", "5", "--exercises",
                                              "01-vector-add", "--backend", "emulator", "--jobs", "2", "--time-limit", "100"};
  TilecampProcess run(folder, arguments, "reports");
  pid_t sam = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((sam = grading_process_of(folder, "sam")) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(sam != 0);
  ::kill(sam, SIGSEGV);  // as a crash would end it
  const RunResult result = run.wait();
  INFO(result.out, result.err);
  CHECK(result.exit == 1);
  CHECK(test::read_text(folder.path() / "reports/grades.csv") ==
        "student,01-vector-add,01-vector-add status,total,max_total\nalice,2,pass,2,2\nsam,0,error,0,2\n");
  const nlohmann::json entry = graded(json_file(folder.path() / "reports/grades.json"), "sam", "01-vector-add");
  CHECK(test::contains(entry["verdict"]["error"].get<std::string>(), "the grading process ended with"));
  CHECK(test::contains(test::read_text(folder.path() / "reports/junit.xml"), "<error message=\"could not grade: the grading process ended with"));
  CHECK(test::contains(test::read_text(folder.path() / "reports/students/sam/feedback.txt"),
                       "tilecamp could not grade this submission; your instructor has the details"));
  // What could not be graded is graded again by the next run, as if never graded.
  TilecampProcess again(folder, arguments, "reports");
  CHECK(test::contains(again.wait().err, "1 unchanged since the last run kept"));
}

// The grading process (its pid) whose job is `student`'s in the roster of `folder` (not another
// test's, which may be running at the same time), or 0.
pid_t grading_process_of(const test::ScratchFolder& folder, const std::string& student) {
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", ignored)) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    const std::string command((std::istreambuf_iterator<char>(in)), {});
    if (!test::contains(command, "__grade-one")) continue;
    std::vector<std::string> argv;
    for (size_t start = 0, end; start < command.size(); start = end + 1) {
      end = command.find('\0', start);
      if (end == std::string::npos) end = command.size();
      argv.push_back(command.substr(start, end - start));
    }
    std::ifstream job(argv.size() > 2 ? argv[2] : "");
    const std::string job_text((std::istreambuf_iterator<char>(job)), {});
    if (test::contains(job_text, (folder.path() / "roster" / student / "exercises").string())) return static_cast<pid_t>(std::stol(entry.path().filename().string()));
  }
  return 0;
}

TEST_CASE("grade: a grading process killed from outside tilecamp is an error, not a time limit, regraded next run") {
  test::ScratchFolder folder;
  folder.write("roster/alice/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  folder.write("roster/sam/exercises/01-vector-add/kernel.cu", k_vector_add_slowly);
  TilecampProcess run(folder,
                      {"grade", (folder.path() / "roster").string(), "--out", (folder.path() / "reports").string(), "--seed", "5",
                       "--exercises", "01-vector-add", "--backend", "emulator", "--jobs", "2", "--time-limit", "100"},
                      "reports");
  pid_t sam = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((sam = grading_process_of(folder, "sam")) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(sam != 0);
  ::kill(sam, SIGKILL);  // as the out-of-memory killer would
  const RunResult result = run.wait();
  INFO(result.err);
  CHECK(result.exit == 1);
  const nlohmann::json entry = graded(json_file(folder.path() / "reports/grades.json"), "sam", "01-vector-add");
  CHECK(entry["status"] == "error");
  CHECK(entry["reason"] == "could not grade");
  CHECK(test::contains(entry["verdict"]["error"].get<std::string>(), "signal 9"));
  CHECK(test::contains(entry["verdict"]["error"].get<std::string>(), "not sent by tilecamp"));
  CHECK_FALSE(test::contains(test::read_text(folder.path() / "reports/grades.json"), "took longer than"));
}

// Whether a grading process whose command line names `folder` is still running.
bool grading_in(const fs::path& folder) {
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", ignored)) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);  // not every entry is a process
    const std::string command((std::istreambuf_iterator<char>(in)), {});
    if (test::contains(command, "__grade-one") && test::contains(command, folder.string())) return true;
  }
  return false;
}

TEST_CASE("grade: a run killed half-way resumes, regrading only the rest, into the same reports") {
  test::ScratchFolder folder;
  write_class(folder);
  REQUIRE(grade(folder, "whole").exit == 0);

  // One job at a time, killed once three students are written.
  TilecampProcess killed(folder, grade_arguments(folder, "resumed", "1"), "killed");
  const fs::path state = folder.path() / "resumed/.state/students";
  auto written = [&] {
    std::error_code ignored;
    if (!fs::is_directory(state, ignored)) return 0;
    return static_cast<int>(std::count_if(fs::directory_iterator(state), fs::directory_iterator(),
                                          [](const fs::directory_entry& e) { return e.path().extension() == ".json"; }));
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (written() < 3 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  killed.kill_now();
  CHECK(killed.wait().exit == 128 + SIGKILL);
  // Its grading process dies with it.
  const auto reaped = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (grading_in(folder.path()) && std::chrono::steady_clock::now() < reaped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK_FALSE(grading_in(folder.path()));
  const int kept = written();
  REQUIRE(kept >= 3);
  REQUIRE(kept < 9);
  CHECK_FALSE(fs::exists(folder.path() / "resumed/grades.csv"));
  // What a kill in the middle of writing a file leaves (the process is gone): swept away on resume.
  folder.write("resumed/students/alice/results.json.tmp999999999", "{\"score\": ");


  const RunResult resumed = grade(folder, "resumed");
  INFO(resumed.err);
  REQUIRE(resumed.exit == 0);
  CHECK(test::contains(resumed.err, std::to_string(kept) + " unchanged since the last run kept"));
  const std::vector<fs::path> files = report_files(folder.path() / "whole");
  CHECK(files.size() == 3 + 2 * 9);
  CHECK(report_files(folder.path() / "resumed") == files);
  for (const fs::path& file : files) {
    CAPTURE(file);
    CHECK(test::read_text(folder.path() / "resumed" / file) == test::read_text(folder.path() / "whole" / file));
  }

  // A changed submission is regraded alone.
  folder.write("roster/erin/exercises/01-vector-add/kernel.cu", test::read_text(test::source_path("solutions/01-vector-add/kernel.cu")));
  const RunResult changed = grade(folder, "resumed");
  REQUIRE(changed.exit == 0);
  CHECK(test::contains(changed.err, "8 unchanged since the last run kept"));
  CHECK(test::contains(changed.err, "[9/9] erin  4/4 points\n"));
  CHECK(test::contains(test::read_text(folder.path() / "resumed/grades.csv"), "erin,2,pass,2,pass,4,4\n"));
}

}  // namespace
}  // namespace tilecamp
