// tilecamp classroom --out DIR [--exercises ID,...] [--seed N] [--repository OWNER/NAME] [--ref REF]
// A GitHub Classroom autograding workflow for the assignment repository (a course folder made by
// `tilecamp init`): DIR/.github/workflows/classroom.yml builds tilecamp (cached by its commit) and
// grades each exercise as one test of GitHub Classroom's command grader, worth the exercise's
// points, then reports them with its grading reporter.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <iostream>

#include "checker/report/scoring.h"
#include "runner/classroom/bundle.h"
#include "runner/classroom/roster.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace fs = std::filesystem;
namespace {

constexpr const char* k_default_repository = "OWNER/tilecamp";

struct ClassroomOptions {
  std::string out;
  std::vector<std::string> exercises;
  std::optional<uint64_t> seed;
  std::string repository = k_default_repository;
  std::string ref = "main";
  int timeout_minutes = 10;
};

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The step id of an exercise's test (an id starts with a letter) and the variable the reporter
// reads its result from: the id in capitals, then _RESULTS.
std::string step_id(const std::string& exercise) { return "exercise-" + exercise; }
std::string results_variable(const std::string& exercise) {
  std::string name = step_id(exercise);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name + "_RESULTS";
}

// The workflow. The command grader runs each command with /bin/sh in the repository's root, with
// PATH and HOME alone from the environment: the commands name tilecamp by its path.
std::string workflow(const ClassroomOptions& options, const std::vector<grade::CourseEntry>& exercises,
                     const std::vector<std::string>& titles, uint64_t seed, int cuda_major) {
  std::string yaml = fmt::format(
      "# GitHub Classroom autograding: each exercise is one test, worth its {} points when `tilecamp check`\n"
      "# passes it whole (correct and fast enough). Written by `tilecamp classroom`; docs/instructors.md.\n"
      "name: Autograding Tests\n"
      "\"on\":\n"
      "  - push\n"
      "  - repository_dispatch\n"
      "permissions:\n"
      "  checks: write\n"
      "  actions: read\n"
      "  contents: read\n"
      "jobs:\n"
      "  run-autograding-tests:\n"
      "    runs-on: ubuntu-latest\n"
      "    if: github.actor != 'github-classroom[bot]'\n"
      "    steps:\n"
      "      - name: Checkout the assignment\n"
      "        uses: actions/checkout@v4\n"
      "      - name: Checkout tilecamp\n"
      "        uses: actions/checkout@v4\n"
      "        with:\n"
      "          repository: {}\n"
      "          ref: {}\n"
      "          path: .tilecamp/src\n"
      "      - name: Which tilecamp\n"
      "        id: tilecamp\n"
      "        run: echo \"commit=$(git -C .tilecamp/src rev-parse HEAD)\" >> \"$GITHUB_OUTPUT\"\n"
      "      - name: Install NVRTC and the build's packages\n"
      "        run: |\n"
      "          sudo apt-get update -q\n"
      "          sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake g++ libcmark-dev doctest-dev \\\n"
      "            libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libseccomp-dev wget\n"
      "          . /etc/os-release\n"
      "          wget -q -O /tmp/cuda-keyring.deb \\\n"
      "            \"https://developer.download.nvidia.com/compute/cuda/repos/${{ID}}${{VERSION_ID//./}}/x86_64/cuda-keyring_1.1-1_all.deb\"\n"
      "          sudo dpkg -i /tmp/cuda-keyring.deb\n"
      "          sudo apt-get update -q\n"
      "          version=$(apt-cache search --names-only '^cuda-nvrtc-dev-{}-[0-9]+$' | sed -n 's/^cuda-nvrtc-dev-\\([0-9-]*\\) .*/\\1/p' | sort -t- -k2 -n | tail -n 1)\n"
      "          sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q \"cuda-nvrtc-dev-$version\" \"cuda-cudart-dev-$version\" \"cuda-cccl-$version\"\n"
      "          echo \"CUDA_ROOT=/usr/local/cuda-${{version/-/.}}\" >> \"$GITHUB_ENV\"\n"
      "      - name: Cache the tilecamp build\n"
      "        id: cache\n"
      "        uses: actions/cache@v4\n"
      "        with:\n"
      "          path: .tilecamp/build\n"
      "          key: tilecamp-${{{{ runner.os }}}}-${{{{ steps.tilecamp.outputs.commit }}}}\n"
      "      - name: Build tilecamp\n"
      "        if: steps.cache.outputs.cache-hit != 'true'\n"
      "        run: |\n"
      "          cmake -S .tilecamp/src -B .tilecamp/build -DCMAKE_BUILD_TYPE=Release -DTILECAMP_BUILD_TESTS=OFF \\\n"
      "            -DCUDAToolkit_ROOT=\"$CUDA_ROOT\"\n"
      "          cmake --build .tilecamp/build --target tilecamp -j\"$(nproc)\"\n",
      report::k_points_per_exercise, quoted(options.repository), quoted(options.ref), cuda_major);
  std::vector<std::string> runners;
  for (size_t e = 0; e < exercises.size(); ++e) {
    const std::string& id = exercises[e].id;
    const std::string name = id + ": " + titles[e];
    yaml += fmt::format(
        "      - name: {}\n"
        "        id: {}\n"
        "        uses: classroom-resources/autograding-command-grader@v1\n"
        "        with:\n"
        "          test-name: {}\n"
        "          command: {}\n"
        "          timeout: {}\n"
        "          max-score: {}\n",
        quoted(name), step_id(id), quoted(name),
        quoted(fmt::format(".tilecamp/build/runner/tilecamp check {} --seed {}", id, seed)), options.timeout_minutes,
        report::k_points_per_exercise);
    runners.push_back(step_id(id));
  }
  yaml +=
      "      - name: Autograding Reporter\n"
      "        uses: classroom-resources/autograding-grading-reporter@v1\n"
      "        env:\n";
  for (const grade::CourseEntry& entry : exercises) {
    yaml += fmt::format("          {}: \"${{{{ steps.{}.outputs.result }}}}\"\n", results_variable(entry.id), step_id(entry.id));
  }
  yaml += fmt::format(
      "        with:\n"
      "          runners: {}\n",
      fmt::join(runners, ","));
  return yaml;
}

int run_classroom(const ClassroomOptions& options) {
  auto chosen = load_chosen_course(options.exercises);
  if (!chosen) return fail_with(chosen.error());
  std::vector<std::string> titles;
  for (const grade::CourseEntry& entry : chosen->exercises) {
    auto exercise = grade::load_course_exercise(entry);
    if (!exercise) return fail_with(exercise.error());
    titles.push_back(exercise->title);
  }
  const fs::path file = fs::path(options.out) / ".github" / "workflows" / "classroom.yml";
  std::error_code error;
  if (fs::exists(fs::symlink_status(file, error))) {
    return fail_with(file.string() + " exists: remove it first (it may hold your own changes)");
  }
  const uint64_t seed = options.seed ? *options.seed : fresh_secret_seed();
  if (auto written = write_file_atomically(file, workflow(options, chosen->exercises, titles, seed, linked_nvrtc_major())); !written) {
    return fail_with(written.error());
  }
  std::cout << fmt::format("{}: {} tests, {} points each, seed {}.\n", file.string(), chosen->exercises.size(),
                           report::k_points_per_exercise, seed)
            << "Commit it to the assignment's template repository (a folder made by tilecamp init), and in the\n"
               "assignment's settings choose GitHub Actions for autograding; docs/instructors.md: \"GitHub Classroom\".\n";
  if (options.repository == k_default_repository) {
    std::cerr << style_for(stderr).yellow("warning") << ": give --repository OWNER/NAME (where tilecamp's source is on "
              << "GitHub), or edit `repository: " << k_default_repository << "` in the workflow\n";
  }
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_classroom_command(CommandLine& app) {
  auto options = std::make_shared<ClassroomOptions>();
  CommandLine command = app.subcommand("classroom", "Write a GitHub Classroom autograding workflow for the course (instructors)");
  command.footer(
      "Examples:\n"
      "  tilecamp classroom --out assignment --repository my-dept/tilecamp\n"
      "  tilecamp classroom --out hw2 --exercises 02-transpose-tiled,02-stencil-1d --repository my-dept/tilecamp --ref v1.4\n\n"
      "Writes DIR/.github/workflows/classroom.yml: on each push it builds tilecamp from --repository at --ref (the\n"
      "build cached by commit), runs `tilecamp check ID --seed N` for each exercise as one test of\n"
      "classroom-resources/autograding-command-grader worth the exercise's 2 points (all or nothing: it passes\n"
      "only when check passes it whole), and reports them with classroom-resources/autograding-grading-reporter.\n"
      "GitHub Classroom cannot hide tests from the student (the workflow runs in their repository): use\n"
      "tilecamp grade or tilecamp autograder for hidden tests. docs/instructors.md: \"GitHub Classroom\".");
  command.option("--out", options->out, "the assignment repository's folder (the workflow goes to .github/workflows/)").required();
  command.option("--exercises", options->exercises, "grade only these exercises (ID,ID,...; default: all)").delimiter(',');
  command.option("--seed", options->seed, "seed of every check (default: a fresh one)")
      .check(
          [](const std::string& text) {
            return text.starts_with("-") ? std::string("the seed is a non-negative integer (0 to 18446744073709551615)")
                                         : std::string();
          },
          "");
  command.option("--repository", options->repository, "OWNER/NAME of tilecamp's source on GitHub, which the workflow builds");
  command.option("--ref", options->ref, "the branch, tag or commit of it to build (default main)");
  command.option("--timeout", options->timeout_minutes, "minutes each exercise's test may take (default 10)").range(int64_t{1}, int64_t{360});
  return [options] { return run_classroom(*options); };
}

}  // namespace tilecamp::runner
