// Reading an exercise's metadata (exercises/NN-name/exercise.toml): what a course author sees
// when the file is malformed, and what a learner sees when they name an exercise that is not there.
#include <doctest/doctest.h>

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "checker/grade/cases.h"
#include "checker/grade/exercise.h"
#include "checker/grade/metrics.h"
#include "tests/test_support.h"

namespace tilecamp {
namespace {

constexpr const char* k_valid_toml = R"toml(title = "Tiled transpose"
kernel = "transposeTiled"
hints = ["Stage the tile in shared memory."]
stub_fails = ["global_st_sectors_per_request"]

[constants]
required = ["TILE_DIM"]
optional = { BLOCK_ROWS = "TILE_DIM" }

[problem]
dims = ["width", "height"]
public = [[64, 64], [50, 37]]
hidden_ranges = { width = [1, 200], height = [1, 200] }
performance = [768, 544]

[[param]]
name = "in"
type = "const float*"
role = "in"
shape = ["height", "width"]
values = [-100, 100]

[[param]]
name = "out"
type = "float*"
role = "out"
shape = ["width", "height"]

[[param]]
name = "width"
type = "int"
role = "scalar"
value = "width"

[[param]]
name = "height"
type = "int"
role = "scalar"
value = "height"

[launch]
block = ["TILE_DIM", "BLOCK_ROWS"]
grid = ["ceil_div(width, TILE_DIM)", "ceil_div(height, TILE_DIM)"]

[reference]
builtin = "transpose"

[thresholds.emulator]
global_st_sectors_per_request = 4.0
)toml";

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

  void write_index(const std::string& toml) const {
    std::filesystem::create_directories(m_root / "exercises");
    std::ofstream(m_root / "exercises" / "course.toml") << toml;
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
  CHECK(exercise->kernel == "transposeTiled");
  CHECK(exercise->required_constants == std::vector<std::string>{"TILE_DIM"});
  CHECK(exercise->optional_constants == std::map<std::string, std::string>{{"BLOCK_ROWS", "TILE_DIM"}});
  CHECK(exercise->problem.dims == std::vector<std::string>{"width", "height"});
  CHECK(exercise->problem.public_cases == std::vector<std::vector<int64_t>>{{64, 64}, {50, 37}});
  CHECK(exercise->problem.performance == std::vector<int64_t>{768, 544});
  CHECK(exercise->problem.ranges.at("width") == std::pair<int64_t, int64_t>{1, 200});
  REQUIRE(exercise->params.size() == 4);
  CHECK(exercise->params[0].pointer);
  CHECK(exercise->params[0].role == grade::ParamRole::In);
  CHECK(exercise->params[0].low == -100);
  CHECK(exercise->params[1].role == grade::ParamRole::Out);
  CHECK(exercise->params[2].role == grade::ParamRole::Scalar);
  CHECK(exercise->params[2].value == "width");
  CHECK(exercise->launch.grid.size() == 2);
  CHECK_FALSE(exercise->launch.cooperative);
  CHECK(exercise->reference.builtin == "transpose");
  CHECK_FALSE(exercise->compare.relative);
  CHECK(exercise->hints.size() == 1);
  REQUIRE(exercise->emulator_thresholds.size() == 1);
  CHECK(exercise->emulator_thresholds[0].metric == "global_st_sectors_per_request");
  CHECK(exercise->emulator_thresholds[0].bound == 4.0);
  CHECK_FALSE(exercise->emulator_thresholds[0].at_least);
  CHECK(exercise->stub_path() == directory / "kernel.cu");
}

TEST_CASE("a launch marked cooperative is launched so: every block resident") {
  TemporaryCourse course;
  const auto directory = course.add_exercise("02-transpose-tiled", replaced(k_valid_toml, "grid = [", "cooperative = true\ngrid = ["));
  auto exercise = grade::load_exercise(directory);
  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  CHECK(exercise->launch.cooperative);
  auto config = grade::launch_config(exercise->launch, {{"width", 64}, {"height", 64}, {"TILE_DIM", 32}, {"BLOCK_ROWS", 8}});
  REQUIRE_MESSAGE(config.has_value(), (config ? "" : config.error()));
  CHECK(config->cooperative);
}

TEST_CASE("a TOML syntax error names the file and the line") {
  TemporaryCourse course;
  const auto directory =
      course.add_exercise("broken", replaced(k_valid_toml, "kernel = \"transposeTiled\"", "kernel \"transposeTiled\""));

  const std::string error = load_error(directory);

  INFO(error);
  CHECK(error.starts_with((directory / "exercise.toml").string() + ":2:"));
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
      "typo", replaced(k_valid_toml, "global_st_sectors_per_request = 4.0", "global_st_sector_per_request = 4.0"));

  const std::string error = load_error(directory);

  INFO(error);
  CHECK(test::contains(error, "`thresholds.emulator.global_st_sector_per_request`: unknown metric"));
  for (const std::string& metric : grade::known_metrics("emulator")) CHECK_MESSAGE(test::contains(error, metric), metric);
}

TEST_CASE("malformed fields are errors naming the file, the field and what was expected") {
  struct Case {
    const char* what;
    const char* from;
    const char* to;
    const char* error;
  };
  const Case cases[] = {
      {"a misspelt field", "hints = [", "hint = [", "unknown field `hint` (known here: title, kernel,"},
      {"a cooperative launch that is not a boolean", "grid = [", "cooperative = \"yes\"\ngrid = [",
       "field `launch.cooperative`: expected true or false"},
      {"an unknown name in an expression", "ceil_div(height, TILE_DIM)", "ceil_div(height, TILE)",
       "field `launch.grid`: expected expressions: unknown name `TILE` (known: BLOCK_ROWS, TILE_DIM, height, width)"},
      {"a syntax error in an expression", "value = \"width\"", "value = \"width +\"",
       "field `param[2].value`: expected an expression: the expression ends too early in `width +`"},
      {"a case with too few dimensions", "[50, 37]]", "[50]]", "field `problem.public`: expected a list of cases, each a list of 2 positive integers"},
      {"an unknown role", "role = \"out\"", "role = \"output\"", "field `param[1].role`: expected in, out, inout or scalar"},
      {"an unknown type", "type = \"float*\"", "type = \"double*\"", "field `param[1].type`: expected float, int or unsigned"},
      {"a hot share that is no probability", "role = \"in\"", "role = \"in\"\nhot_share = 1.5",
       "field `param[0].hot_share`: expected a probability in [0, 1]"},
      {"a hot share on an output", "role = \"out\"", "role = \"out\"\nhot_share = 0.5",
       "field `param[1].hot_share`: expected an input (role in or inout)"},
      {"a builtin reference without its parameter", "name = \"out\"", "name = \"result\"",
       "field `reference.builtin`: expected `transpose` writes a float output parameter named `out`"},
      {"an unknown builtin reference", "builtin = \"transpose\"", "builtin = \"transposition\"",
       "field `reference.builtin`: expected one of the built-in references (vector_add, copy, transpose,"},
      {"a speedup without a baseline", "global_st_sectors_per_request = 4.0", "modelled_speedup = 2",
       "field `baseline`: expected a [baseline] kernel: a speedup threshold measures against it"},
      {"a dimension without a hidden range", "hidden_ranges = { width = [1, 200], height = [1, 200] }",
       "hidden_ranges = { width = [1, 200] }", "field `problem.hidden_ranges.height`: expected a range [low, high]"},
      {"a NaN threshold", "global_st_sectors_per_request = 4.0", "global_st_sectors_per_request = nan",
       "field `thresholds.emulator.global_st_sectors_per_request`: expected a finite number"},
      {"an infinite threshold", "global_st_sectors_per_request = 4.0", "global_st_sectors_per_request = inf",
       "field `thresholds.emulator.global_st_sectors_per_request`: expected a finite number"},
      {"a division by zero in a scalar", "value = \"width\"", "value = \"width / (height - height)\"",
       "field `param[2].value`: expected an expression: division by zero in `width / (height - height)`"},
      {"a division by zero at one case's size", "value = \"width\"", "value = \"width / (height - 37)\"",
       "field `problem.public[1]`: division by zero in `width / (height - 37)`"},
      {"hidden ranges whose largest case has buffers too large", "width = [1, 200]", "width = [1, 2000000]",
       "field `problem.hidden_ranges`: buffer `in` would have 400000000 elements"},
      {"a performance case over the buffer limit", "performance = [768, 544]", "performance = [100000, 100000]",
       "field `problem.performance`: buffer `in` would have 10000000000 elements"},
      {"a case whose work the emulator cannot do in seconds", "performance = [768, 544]",
       "performance = [768, 544]\nfmas = \"width * height * width\"",
       "field `problem.performance`: the case would take 320864256 multiply-adds"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    TemporaryCourse course;
    const auto directory = course.add_exercise("broken", replaced(k_valid_toml, c.from, c.to));
    const std::string error = load_error(directory);
    INFO(error);
    CHECK(error.starts_with((directory / "exercise.toml").string() + ": "));
    CHECK(test::contains(error, c.error));
  }
}

TEST_CASE("find_exercise loads the exercise of that name, its lesson from the course index") {
  TemporaryCourse course;
  course.add_exercise("02-transpose-tiled", k_valid_toml);
  course.write_index("[[exercise]]\nid = \"02-transpose-tiled\"\nlesson = 2\n");

  auto exercise = grade::find_exercise(course.root(), "02-transpose-tiled");

  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  CHECK(exercise->kernel == "transposeTiled");
  CHECK(exercise->lesson == 2);
}

TEST_CASE("find_exercise with an unknown name lists the course's exercises in the index's order") {
  TemporaryCourse course;
  course.add_exercise("01-copy", k_valid_toml);
  course.add_exercise("02-transpose-tiled", k_valid_toml);
  course.write_index("[[exercise]]\nid = \"02-transpose-tiled\"\nlesson = 2\n[[exercise]]\nid = \"01-copy\"\nlesson = 1\n");

  auto exercise = grade::find_exercise(course.root(), "03-no-such-exercise");

  REQUIRE_FALSE(exercise.has_value());
  INFO(exercise.error());
  CHECK(test::contains(exercise.error(), "no exercise named `03-no-such-exercise`; the exercises are:\n  02-transpose-tiled\n  01-copy"));
}

TEST_CASE("a course index that names a missing folder, or one twice, is an error naming the entry") {
  TemporaryCourse course;
  course.add_exercise("01-copy", k_valid_toml);
  course.write_index("[[exercise]]\nid = \"01-copy\"\nlesson = 1\n[[exercise]]\nid = \"01-kopy\"\nlesson = 1\n");
  auto missing = grade::load_course(course.root());
  REQUIRE_FALSE(missing.has_value());
  CHECK(test::contains(missing.error(), "field `exercise[1].id`: expected an exercise folder; there is no "));

  course.write_index("[[exercise]]\nid = \"01-copy\"\nlesson = 1\n[[exercise]]\nid = \"01-copy\"\nlesson = 1\n");
  auto twice = grade::load_course(course.root());
  REQUIRE_FALSE(twice.has_value());
  CHECK(test::contains(twice.error(), "`01-copy` is listed twice"));

  course.write_index("[[exercise]]\nid = \"01-copy\"\n");
  auto no_lesson = grade::load_course(course.root());
  REQUIRE_FALSE(no_lesson.has_value());
  CHECK(test::contains(no_lesson.error(), "field `exercise[0].lesson`: expected a lesson number"));
}

TEST_CASE("hot_share skews the second half of an input and leaves the first half uniform") {
  auto exercise = grade::find_exercise(test::source_path(""), "10-histogram");
  REQUIRE_MESSAGE(exercise.has_value(), (exercise ? "" : exercise.error()));
  REQUIRE(exercise->params[0].hot_share == doctest::Approx(0.875));
  auto data = grade::make_case_data(*exercise, {{8192}, false, false}, 3);
  REQUIRE_MESSAGE(data.has_value(), (data ? "" : data.error()));
  const std::vector<uint8_t>& bytes = data->buffers[0].bytes;
  REQUIRE(bytes.size() == 8192 * 4);
  auto most_common = [&](size_t first, size_t end) {
    std::map<uint32_t, size_t> counts;
    for (size_t i = first; i < end; ++i) {
      uint32_t value = 0;
      std::memcpy(&value, bytes.data() + i * 4, 4);
      CHECK(value < 256);
      ++counts[value];
    }
    size_t most = 0;
    for (const auto& [value, count] : counts) most = std::max(most, count);
    return static_cast<double>(most) / static_cast<double>(end - first);
  };
  CHECK(most_common(0, 4096) < 0.02);    // uniform over 256 values: about 1/256 each
  CHECK(most_common(4096, 8192) > 0.85);  // 7 in 8 hot, plus its uniform share
}

}  // namespace
}  // namespace tilecamp
