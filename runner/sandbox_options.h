// The limits and the sandbox every command that compiles or runs a kernel shares (check, watch,
// check-all, profile, explain, grade, dev check): --time-limit, --memory-limit, --no-sandbox.
#pragma once

#include "runner/cli.h"
#include <memory>
#include <string>

#include "checker/sandbox/sandbox.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

struct SandboxChoice {
  double seconds = 60;           // one check's wall-clock time
  uint64_t memory_mib = 2048;    // the sandbox's address space
  bool no_sandbox = false;       // limits only: no Landlock, no seccomp (unsafe for others' kernels)
};

// Adds --time-limit (default `default_seconds`), --memory-limit and --no-sandbox to `command`.
void add_sandbox_options(CommandLine& command, SandboxChoice& choice, double default_seconds);

// A sandbox for this program's checks. Where the machine lacks Landlock or seccomp: with
// `require_confinement` (grading others' kernels) an Error saying so and that --no-sandbox would
// go on unsafely; without it, a note on stderr, once per process, and a sandbox with the limits.
Expected<std::shared_ptr<sandbox::Sandbox>> open_sandbox(const SandboxChoice& choice, bool require_confinement);

// This very program's path (/proc/self/exe), to start it again as a worker.
std::string this_program();

}  // namespace tilecamp::runner
