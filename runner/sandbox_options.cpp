#include "runner/sandbox_options.h"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <iostream>

#include "runner/terminal.h"

namespace tilecamp::runner {

void add_sandbox_options(CommandLine& command, SandboxChoice& choice, double default_seconds) {
  choice.seconds = default_seconds;
  command.option("--time-limit", choice.seconds,
                      "seconds one check may take, compiling included (default " + std::to_string(static_cast<int>(default_seconds)) + ")")
      .range(1.0, 86400.0);
  command.option("--memory-limit", choice.memory_mib, "MiB of memory one check may use (default 2048)")
      .range(int64_t{256}, int64_t{1} << 20);
  command.flag("--no-sandbox", choice.no_sandbox,
                    "compile and run kernels without Landlock and seccomp (limits still apply): unsafe for kernels "
                    "you did not write");
}

std::string this_program() {
  char self[PATH_MAX] = {};
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  return length > 0 ? std::string(self, static_cast<size_t>(length)) : "tilecamp";
}

Expected<std::shared_ptr<sandbox::Sandbox>> open_sandbox(const SandboxChoice& choice, bool require_confinement) {
  if (!choice.no_sandbox) {
    const sandbox::Mechanisms mechanisms = sandbox::available_mechanisms();
    if (!mechanisms.complete() && require_confinement) {
      return make_error("this machine cannot sandbox students' kernels: " + mechanisms.missing() +
                        ". Grade on a newer Linux, or anyway (a kernel could then read any file tilecamp can) with --no-sandbox");
    }
    static std::atomic_flag noted = ATOMIC_FLAG_INIT;
    if (!mechanisms.complete() && !noted.test_and_set()) {
      std::cerr << style_for(stderr).dim("note: kernels run with time and memory limits but without the full sandbox: " +
                                         mechanisms.missing())
                << "\n";
    }
  }
  sandbox::SandboxOptions options;
  options.program = this_program();
  options.limits.seconds = choice.seconds;
  options.limits.memory_bytes = choice.memory_mib << 20;
  options.confine = !choice.no_sandbox;
  options.name_options = !require_confinement;  // a class's grading: students cannot change the limits
  return sandbox::Sandbox::create(std::move(options));
}

}  // namespace tilecamp::runner
