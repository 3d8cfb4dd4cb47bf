// The result of checking one exercise: what every report format (text, JSON, later JUnit and
// Gradescope) renders.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/compile/compiler.h"
#include "checker/diagnostic.h"
#include "checker/model/occupancy.h"

namespace tilecamp::grade {

// Error: the check could not be made (e.g. the baseline kernel would not run), which is not the
// learner's fault; the verdict is then an error too.
enum class CheckStatus { Pass, Fail, Skip, Error };
enum class VerdictStatus { Pass, Fail, Error };
// compile: the file compiles; correctness: a case's outputs; safety: the emulator's findings
// (races, deadlocks, out-of-bounds accesses...); performance: the thresholds.
enum class CheckKind { Compile, Correctness, Safety, Performance };

const char* check_status_name(CheckStatus status);
const char* verdict_status_name(VerdictStatus status);
const char* check_kind_name(CheckKind kind);

struct Check {
  std::string name;     // "compiles", "public case width=50 height=37", "global stores are coalesced"
  CheckKind kind = CheckKind::Correctness;
  CheckStatus status = CheckStatus::Pass;
  std::string message;  // why it failed, or a figure worth showing
  std::string metric;   // performance checks: the metric and its measured value
  std::optional<double> value;
  std::optional<double> threshold;
  // A hidden case's check (the performance case included): reports a student receives show
  // neither its shape nor the values in its message.
  bool hidden = false;
};

struct Verdict {
  std::string exercise;
  std::string file;     // the checked kernel file
  std::string backend;
  std::vector<std::string> notes;  // e.g. why --backend auto fell back to the emulator
  uint64_t seed = 0;
  VerdictStatus status = VerdictStatus::Pass;
  std::string error;    // when status is Error: why the exercise could not be checked
  std::map<std::string, int64_t> constants;  // the launch constants read from the file
  std::vector<Check> checks;
  std::vector<Diagnostic> diagnostics;  // compiler and emulator findings, with source lines
  // What the kernel printed (printf) in the first public case where it printed anything, at most
  // k_printed_lines lines; never a hidden case's, whose inputs a student must not see.
  struct Printed {
    std::string case_name;  // "public case n=1000"
    std::string text;
    bool truncated = false;
  };
  std::optional<Printed> printed;
  // How the check's compiles went with the PTX cache (compile/compile_cache.h): answered from it,
  // or compiled. Absent when the cache is off.
  struct PtxCache {
    int hits = 0;
    int misses = 0;
  };
  std::optional<PtxCache> ptx_cache;
  // The kernel's registers and shared memory as ptxas assembled them, and how many of its blocks
  // an SM of the H200 holds at the block size of the first case that ran (model/occupancy.h).
  // Absent when the compiler made no cubin or no case ran.
  struct Resources {
    KernelResources kernel;
    model::Occupancy occupancy;
    uint64_t threads_per_block = 0;
    uint32_t dynamic_shared_bytes = 0;
  };
  std::optional<Resources> resources;
};

constexpr size_t k_printed_lines = 40;
constexpr size_t k_printed_bytes = 4096;

}  // namespace tilecamp::grade
