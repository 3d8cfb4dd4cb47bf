// Where a kernel runs. The grading and profiling logic talks to this interface only, so it is
// the same on the emulator, on a GPU (a later backend), and against a fake in tests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/backend/launch.h"
#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp {

struct KernelArgument {
  std::vector<uint8_t> scalar;  // the value's bytes, when the parameter is a scalar
  int buffer = -1;              // else the index of the buffer whose address is passed
};

// What the kernel does with a buffer. Before each timed repetition on a GPU, `Out` buffers are
// poisoned again and `InOut` buffers restored, so every repetition does the whole work.
enum class BufferRole { In, Out, InOut };

struct BufferData {
  std::string name;  // used in out-of-bounds messages: "element 1024 of `out` (it has ...)"
  std::vector<uint8_t> bytes;
  BufferRole role = BufferRole::InOut;
  // With no bytes: a buffer of this many zero bytes, made where the kernel runs and not sent back
  // (the large buffers of a sampled run, whose values its counters do not depend on).
  uint64_t zero_bytes = 0;
};

// Initial contents for a module-scope `__device__` or `__constant__` variable.
struct VariableFill {
  std::string name;
  std::vector<uint8_t> bytes;  // must be the variable's size
};

// How to time a launch on a GPU: warm-up launches, then at least `min_repetitions` timed ones
// (CUDA events around each, the L2 cache flushed before each), more until the spread is small,
// the time spent reaches `max_seconds` or `max_repetitions` are done. Ignored by the emulator.
struct TimingRequest {
  bool enabled = false;
  int warmups = 2;
  int min_repetitions = 20;
  int max_repetitions = 200;
  double max_seconds = 2.0;
};

struct KernelTiming {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int repetitions = 0;
};

struct LaunchRequest {
  std::string kernel;  // the mangled PTX entry name
  LaunchConfig config;
  std::vector<BufferData> buffers;
  std::vector<KernelArgument> arguments;  // one per kernel parameter, in order
  std::vector<VariableFill> variables;
  TimingRequest timing;
};

struct LaunchOutcome {
  std::vector<std::vector<uint8_t>> buffers;  // contents after the kernel (the last run), same order
  LaunchResult profile;                  // counters, per-line figures, diagnostics
  std::optional<KernelTiming> timing;         // when timing was requested and the backend times
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
  // The virtual architecture PTX for this backend is compiled for.
  virtual std::string arch() const { return "compute_90"; }
  // Whether launches report emulator counters and diagnostics (else only buffers and times).
  virtual bool counts() const { return true; }
  // A GPU's measured device-to-device copy bandwidth (bytes read + written per second, in GB/s),
  // the ceiling effective bandwidths are compared with; 0 when not measured.
  virtual double copy_bandwidth_gbps() const { return 0; }
};

}  // namespace tilecamp
