// tilecamp list [--json]: the exercises lesson by lesson, done or pending, with a progress bar.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/grade/exercise.h"
#include "runner/command.h"
#include "runner/progress.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

// The lesson's title: the first `# ` heading of lessons/NN-*.md.
std::string lesson_title(const std::filesystem::path& root, int lesson) {
  const std::string prefix = fmt::format("{:02d}-", lesson);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root / "lessons", error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".md")) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with("# ")) continue;
      const std::string title = line.substr(2);  // "Lesson 1: Coalescing" -> "Coalescing"
      const size_t colon = title.find(": ");
      return title.starts_with("Lesson ") && colon != std::string::npos ? title.substr(colon + 2) : title;
    }
  }
  return "";
}

std::string bar(size_t done, size_t total, size_t width) {
  const size_t filled = total == 0 ? 0 : done * width / total;
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "]";
}

int run_list(bool json) {
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
  const Progress progress = Progress::load(*root);
  if (!progress.repair_note().empty()) std::cerr << style_for(stderr).yellow("note") << ": " << progress.repair_note() << "\n";
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  std::vector<bool> done;
  for (const grade::CourseEntry& entry : course->exercises) {
    std::string contents, ignored;
    const bool readable = read_file(entry.directory / "kernel.cu", contents, ignored);
    done.push_back(readable && progress.done(entry.id, contents));
    items.push_back({{"id", entry.id},
                     {"lesson", entry.lesson},
                     {"path", "exercises/" + entry.id + "/kernel.cu"},
                     {"solution", "solutions/" + entry.id + "/kernel.cu"},
                     {"done", done.back()}});
  }
  if (json) {
    std::cout << nlohmann::ordered_json{{"exercises", items}}.dump(2) << "\n";
    return k_exit_ok;
  }
  const report::Style style = style_for(stdout);
  const size_t total_done = static_cast<size_t>(std::count(done.begin(), done.end(), true));
  std::cout << style.bold("Progress") << "  " << bar(total_done, done.size(), 30) << "  " << total_done << "/"
            << done.size() << " exercises done\n";
  int lesson = 0;
  for (size_t i = 0; i < course->exercises.size(); ++i) {
    const grade::CourseEntry& entry = course->exercises[i];
    if (entry.lesson != lesson) {
      lesson = entry.lesson;
      std::cout << "\n" << style.bold(fmt::format("Lesson {}", lesson)) << "  " << lesson_title(*root, lesson)
                << style.dim(fmt::format("   (tilecamp lesson {})", lesson)) << "\n";
    }
    auto exercise = grade::load_course_exercise(entry);
    std::cout << "  " << (done[i] ? style.green("done   ") : style.yellow("pending")) << "  " << fmt::format("{:<28}", entry.id)
              << (exercise ? exercise->title : style.red(exercise.error())) << "\n";
  }
  std::cout << "\nCheck one: tilecamp check EXERCISE    all of them: tilecamp check-all\n";
  return k_exit_ok;
}

}  // namespace

std::function<int()> setup_list_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("list", "List the exercises lesson by lesson, done or pending");
  command->footer(
      "Examples:\n"
      "  tilecamp list\n"
      "  tilecamp list --json   # {\"exercises\": [{\"id\", \"lesson\", \"path\", \"solution\", \"done\"}]}\n\n"
      "An exercise is done when its last check passed and its kernel.cu has not changed since.");
  command->add_flag("--json", *json, "print the list as JSON");
  return [json] { return run_list(*json); };
}

}  // namespace tilecamp::runner
