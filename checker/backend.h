// Where a kernel runs. The grading and profiling logic talks to this interface only, so it is
// the same on the emulator, on a GPU (a later backend), and against a fake in tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checker/emu/emulator.h"
#include "checker/util/expected.h"

namespace tilecamp {

struct KernelArgument {
  std::vector<uint8_t> scalar;  // the value's bytes, when the parameter is a scalar
  int buffer = -1;              // else the index of the buffer whose address is passed
};

struct BufferData {
  std::string name;  // used in out-of-bounds messages: "element 1024 of `out` (it has ...)"
  std::vector<uint8_t> bytes;
};

// Initial contents for a module-scope `__device__` or `__constant__` variable.
struct VariableFill {
  std::string name;
  std::vector<uint8_t> bytes;  // must be the variable's size
};

struct LaunchRequest {
  std::string kernel;  // the mangled PTX entry name
  emu::LaunchConfig config;
  std::vector<BufferData> buffers;
  std::vector<KernelArgument> arguments;  // one per kernel parameter, in order
  std::vector<VariableFill> variables;
};

struct LaunchOutcome {
  std::vector<std::vector<uint8_t>> buffers;  // contents after the kernel, same order
  emu::LaunchResult profile;                  // counters, per-line figures, diagnostics
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Loads a PTX module; later launches run its kernels.
  virtual Status load(const std::string& ptx) = 0;
  virtual const ptx::Module& module() const = 0;
  virtual Expected<LaunchOutcome> launch(const LaunchRequest& request) = 0;
  // A fresh backend of the same kind, for a second module (a reference or baseline kernel).
  virtual std::unique_ptr<Backend> another() const = 0;
};

}  // namespace tilecamp
