#include "checker/emu/emulator_backend.h"

#include <cstring>

#include "checker/emu/access_observer.h"
#include "checker/emu/emulator.h"
#include "checker/ptx/parser.h"

namespace tilecamp::emu {

Status EmulatorBackend::load(const std::string& ptx) {
  auto module = ptx::parse_module(ptx);
  if (!module) return make_error("cannot read the PTX: " + module.error());
  m_module = std::make_unique<ptx::Module>(std::move(*module));
  return ok();
}

namespace {

Status fill_variable(const Emulator& emulator, DeviceMemory& memory, const VariableFill& fill) {
  const ptx::Module& module = emulator.module();
  std::string known;
  for (size_t i = 0; i < module.symbols.size(); ++i) {
    const ptx::Symbol& symbol = module.symbols[i];
    if (symbol.space != ptx::Space::Global && symbol.space != ptx::Space::Const) continue;
    if (symbol.name.starts_with("$str") || symbol.name.starts_with("__unnamed")) continue;  // string literals
    if (symbol.name != fill.name) {
      known += (known.empty() ? "" : ", ") + symbol.name;
      continue;
    }
    if (fill.bytes.size() != symbol.size) {
      return make_error("--set " + fill.name + ": the variable has " + std::to_string(symbol.size) + " bytes, the SPEC gives " +
                        std::to_string(fill.bytes.size()));
    }
    DeviceBuffer* buffer = memory.find(emulator.symbol_address(static_cast<int>(i)), symbol.size);
    std::copy(fill.bytes.begin(), fill.bytes.end(), buffer->bytes.begin());
    return ok();
  }
  return make_error("--set " + fill.name + ": the module has no __device__ or __constant__ variable of that name" +
                    (known.empty() ? std::string() : " (it has: " + known + ")"));
}

}  // namespace

Expected<LaunchOutcome> EmulatorBackend::launch(const LaunchRequest& request) { return launch_owned(request); }

Expected<LaunchOutcome> EmulatorBackend::launch_owned(LaunchRequest request) {
  if (!m_module) return make_error("no PTX module is loaded");
  DeviceMemory memory;
  Emulator emulator(*m_module, memory);
  std::vector<uint64_t> addresses;
  std::vector<size_t> buffer_slots;  // index of each request buffer in memory.buffers()
  for (BufferData& buffer : request.buffers) {
    buffer_slots.push_back(memory.buffers().size());
    addresses.push_back(buffer.bytes.empty() && buffer.zero_bytes > 0 ? memory.allocate_zeroed(buffer.name, buffer.zero_bytes)
                                                                      : memory.allocate(buffer.name, std::move(buffer.bytes)));
  }
  if (request.config.observer != nullptr) request.config.observer->on_buffers(addresses);
  for (const VariableFill& fill : request.variables) TC_TRY(fill_variable(emulator, memory, fill));
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
  for (size_t i = 0; i < buffer_slots.size(); ++i) {  // a made buffer goes back empty
    std::vector<uint8_t>& bytes = memory.buffers()[buffer_slots[i]].bytes;
    outcome.buffers.push_back(request.buffers[i].zero_bytes > 0 ? std::vector<uint8_t>() : std::move(bytes));
  }
  return outcome;
}

}  // namespace tilecamp::emu
