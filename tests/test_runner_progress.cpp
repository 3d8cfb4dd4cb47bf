// The learner's state in the course folder: progress (runner/learner/progress.h) and the kept stubs that
// `tilecamp reset` restores (runner/learner/stub_store.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "runner/learner/progress.h"
#include "runner/learner/stub_store.h"
#include "tests/test_runner_support.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

using runner::Progress;

TEST_CASE("progress: a missing file is a fresh start: nothing done, no current exercise, no welcome seen") {
  test::ScratchFolder course;
  const Progress progress = Progress::load(course.path());
  CHECK_FALSE(progress.current());
  CHECK_FALSE(progress.welcome_seen());
  CHECK(progress.hints_shown("01-vector-add") == 0);
  CHECK(progress.repair_note().empty());
}

TEST_CASE("progress: a pass counts while kernel.cu is unchanged, and not after an edit") {
  test::ScratchFolder course;
  std::string error;
  REQUIRE(Progress::load(course.path()).record("01-vector-add", "kernel v1", true, error));
  const Progress progress = Progress::load(course.path());
  CHECK(progress.done("01-vector-add", "kernel v1"));
  CHECK_FALSE(progress.done("01-vector-add", "kernel v1 // edited"));
}

TEST_CASE("progress: hints shown are counted per exercise, capped at the number there are, and survive a check") {
  test::ScratchFolder course;
  std::string error;
  Progress progress = Progress::load(course.path());
  for (int i = 0; i < 5; ++i) REQUIRE(progress.reveal_hint("01-vector-add", 3, error));
  REQUIRE(progress.record("01-vector-add", "kernel", false, error));
  const Progress again = Progress::load(course.path());
  CHECK(again.hints_shown("01-vector-add") == 3);
  CHECK(again.hints_shown("01-copy-coalesced") == 0);
}

TEST_CASE("progress: the current exercise and the welcome are remembered") {
  test::ScratchFolder course;
  std::string error;
  Progress progress = Progress::load(course.path());
  REQUIRE(progress.set_current("02-transpose-tiled", error));
  REQUIRE(progress.set_welcome_seen(error));
  const Progress again = Progress::load(course.path());
  CHECK(again.current() == "02-transpose-tiled");
  CHECK(again.welcome_seen());
}

TEST_CASE("progress: a file that is not JSON is set aside as .corrupt with a note, never a crash") {
  test::ScratchFolder course;
  course.write(".tilecamp/progress.json", "{ this is not JSON");
  const Progress progress = Progress::load(course.path());
  CHECK(test::contains(progress.repair_note(), "could not be read"));
  CHECK(test::contains(progress.repair_note(), "progress.json.corrupt"));
  CHECK(std::filesystem::exists(course.path() / ".tilecamp" / "progress.json.corrupt"));
  CHECK_FALSE(progress.current());
}

TEST_CASE("progress: a hand-edited field of the wrong type is dropped alone, with a note, the rest is kept") {
  test::ScratchFolder course;
  course.write(".tilecamp/progress.json",
               R"({"version": 1, "current": "01-vector-add", "exercises": {
                    "01-vector-add": {"passed": "yes", "hash": "x", "hints_shown": 2},
                    "01-copy-coalesced": 7}})");
  const Progress progress = Progress::load(course.path());
  CHECK(progress.current() == "01-vector-add");
  CHECK(progress.hints_shown("01-vector-add") == 2);
  CHECK(test::contains(progress.repair_note(), "01-vector-add.passed"));
  CHECK(test::contains(progress.repair_note(), "01-copy-coalesced"));
  CHECK_FALSE(std::filesystem::exists(course.path() / ".tilecamp" / "progress.json.corrupt"));
}

TEST_CASE("progress: a file of another version is set aside rather than misread") {
  test::ScratchFolder course;
  course.write(".tilecamp/progress.json", R"({"version": 99})");
  CHECK(test::contains(Progress::load(course.path()).repair_note(), "not a version 1 progress file"));
}

grade::CourseEntry entry_in(const test::ScratchFolder& course, const std::string& id) {
  return {id, 1, course.path() / "exercises" / id};
}

TEST_CASE("stubs: the first sight of an exercise is kept, and reset restores it, keeping the learner's version") {
  test::ScratchFolder course;
  course.write("exercises/01-vector-add/kernel.cu", "// TODO: the stub\n");
  const runner::StubStore stubs(course.path());
  const grade::CourseEntry entry = entry_in(course, "01-vector-add");
  stubs.remember({entry});
  course.write("exercises/01-vector-add/kernel.cu", "// my attempt\n");
  stubs.remember({entry});  // a later run keeps the first copy
  auto restored = stubs.restore(entry);
  REQUIRE(restored.has_value());
  CHECK(test::contains(*restored, "exercises/01-vector-add/kernel.cu is the original stub again"));
  CHECK(course.read("exercises/01-vector-add/kernel.cu") == "// TODO: the stub\n");
  // A second attempt reset within the same second is kept beside the first, never over it.
  course.write("exercises/01-vector-add/kernel.cu", "// my second attempt\n");
  auto again = stubs.restore(entry);
  REQUIRE(again.has_value());
  std::vector<std::string> kept;
  for (const auto& file : std::filesystem::directory_iterator(course.path() / ".tilecamp" / "reset")) {
    kept.push_back(course.read(".tilecamp/reset/" + file.path().filename().string()));
    CHECK(file.path().filename().string().starts_with("01-vector-add-"));
    CHECK(test::contains(*restored + *again, file.path().filename().string()));
  }
  std::sort(kept.begin(), kept.end());
  CHECK(kept == std::vector<std::string>{"// my attempt\n", "// my second attempt\n"});
}

TEST_CASE("stubs: resetting an untouched stub says so and changes nothing") {
  test::ScratchFolder course;
  course.write("exercises/01-vector-add/kernel.cu", "// TODO\n");
  const runner::StubStore stubs(course.path());
  stubs.remember({entry_in(course, "01-vector-add")});
  auto restored = stubs.restore(entry_in(course, "01-vector-add"));
  REQUIRE(restored.has_value());
  CHECK(test::contains(*restored, "already the original stub"));
  CHECK_FALSE(std::filesystem::exists(course.path() / ".tilecamp" / "reset"));
}

TEST_CASE("stubs: without a kept copy, reset is an error that says how to get the stub back") {
  test::ScratchFolder course;
  course.write("exercises/01-vector-add/kernel.cu", "// mine\n");
  auto restored = runner::StubStore(course.path()).restore(entry_in(course, "01-vector-add"));
  REQUIRE_FALSE(restored.has_value());
  CHECK(test::contains(restored.error(), "no copy of 01-vector-add's stub was kept"));
  CHECK(test::contains(restored.error(), "git checkout exercises/01-vector-add/kernel.cu"));
  CHECK(course.read("exercises/01-vector-add/kernel.cu") == "// mine\n");
}

}  // namespace
}  // namespace tilecamp
