// Runs kernels of one CUDA source on the emulator directly, with every LaunchConfig field at hand
// (host threads, a cooperative launch), keeping the buffers after the launch.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "checker/emu/emulator.h"
#include "tests/test_support.h"

namespace tilecamp::test {

struct Run {
  LaunchResult result;
  std::vector<std::vector<uint8_t>> buffers;  // each buffer argument's bytes after the launch
};

class Launcher {
 public:
  Launcher(const std::string& file_name, const std::string& source) : m_module(compile_to_module(file_name, source)) {}

  // Runs `kernel` with `buffers` (their bytes) as its pointer parameters, then `scalars`; the
  // grid and block of `config` (and the rest of it) as given.
  Run run(const std::string& kernel, LaunchConfig config, std::vector<std::vector<uint8_t>> buffers,
          const std::vector<int32_t>& scalars) {
    Expected<Run> run = try_run(kernel, std::move(config), std::move(buffers), scalars);
    REQUIRE_MESSAGE(run.has_value(), (run ? "" : run.error()));
    return std::move(*run);
  }

  // The same, the launch's Error (a malformed launch) returned rather than failing the test.
  Expected<Run> try_run(const std::string& kernel, LaunchConfig config, std::vector<std::vector<uint8_t>> buffers,
                        const std::vector<int32_t>& scalars) {
    emu::DeviceMemory memory;
    emu::Emulator emulator(m_module, memory);
    std::vector<std::vector<uint8_t>> parameters;
    std::vector<uint64_t> addresses;
    for (size_t b = 0; b < buffers.size(); ++b) {
      addresses.push_back(memory.allocate("buffer" + std::to_string(b), buffers[b]));
      parameters.push_back(bytes_of(addresses.back()));
    }
    for (int32_t scalar : scalars) parameters.push_back(bytes_of(scalar));
    auto result = emulator.launch(kernel, config, parameters);
    if (!result) return make_error(result.error());
    Run run{std::move(*result), {}};
    for (uint64_t address : addresses) run.buffers.push_back(memory.find(address, 1)->bytes);
    return run;
  }

 private:
  template <typename T>
  static std::vector<uint8_t> bytes_of(T value) {
    std::vector<uint8_t> bytes(sizeof value);
    std::memcpy(bytes.data(), &value, sizeof value);
    return bytes;
  }
  ptx::Module m_module;
};

}  // namespace tilecamp::test
