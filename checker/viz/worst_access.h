// An AccessObserver that keeps, for every source line and every kind of access (shared load,
// shared store, global load, global store), the access that cost the most wavefronts (shared) or
// sectors (global) beyond the ideal cost of the same access, with the figures of that kind on the
// whole line: what `tilecamp explain` draws.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker/emu/access_observer.h"

namespace tilecamp::viz {

struct RecordedAccess {
  ptx::Space space = ptx::Space::Global;
  bool is_store = false;
  Dim3 block;
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

// One kind of access of one line: its costliest request and the totals of the kind.
struct AccessKind {
  std::optional<RecordedAccess> worst;
  uint64_t requests = 0;
  uint64_t cost = 0;  // wavefronts (shared) or sectors (global)
};

struct LineAccesses {
  std::string file;
  int line = 0;
  AccessKind shared_load, shared_store, global_load, global_store;
  // Shared accesses of this line that ptxas merged into another line's access, which is charged
  // for them (and drawn there): those lines.
  std::set<int> merged_into;
  uint64_t merged_requests = 0;

  const AccessKind& kind(bool shared, bool store) const {
    return shared ? (store ? shared_store : shared_load) : (store ? global_store : global_load);
  }
  AccessKind& kind(bool shared, bool store) {
    return shared ? (store ? shared_store : shared_load) : (store ? global_store : global_load);
  }
  // The kinds of one space (shared or global) that the line uses, the most wasteful first.
  std::vector<const AccessKind*> kinds(bool shared) const;
  // The kind of that space whose costliest request wastes the most; nullptr when none was made.
  const AccessKind* worst(bool shared) const;
  bool has_charged_access() const {
    return shared_load.worst || shared_store.worst || global_load.worst || global_store.worst;
  }
};

class WorstAccessFinder : public emu::AccessObserver {
 public:
  void on_access(const emu::ObservedAccess& access) override;

  // By the PTX's file index, then line.
  const std::map<std::pair<int, int>, LineAccesses>& lines() const { return m_lines; }
  // Takes the lines another finder recorded (in the sandbox, sent back over a pipe).
  void adopt(std::map<std::pair<int, int>, LineAccesses> lines) { m_lines = std::move(lines); }
  // The line `line` of any file; nullptr when the kernel made no global or shared access there.
  const LineAccesses* find_line(int line) const;
  // The line whose worst shared (or global) access wastes the most; nullptr when there is none.
  const LineAccesses* worst_shared_line() const;
  const LineAccesses* worst_global_line() const;

 private:
  // A charged shared access whose chunk other lines' merged members may share.
  struct Chunk {
    Dim3 block;
    uint32_t warp = 0;
    uint64_t start = 0;  // the first active lane's chunk address
    std::pair<int, int> line;
  };
  void note_merge(const Chunk& uncharged);

  std::map<std::pair<int, int>, LineAccesses> m_lines;
  std::vector<Chunk> m_charged, m_uncharged;  // the last few of each
};

}  // namespace tilecamp::viz
