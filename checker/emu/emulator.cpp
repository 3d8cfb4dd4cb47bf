#include "checker/emu/emulator.h"

#include <algorithm>

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

// A cooperative launch needs every block resident on the GPU at once, as the driver checks
// (cudaErrorCooperativeLaunchTooLarge): on an H200, 132 SMs of 64 warps, 32 blocks and 228 KiB of
// shared memory each, of which every block also takes 1 KiB the driver reserves. (Registers may
// allow fewer: the emulator does not know how many the kernel needs.) Then the grid workspace,
// its barrier counter at zero.
Status Emulator::prepare_cooperative(const ptx::Function& function, const LaunchConfig& config) {
  constexpr uint64_t k_sms = 132, k_warps_per_sm = 64, k_blocks_per_sm = 32;
  constexpr uint64_t k_shared_per_sm = 228 * 1024, k_reserved_per_block = 1024;
  const uint64_t warps = (config.block.count() + 31) / 32;
  const uint64_t shared = function.static_shared_bytes + config.dynamic_shared_bytes + function.reserved_shared_bytes +
                          k_reserved_per_block;
  const uint64_t per_sm = std::min({k_blocks_per_sm, k_warps_per_sm / warps, k_shared_per_sm / shared});
  if (config.grid.count() > per_sm * k_sms) {
    return make_error("a cooperative launch keeps every block of its grid resident at once, and an H200 holds at most " +
                      std::to_string(per_sm * k_sms) + " blocks like these (" + std::to_string(per_sm) +
                      " on each of its 132 SMs, for their threads and shared memory); this grid has " +
                      std::to_string(config.grid.count()) +
                      " (a GPU refuses it: cudaErrorCooperativeLaunchTooLarge). Size the grid from the GPU "
                      "(cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs) and loop over the work");
  }
  std::vector<uint8_t> workspace(16, 0);
  workspace[0] = 16;  // its size, as the driver's says
  if (m_grid_workspace == 0) {
    m_grid_workspace = m_memory.allocate("the grid workspace of a cooperative launch", workspace);
  } else {
    m_memory.find(m_grid_workspace, 16)->bytes = workspace;
  }
  return ok();
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
  if (config.cooperative && !config.sample_blocks.empty()) {
    return make_error("a cooperative launch runs every block of its grid (they wait for each other): it cannot be sampled");
  }
  if (config.cooperative) TC_TRY(prepare_cooperative(*function, config));
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
