// tilecamp: the course's command-line program. main() only dispatches to the commands' table.
#include <cstdlib>
#include <string>

#include "checker/gpu/worker.h"
#include "checker/sandbox/sandbox_worker.h"
#include "runner/backend_choice.h"
#include "runner/command.h"
#include "runner/classroom/roster_jobs.h"
#include "runner/terminal.h"

namespace {

const tilecamp::runner::Command k_commands[] = {
    {"autograder", tilecamp::runner::setup_autograder_command},
    {"check", tilecamp::runner::setup_check_command},
    {"check-all", tilecamp::runner::setup_check_all_command},
    {"classroom", tilecamp::runner::setup_classroom_command},
    {"completion", tilecamp::runner::setup_completion_command},
    {"dev", tilecamp::runner::setup_dev_command},
    {"explain", tilecamp::runner::setup_explain_command},
    {"grade", tilecamp::runner::setup_grade_command},
    {"hint", tilecamp::runner::setup_hint_command},
    {"init", tilecamp::runner::setup_init_command},
    {"lesson", tilecamp::runner::setup_lesson_command},
    {"list", tilecamp::runner::setup_list_command},
    {"next", tilecamp::runner::setup_next_command},
    {"profile", tilecamp::runner::setup_profile_command},
    {"reset", tilecamp::runner::setup_reset_command},
    {"solution", tilecamp::runner::setup_solution_command},
    {"viz", tilecamp::runner::setup_viz_command},
    {"watch", tilecamp::runner::setup_watch_command},
};

}  // namespace

int main(int argc, char** argv) {
  // The GPU backend's worker process: tilecamp __gpu-worker IN_FD OUT_FD (never typed by people).
  if (argc == 4 && std::string(argv[1]) == tilecamp::runner::k_worker_argument) {
    return tilecamp::gpu::run_worker(std::atoi(argv[2]), std::atoi(argv[3]));
  }
  // The sandbox that compiles and emulates untrusted kernels (never typed by people).
  if (argc >= 2 && std::string(argv[1]) == tilecamp::sandbox::k_sandbox_argument) {
    return tilecamp::sandbox::run_sandbox_worker(argc, argv);
  }
  // One submission graded for `tilecamp grade`, in a process of its own (never typed by people).
  if (argc >= 2 && std::string(argv[1]) == tilecamp::runner::k_grade_one_argument) {
    return tilecamp::runner::run_grade_one(argc, argv);
  }
  const tilecamp::runner::ProgramText text{
      "tilecamp: learn the GPU memory hierarchy by writing CUDA kernels", "tilecamp",
      std::string("tilecamp ") + TILECAMP_VERSION,
      "tilecamp alone runs the course in this terminal: the lesson you are on, then its exercise, checked again\n"
      "at every save of its kernel.cu. Keys there: n next, h hint, l list, v lesson, r re-check, s solution (once\n"
      "it passes), x reset, q quit. Not on a terminal, it prints where you are and the exercises.\n\n"
      "Start a course folder of your own: tilecamp init DIR, then cd DIR && tilecamp.\n\n"
      "Environment: TILECAMP_ROOT the course folder (else the nearest folder above with exercises/course.toml);\n"
      "NO_COLOR no colour; TILECAMP_NO_PAGER=1 print lessons without the pager; TILECAMP_CACHE_DIR where compiled\n"
      "kernels are kept (default ~/.cache/tilecamp/ptx; off keeps none)."};
  return tilecamp::runner::run_program(argc, argv, text, k_commands, tilecamp::runner::run_course_overview);
}
