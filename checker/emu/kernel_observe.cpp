// Showing a launch's AccessObserver what the warps do: called only when one is set.
#include "checker/emu/access_observer.h"
#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

void KernelRun::observe_access(const Warp& warp, const ptx::Instruction& in, const WarpAccess& access,
                               uint32_t bytes, const ChargedAccess& charged, bool fragment) const {
  const bool is_store = in.opcode == ptx::Opcode::St || in.opcode == ptx::Opcode::WmmaStore;
  constexpr ptx::Space k_spaces[] = {ptx::Space::Global, ptx::Space::Shared};  // WarpAccess's slots 0 and 1
  for (int slot = 0; slot < 2; ++slot) {
    if (access.lanes[slot] == 0) continue;
    m_config.observer->on_access({m_module, in, k_spaces[slot], is_store, m_block_index, warp.index,
                                  access.lanes[slot], bytes, access.addresses[slot], access.pointers,
                                  slot == k_shared_slot ? charged.shared : charged.global, fragment});
  }
}

void KernelRun::observe_barrier(const ptx::Instruction& in) const {
  m_config.observer->on_barrier({in, m_block_index});
}

}  // namespace tilecamp::emu
