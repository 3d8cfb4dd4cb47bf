// Confining the process that compiles and emulates a learner's kernel, with the Linux kernel's own
// mechanisms, before it reads a byte of the learner's text:
//   - limits: address space, CPU time, no files written, no core dumps, few descriptors;
//   - Landlock: the file system becomes read-only and unreadable but for the CUDA toolkit's
//     include and library folders (what NVRTC opens), and nothing can be written, executed,
//     created or removed; with ABI 4+ no TCP, with ABI 6+ no signals or abstract sockets outside;
//   - seccomp: an allow-list of system calls; execve, ptrace, sockets, other processes' memory,
//     namespaces and the like kill the process; anything else not listed fails with EPERM.
// A mechanism this machine lacks is skipped and reported, never silently assumed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/util/expected.h"

namespace tilecamp::sandbox {

struct Limits {
  uint64_t memory_bytes = uint64_t{2} << 30;  // the address space of the sandboxed process
  double seconds = 60;                        // wall-clock time of one check; CPU time likewise
};

// What the confined process may still read: folders (and all beneath) and single files.
struct Readable {
  std::vector<std::string> directories;
  std::vector<std::string> files;
};

// What this machine's kernel offers.
struct Mechanisms {
  int landlock_abi = 0;  // 0: no Landlock (kernel older than 5.13, or disabled)
  bool seccomp = false;  // seccomp filters (and libseccomp) work
  bool complete() const { return landlock_abi > 0 && seccomp; }
  // "" when both are there, else what is missing: "Landlock is not available (...)".
  std::string missing() const;
};

// Probes without confining anything.
Mechanisms available_mechanisms();

// Sets `limits` as hard limits of this process (they can never be raised again).
Status apply_limits(const Limits& limits);

// Confines this process for good with every mechanism that `available_mechanisms()` reports.
// An Error means a mechanism that exists could not be applied: nothing untrusted may run then.
Expected<Mechanisms> confine_this_process(const Readable& readable);

}  // namespace tilecamp::sandbox
