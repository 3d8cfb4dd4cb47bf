// tilecamp check-all [--jobs N] [--seed N] [--backend ...] [--json]: every exercise of the course,
// the learner's own kernel.cu files, in parallel, with a line per exercise as it finishes.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

#include "checker/emu/emulator.h"
#include "checker/gpu/gpu_backend.h"
#include "checker/report/verdict_report.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/grading.h"
#include "runner/learner/progress.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

struct CheckAllOptions {
  std::optional<uint64_t> seed;
  std::string backend = "auto";
  std::string gpu = "h200";
  unsigned jobs = 0;
  bool json = false;
  SandboxChoice sandbox;
};

std::string status_mark(grade::VerdictStatus status, const report::Style& style) {
  switch (status) {
    case grade::VerdictStatus::Pass: return style.green("PASS ");
    case grade::VerdictStatus::Fail: return style.red("FAIL ");
    case grade::VerdictStatus::Error: return style.red("ERROR");
  }
  return "";
}

// The first check that did not pass, in a few words, for the one-line summary.
std::string first_problem(const grade::Verdict& verdict) {
  if (verdict.status == grade::VerdictStatus::Error) return verdict.error.substr(0, verdict.error.find('\n'));
  for (const grade::Check& check : verdict.checks) {
    if (check.status == grade::CheckStatus::Fail) return std::string(grade::check_kind_name(check.kind)) + ": " + check.name;
  }
  return "";
}

int run_check_all(const CheckAllOptions& options) {
  auto root = find_course_root();
  if (!root) {
    std::cerr << style_for(stderr).red("error") << ": " << k_no_course << "\n";
    return k_exit_usage;
  }
  auto course = grade::load_course(*root);
  if (!course) {
    std::cerr << style_for(stderr).red("error") << ": " << course.error() << "\n";
    return k_exit_usage;
  }
  GradeSettings settings;
  settings.seed = options.seed ? *options.seed : fresh_seed();
  settings.backend = options.backend;
  settings.gpu = options.gpu;
  settings.sandbox = options.sandbox;
  const size_t total = course->exercises.size();
  std::vector<grade::Verdict> verdicts(total);
  std::vector<std::string> contents(total);
  std::atomic<size_t> next{0};
  std::mutex print_mutex;
  size_t finished = 0;
  const report::Style style = style_for(stderr);
  const bool live = isatty(fileno(stderr));
  auto work = [&] {
    for (size_t i = next++; i < total; i = next++) {
      const grade::CourseEntry& entry = course->exercises[i];
      auto exercise = grade::load_course_exercise(entry);
      const std::filesystem::path file = entry.directory / "kernel.cu";
      verdicts[i] = exercise ? grade_file(*exercise, file, shown_path(file), settings)
                             : error_verdict(entry.id, shown_path(file), exercise.error());
      std::string ignored;
      read_file(file, contents[i], ignored);
      std::lock_guard lock(print_mutex);
      ++finished;
      if (live) std::cerr << "\r\033[K";
      std::cerr << fmt::format("  [{:>2}/{}] ", finished, total) << status_mark(verdicts[i].status, style) << " "
                << entry.id;
      const std::string problem = first_problem(verdicts[i]);
      if (!problem.empty()) std::cerr << style.dim("  " + problem);
      std::cerr << "\n";
    }
  };
  // Kernels timed side by side on one GPU would disturb each other's times: one at a time there.
  const bool may_use_gpu = options.backend != "emulator" && gpu::driver_unavailable_reason().empty();
  const unsigned wanted = may_use_gpu ? 1u : options.jobs ? options.jobs : std::thread::hardware_concurrency();
  const unsigned jobs = std::max(1u, std::min<unsigned>(wanted, static_cast<unsigned>(total)));
  std::vector<std::thread> workers;
  emu::set_default_host_threads(std::max(1u, emu::default_host_threads() / jobs));  // jobs share the cores
  for (unsigned j = 1; j < jobs; ++j) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();

  Progress progress = Progress::load(*root);
  std::string save_error;
  int passed = 0, failed = 0, errors = 0;
  for (size_t i = 0; i < total; ++i) {
    const grade::VerdictStatus status = verdicts[i].status;
    passed += status == grade::VerdictStatus::Pass;
    failed += status == grade::VerdictStatus::Fail;
    errors += status == grade::VerdictStatus::Error;
    if (status != grade::VerdictStatus::Error) {
      progress.record(course->exercises[i].id, contents[i], status == grade::VerdictStatus::Pass, save_error);
    }
  }
  if (!save_error.empty()) std::cerr << style.yellow("note") << ": progress not saved: " << save_error << "\n";
  if (total > 0) {
    for (const std::string& note : verdicts.front().notes) std::cerr << style.dim("note: " + note) << "\n";
  }
  if (options.json) {
    nlohmann::ordered_json json = {{"seed", settings.seed},
                                   {"passed", passed},
                                   {"failed", failed},
                                   {"errors", errors},
                                   {"exercises", nlohmann::ordered_json::array()}};
    for (const grade::Verdict& verdict : verdicts) json["exercises"].push_back(report::verdict_json(verdict));
    std::cout << json.dump(2) << "\n";
  } else {
    std::cout << fmt::format("\n{} of {} exercises pass ({} failed, {} could not be checked); seed {}\n", passed, total,
                             failed, errors, settings.seed)
              << (passed == static_cast<int>(total) ? "" : "Details of one: tilecamp check EXERCISE --seed " + std::to_string(settings.seed) + "\n");
  }
  if (errors > 0) return k_exit_usage;
  return failed > 0 ? k_exit_failed : k_exit_ok;
}

}  // namespace

std::function<int()> setup_check_all_command(CommandLine& app) {
  auto options = std::make_shared<CheckAllOptions>();
  CommandLine command = app.subcommand("check-all", "Grade every exercise of the course, in parallel");
  command.footer(
      "Examples:\n"
      "  tilecamp check-all                 # a line per exercise as it finishes, then a summary\n"
      "  tilecamp check-all --json --seed 7 # {\"seed\", \"passed\", \"failed\", \"errors\", \"exercises\": [verdicts]}\n\n"
      "Exit status: 0 every exercise passed, 1 some failed, 2 some could not be checked.");
  command.option("--seed", options->seed, "seed for the hidden cases and inputs (default: a fresh one, printed)");
  command.option("--backend", options->backend, k_backend_help);
  command.option("--gpu", options->gpu, "the GPU whose cost model gives the emulator's modelled speedup (default h200)");
  command.option("--jobs", options->jobs, "exercises graded at once (default: one per CPU core; one on a GPU)");
  command.flag("--json", options->json, "print every verdict as one JSON object");
  add_sandbox_options(command, options->sandbox, 60);
  return [options] { return run_check_all(*options); };
}

}  // namespace tilecamp::runner
