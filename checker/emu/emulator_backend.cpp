#include "checker/emu/emulator_backend.h"

#include <cstring>

#include "checker/ptx/parser.h"

namespace tilecamp::emu {

Status EmulatorBackend::load(const std::string& ptx) {
  auto module = ptx::parse_module(ptx);
  if (!module) return make_error("cannot read the PTX: " + module.error());
  m_module = std::make_unique<ptx::Module>(std::move(*module));
  return ok();
}

Expected<LaunchOutcome> EmulatorBackend::launch(const LaunchRequest& request) {
  if (!m_module) return make_error("no PTX module is loaded");
  DeviceMemory memory;
  Emulator emulator(*m_module, memory);
  std::vector<uint64_t> addresses;
  std::vector<size_t> buffer_slots;  // index of each request buffer in memory.buffers()
  for (const BufferData& buffer : request.buffers) {
    buffer_slots.push_back(memory.buffers().size());
    addresses.push_back(memory.allocate(buffer.name, buffer.bytes));
  }
  std::vector<std::vector<uint8_t>> parameters;
  for (const KernelArgument& argument : request.arguments) {
    if (argument.buffer < 0) {
      parameters.push_back(argument.scalar);
      continue;
    }
    std::vector<uint8_t> pointer(8);
    std::memcpy(pointer.data(), &addresses.at(argument.buffer), 8);
    parameters.push_back(std::move(pointer));
  }
  auto result = emulator.launch(request.kernel, request.config, parameters);
  if (!result) return Error{result.error()};
  LaunchOutcome outcome;
  outcome.profile = std::move(*result);
  for (size_t slot : buffer_slots) outcome.buffers.push_back(std::move(memory.buffers()[slot].bytes));
  return outcome;
}

}  // namespace tilecamp::emu
