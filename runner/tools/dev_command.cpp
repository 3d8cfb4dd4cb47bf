// tilecamp dev check: the course's self-check, for whoever writes exercises (and for CI).
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/grade/self_check.h"
#include "checker/report/style.h"
#include "runner/command.h"
#include "runner/ptx_cache.h"
#include "runner/sandbox_options.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

int run_self_check(bool json) {
  auto root = find_course_root();
  if (!root) {
    std::cerr << "error: " << k_no_course << "\n";
    return k_exit_usage;
  }
  // Every exercise's stub and solution graded in one sandbox: time for all of them.
  auto sandbox = open_sandbox({600, 2048, false}, false);
  if (!sandbox) {
    std::cerr << "error: " << sandbox.error() << "\n";
    return k_exit_usage;
  }
  std::unique_ptr<Compiler> compiler = cached_compiler(**sandbox);
  const grade::SelfCheckReport self_check =
      grade::self_check_course(*root, *compiler, [sandbox = *sandbox] { return sandbox->emulator(); });
  const std::vector<grade::SelfCheckResult>& results = self_check.exercises;
  const bool all_passed = self_check.passed();
  nlohmann::ordered_json report = {{"passed", all_passed}, {"course_problems", self_check.course_problems},
                                   {"exercises", nlohmann::ordered_json::array()}};
  const report::Style style = style_for(stdout);
  if (!json) {
    for (const std::string& problem : self_check.course_problems) std::cout << "  " << style.red("FAIL") << "  " << problem << "\n";
  }
  for (const grade::SelfCheckResult& result : results) {
    report["exercises"].push_back({{"exercise", result.exercise}, {"passed", result.passed}, {"problems", result.problems}});
    if (json) continue;
    std::cout << "  " << (result.passed ? style.green("PASS") : style.red("FAIL")) << "  " << result.exercise << "\n";
    for (const std::string& problem : result.problems) std::cout << "        " << problem << "\n";
  }
  if (json) {
    std::cout << report.dump(2) << "\n";
  } else {
    std::cout << "\n" << results.size() << " exercise(s): "
              << (all_passed ? "every stub fails for its reason and every solution passes\n" : "the course has problems (above)\n");
  }
  return all_passed ? k_exit_ok : k_exit_failed;
}

}  // namespace

std::function<int()> setup_dev_command(CommandLine& app) {
  CommandLine dev = app.subcommand("dev", "Tools for course authors");
  CommandLine check = dev.subcommand("check", "Self-check the course: every stub fails for its reason, every solution passes");
  check.footer("Example:\n  tilecamp dev check --json\n\nExit status: 0 all good, 1 a problem was found, 2 no course found.");
  auto json = std::make_shared<bool>(false);
  check.flag("--json", *json, "print the results as JSON");
  dev.require_subcommand(1, 1);
  return [json] { return run_self_check(*json); };
}

}  // namespace tilecamp::runner
