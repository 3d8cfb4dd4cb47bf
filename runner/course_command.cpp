// `tilecamp` with no command: where the course stands and what to do next.
#include <algorithm>
#include <iostream>

#include "checker/grade/exercise.h"
#include "runner/command.h"
#include "runner/terminal.h"

namespace tilecamp::runner {

int run_course_overview() {
  const report::Style style = style_for(stdout);
  auto root = find_course_root();
  if (!root) {
    std::cerr << style.red("error") << ": cannot find the course: run tilecamp inside the course folder "
              << "(the one with exercises/), or set TILECAMP_ROOT to it\n";
    return k_exit_usage;
  }
  std::cout << style.bold("tilecamp") << ": the GPU memory hierarchy, learned by writing CUDA kernels\n\n"
            << "Kernels are graded on tilecamp's emulator: it runs the PTX that NVRTC makes of your file\n"
            << "and counts what Nsight Compute counts on a real GPU, line by line. No GPU is needed.\n\n"
            << style.bold("Exercises") << "\n";
  std::vector<std::filesystem::path> folders;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(*root / "exercises", error)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  std::string first;
  for (const auto& folder : folders) {
    auto exercise = grade::load_exercise(folder);
    if (!exercise) {
      std::cout << "  " << style.red(folder.filename().string()) << "  " << exercise.error() << "\n";
      continue;
    }
    if (first.empty()) first = exercise->name;
    std::cout << "  " << style.cyan(exercise->name) << "  " << exercise->title << " (lesson " << exercise->lesson
              << ")  " << style.dim("exercises/" + exercise->name + "/kernel.cu") << "\n";
  }
  if (!first.empty()) {
    std::cout << "\n" << style.bold("Start here") << ": open exercises/" << first
              << "/kernel.cu in your editor, follow its TODOs, then run\n"
              << "  tilecamp check " << first << "\n";
  }
  std::cout << "\nProfile any kernel: tilecamp profile FILE.cu --kernel NAME --grid X,Y --block X,Y --arg SPEC...\n"
            << "Every command: tilecamp --help\n";
  return k_exit_ok;
}

}  // namespace tilecamp::runner
