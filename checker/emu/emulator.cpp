#include "checker/emu/emulator.h"

#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

namespace {
constexpr uint64_t k_max_block_threads = 1024;
constexpr uint32_t k_max_shared_bytes = 227 * 1024;  // an H200 block's limit
constexpr uint64_t k_max_local_bytes = 512 * 1024;   // a thread's local memory on every GPU since Fermi
}  // namespace

Emulator::Emulator(const ptx::Module& module, DeviceMemory& memory) : m_module(module), m_memory(memory) {
  for (size_t i = 0; i < module.symbols.size(); ++i) {
    const ptx::Symbol& symbol = module.symbols[i];
    if (symbol.space != ptx::Space::Global && symbol.space != ptx::Space::Const) continue;
    std::vector<uint8_t> contents = symbol.initializer;
    contents.resize(symbol.size, 0);
    m_global_symbols[static_cast<int>(i)] = memory.allocate(symbol.name, std::move(contents));
    memory.buffers().back().constant = symbol.space == ptx::Space::Const;
  }
}

uint64_t Emulator::symbol_address(int symbol) const {
  auto it = m_global_symbols.find(symbol);
  return it == m_global_symbols.end() ? 0 : it->second;
}

Expected<LaunchResult> Emulator::launch(const std::string& kernel, const LaunchConfig& config,
                                        const std::vector<std::vector<uint8_t>>& parameters) {
  const ptx::Function* function = m_module.find_function(kernel);
  if (function == nullptr || !function->is_entry) {
    return make_error("no kernel named `" + kernel + "` in the PTX");
  }
  if (parameters.size() != function->parameters.size()) {
    return make_error("kernel `" + kernel + "` takes " + std::to_string(function->parameters.size()) +
                      " parameters, but " + std::to_string(parameters.size()) + " were given");
  }
  const uint64_t threads = config.block.count();
  if (threads == 0 || threads > k_max_block_threads || config.block.z > 64) {
    return make_error("a block of " + std::to_string(config.block.x) + "x" + std::to_string(config.block.y) +
                      "x" + std::to_string(config.block.z) +
                      " threads is not launchable: a block has 1 to 1024 threads (z at most 64)");
  }
  if (config.grid.count() == 0 || config.grid.y > 65535 || config.grid.z > 65535) {
    return make_error("a grid of " + std::to_string(config.grid.x) + "x" + std::to_string(config.grid.y) +
                      "x" + std::to_string(config.grid.z) + " blocks is not launchable");
  }
  for (const Dim3& block : config.sample_blocks) {
    if (block.x >= config.grid.x || block.y >= config.grid.y || block.z >= config.grid.z) {
      return make_error("sampled block (" + std::to_string(block.x) + "," + std::to_string(block.y) + "," +
                        std::to_string(block.z) + ") lies outside the grid");
    }
  }
  if (function->static_shared_bytes + config.dynamic_shared_bytes > k_max_shared_bytes) {
    return make_error("the kernel needs " +
                      std::to_string(function->static_shared_bytes + config.dynamic_shared_bytes) +
                      " bytes of shared memory per block; a block may have at most " +
                      std::to_string(k_max_shared_bytes));
  }
  if (function->local_bytes > k_max_local_bytes) {
    return make_error("the kernel needs " + std::to_string(function->local_bytes) +
                      " bytes of local memory per thread (its local arrays); a thread may have at most " +
                      std::to_string(k_max_local_bytes) + ": keep large arrays in global memory");
  }
  std::vector<uint8_t> buffer(function->parameter_bytes, 0);
  for (size_t i = 0; i < parameters.size(); ++i) {
    const ptx::Parameter& parameter = function->parameters[i];
    if (parameters[i].size() != parameter.size) {
      return make_error("parameter " + std::to_string(i + 1) + " of `" + kernel + "` has " +
                        std::to_string(parameter.size) + " bytes, but " +
                        std::to_string(parameters[i].size()) + " were given");
    }
    std::copy(parameters[i].begin(), parameters[i].end(), buffer.begin() + parameter.offset);
  }
  KernelRun first(*this, *function, config, buffer, m_memory);
  return run_split(first, config, m_memory,
                   [&] { return std::make_unique<KernelRun>(*this, *function, config, buffer, m_memory); });
}

}  // namespace tilecamp::emu
