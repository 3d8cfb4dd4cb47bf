// An AccessObserver that keeps, for every source line, the shared-memory access that cost the
// most wavefronts and the global access that cost the most sectors (each beyond the ideal cost
// of the same access), with the figures of the whole line: what `tilecamp explain` draws.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "checker/emu/access_observer.h"

namespace tilecamp::viz {

struct RecordedAccess {
  ptx::Space space = ptx::Space::Global;
  bool is_store = false;
  emu::Dim3 block;
  uint32_t warp = 0;
  uint32_t lanes = 0;
  uint32_t bytes = 0;  // per lane, as the instruction accesses them (before any merge)
  uint8_t fused_bytes = 0, fused_first = 0;
  emu::LaneAddresses addresses{};
  uint32_t cost = 0;   // wavefronts (shared) or sectors (global), as charged
  uint32_t ideal = 0;  // the same for a conflict-free or perfectly packed access
  std::string instruction;  // the PTX, e.g. "ld.shared.f32 %f1, [%r12];"
  // Shared: the variable the first lane's address lies in ("tile") and its offset.
  std::string variable;
  uint64_t variable_offset = 0;
  uint32_t excess() const { return cost - ideal; }
};

struct LineAccesses {
  std::string file;
  int line = 0;
  std::optional<RecordedAccess> worst_shared, worst_global;
  uint64_t shared_requests = 0, shared_wavefronts = 0;
  uint64_t global_requests = 0, global_sectors = 0;
};

class WorstAccessFinder : public emu::AccessObserver {
 public:
  void on_access(const emu::ObservedAccess& access) override;

  // By the PTX's file index, then line.
  const std::map<std::pair<int, int>, LineAccesses>& lines() const { return m_lines; }
  // The line `line` of any file; nullptr when the kernel made no global or shared access there.
  const LineAccesses* find_line(int line) const;
  // The line whose worst shared (or global) access wastes the most; nullptr when there is none.
  const LineAccesses* worst_shared_line() const;
  const LineAccesses* worst_global_line() const;

 private:
  std::map<std::pair<int, int>, LineAccesses> m_lines;
};

}  // namespace tilecamp::viz
