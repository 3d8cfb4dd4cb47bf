#include "checker/viz/worst_access.h"

#include <algorithm>
#include <bit>
#include <tuple>

#include "checker/ptx/kernel_lookup.h"
#include "checker/viz/access_map.h"

namespace tilecamp::viz {
namespace {

bool worse(const RecordedAccess& candidate, const std::optional<RecordedAccess>& worst) {
  return !worst || std::tuple(candidate.excess(), candidate.cost) > std::tuple(worst->excess(), worst->cost);
}

// The shared variable `offset` lies in: the one laid out last at or before it.
const ptx::Symbol* shared_variable_at(const ptx::Module& module, uint64_t offset) {
  const ptx::Symbol* found = nullptr;
  for (const ptx::Symbol& symbol : module.symbols) {
    if (symbol.space != ptx::Space::Shared || symbol.offset > offset) continue;
    if (found == nullptr || symbol.offset >= found->offset) found = &symbol;
  }
  return found;
}

RecordedAccess record(const emu::ObservedAccess& access, uint32_t cost, uint32_t ideal) {
  RecordedAccess recorded{access.space, access.is_store, access.block, access.warp, access.lanes, access.bytes,
                          access.instruction.fused_bytes, access.instruction.fused_first, access.addresses, cost, ideal,
                          access.instruction.text, "", 0};
  if (access.space == ptx::Space::Shared) {
    if (const ptx::Symbol* variable = shared_variable_at(access.module, access.addresses[std::countr_zero(access.lanes)])) {
      recorded.variable = ptx::readable_variable_name(variable->name);
      recorded.variable_offset = variable->offset;
    }
  }
  return recorded;
}

const LineAccesses* worst_line(const std::map<std::pair<int, int>, LineAccesses>& lines,
                               std::optional<RecordedAccess> LineAccesses::*which) {
  const LineAccesses* found = nullptr;
  for (const auto& [key, line] : lines) {
    const std::optional<RecordedAccess>& access = line.*which;
    if (access && (found == nullptr || worse(*access, found->*which))) found = &line;
  }
  return found;
}

}  // namespace

void WorstAccessFinder::on_access(const emu::ObservedAccess& access) {
  const ptx::SourceLocation& location = access.instruction.location;
  auto [entry, added] = m_lines.try_emplace({location.file, location.line});
  LineAccesses& line = entry->second;
  if (added) {
    const auto& files = access.module.files;
    line.file = location.file >= 0 && static_cast<size_t>(location.file) < files.size() ? files[location.file] : "";
    line.line = location.line;
  }
  if (access.space == ptx::Space::Shared) {
    emu::LaneAddresses chunk = access.addresses;  // a merged access is charged once, by one member
    const uint32_t charged = emu::fused_access_bytes(chunk, access.lanes, access.bytes, access.instruction.fused_bytes,
                                                     access.instruction.fused_first);
    if (charged == 0) return;
    const emu::SharedCost cost = emu::count_shared_wavefronts(chunk, access.lanes, charged);
    ++line.shared_requests;
    line.shared_wavefronts += cost.wavefronts;
    RecordedAccess candidate{};
    candidate.cost = cost.wavefronts;
    candidate.ideal = cost.ideal_wavefronts;
    if (worse(candidate, line.worst_shared)) line.worst_shared = record(access, cost.wavefronts, cost.ideal_wavefronts);
    return;
  }
  const uint32_t sectors = emu::count_sectors(access.addresses, access.lanes, access.bytes);
  ++line.global_requests;
  line.global_sectors += sectors;
  RecordedAccess candidate{};
  candidate.cost = sectors;
  candidate.ideal = std::min(sectors, ideal_sectors(access.lanes, access.bytes));
  if (worse(candidate, line.worst_global)) line.worst_global = record(access, candidate.cost, candidate.ideal);
}

const LineAccesses* WorstAccessFinder::find_line(int line) const {
  for (const auto& [key, accesses] : m_lines) {
    if (key.second == line) return &accesses;
  }
  return nullptr;
}

const LineAccesses* WorstAccessFinder::worst_shared_line() const { return worst_line(m_lines, &LineAccesses::worst_shared); }
const LineAccesses* WorstAccessFinder::worst_global_line() const { return worst_line(m_lines, &LineAccesses::worst_global); }

}  // namespace tilecamp::viz
