// Reading an exercise's metadata (exercises/NN-name/exercise.toml): what a course author sees
// when the file is malformed, and what a learner sees when they name an exercise that is not there.
#include <doctest/doctest.h>

#include <stdlib.h>  // mkdtemp

#include <fstream>
#include <string>

#include "checker/grade/exercise.h"
#include "checker/grade/metrics.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

constexpr const char* k_valid_toml = R"(title = "Tiled transpose"
lesson = 2
kernel = "transposeTiled"
problem = "transpose"
launch_constants = ["TILE_DIM"]
hints = ["Stage the tile in shared memory."]

[thresholds.emulator]
global_st_sectors_per_request = 4.0
)";

// A course folder of its own in the system's temporary folder, removed at the end of the test.
class TemporaryCourse {
 public:
  TemporaryCourse() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tilecamp-course-XXXXXX").string();
    REQUIRE_MESSAGE(mkdtemp(pattern.data()) != nullptr, "cannot create a temporary folder");
    m_root = pattern;
  }
  ~TemporaryCourse() {
    std::error_code ignored;
    std::filesystem::remove_all(m_root, ignored);
  }
  TemporaryCourse(const TemporaryCourse&) = delete;
  TemporaryCourse& operator=(const TemporaryCourse&) = delete;

  // Writes exercises/<name>/exercise.toml and returns the exercise's folder.
  std::filesystem::path add_exercise(const std::string& name, const std::string& toml) const {
    const std::filesystem::path directory = m_root / "exercises" / name;
    std::filesystem::create_directories(directory);
    std::ofstream(directory / "exercise.toml") << toml;
    return directory;
  }

  const std::filesystem::path& root() const { return m_root; }

 private:
  std::filesystem::path m_root;
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "`" << from << "` is not in the TOML");
  return text.replace(at, from.size(), to);
}

std::string load_error(const std::filesystem::path& directory) {
  auto exercise = grade::load_exercise(directory);
  REQUIRE_MESSAGE(!exercise.has_value(), "the exercise loaded, but an error was expected");
  return exercise.error();
}

TEST_CASE("a well-formed exercise.toml loads every field, the name from its folder") {
  TemporaryCourse course;
  const auto directory = course.add_exercise("02-transpose-tiled", k_valid_toml);

  auto exercise = grade::load_exercise(directory);

  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  CHECK(exercise->name == "02-transpose-tiled");
  CHECK(exercise->title == "Tiled transpose");
  CHECK(exercise->lesson == 2);
  CHECK(exercise->kernel == "transposeTiled");
  CHECK(exercise->problem == "transpose");
  CHECK(exercise->launch_constants == std::vector<std::string>{"TILE_DIM"});
  CHECK(exercise->optional_launch_constants.empty());
  CHECK(exercise->hints.size() == 1);
  REQUIRE(exercise->emulator_thresholds.size() == 1);
  CHECK(exercise->emulator_thresholds[0].metric == "global_st_sectors_per_request");
  CHECK(exercise->emulator_thresholds[0].max == 4.0);
  CHECK(exercise->stub_path() == directory / "kernel.cu");
}

TEST_CASE("a TOML syntax error names the file and the line") {
  TemporaryCourse course;
  const auto directory =
      course.add_exercise("broken", replaced(k_valid_toml, "kernel = \"transposeTiled\"", "kernel \"transposeTiled\""));

  const std::string error = load_error(directory);

  INFO(error);
  CHECK(error.starts_with((directory / "exercise.toml").string() + ":3:"));
}

TEST_CASE("a missing kernel field is named in the error") {
  TemporaryCourse course;
  const auto directory = course.add_exercise("no-kernel", replaced(k_valid_toml, "kernel = \"transposeTiled\"\n", ""));

  const std::string error = load_error(directory);

  INFO(error);
  CHECK(test::contains(error, (directory / "exercise.toml").string()));
  CHECK(test::contains(error, "field `kernel`"));
}

TEST_CASE("an unknown threshold metric is named, with the list of known metrics") {
  TemporaryCourse course;
  const auto directory = course.add_exercise(
      "typo", replaced(k_valid_toml, "global_st_sectors_per_request", "global_st_sector_per_request"));

  const std::string error = load_error(directory);

  INFO(error);
  CHECK(test::contains(error, "`thresholds.emulator.global_st_sector_per_request`: unknown metric"));
  for (const std::string& metric : grade::known_metrics()) CHECK_MESSAGE(test::contains(error, metric), metric);
}

TEST_CASE("find_exercise loads the exercise of that name") {
  TemporaryCourse course;
  course.add_exercise("02-transpose-tiled", k_valid_toml);

  auto exercise = grade::find_exercise(course.root(), "02-transpose-tiled");

  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  CHECK(exercise->kernel == "transposeTiled");
}

TEST_CASE("find_exercise with an unknown name lists the course's exercises") {
  TemporaryCourse course;
  course.add_exercise("01-copy", k_valid_toml);
  course.add_exercise("02-transpose-tiled", k_valid_toml);

  auto exercise = grade::find_exercise(course.root(), "03-no-such-exercise");

  REQUIRE_FALSE(exercise.has_value());
  INFO(exercise.error());
  CHECK(test::contains(exercise.error(), "no exercise named `03-no-such-exercise`"));
  CHECK(test::contains(exercise.error(), "\n  01-copy"));
  CHECK(test::contains(exercise.error(), "\n  02-transpose-tiled"));
}

}  // namespace
}  // namespace tilecamp
