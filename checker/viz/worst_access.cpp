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

const LineAccesses* worst_line(const std::map<std::pair<int, int>, LineAccesses>& lines, bool shared) {
  const LineAccesses* found = nullptr;
  for (const auto& [key, line] : lines) {
    const AccessKind* kind = line.worst(shared);
    if (kind != nullptr && (found == nullptr || worse(*kind->worst, found->worst(shared)->worst))) found = &line;
  }
  return found;
}

constexpr size_t k_chunks_kept = 16;

template <typename Chunk>
void keep(std::vector<Chunk>& chunks, const Chunk& chunk) {
  if (chunks.size() == k_chunks_kept) chunks.erase(chunks.begin());
  chunks.push_back(chunk);
}

}  // namespace

std::vector<const AccessKind*> LineAccesses::kinds(bool shared) const {
  std::vector<const AccessKind*> found;
  for (bool store : {false, true}) {
    if (kind(shared, store).worst) found.push_back(&kind(shared, store));
  }
  if (found.size() == 2 && worse(*found[1]->worst, found[0]->worst)) std::swap(found[0], found[1]);
  return found;
}

const AccessKind* LineAccesses::worst(bool shared) const {
  const std::vector<const AccessKind*> found = kinds(shared);
  return found.empty() ? nullptr : found.front();
}

void WorstAccessFinder::note_merge(const Chunk& uncharged) {
  for (const Chunk& charged : m_charged) {
    if (charged.block == uncharged.block && charged.warp == uncharged.warp && charged.start == uncharged.start &&
        charged.line != uncharged.line) {
      m_lines[uncharged.line].merged_into.insert(charged.line.second);
      return;
    }
  }
  keep(m_uncharged, uncharged);  // the charged member may come later
}

void WorstAccessFinder::on_access(const emu::ObservedAccess& access) {
  const ptx::SourceLocation& location = access.instruction.location;
  const std::pair<int, int> key{location.file, location.line};
  auto [entry, added] = m_lines.try_emplace(key);
  LineAccesses& line = entry->second;
  if (added) {
    const auto& files = access.module.files;
    line.file = location.file >= 0 && static_cast<size_t>(location.file) < files.size() ? files[location.file] : "";
    line.line = location.line;
  }
  const bool shared = access.space == ptx::Space::Shared;
  AccessKind& kind = line.kind(shared, access.is_store);
  if (shared && access.instruction.fused_bytes != 0 && access.lanes != 0 && !access.fragment) {
    // A merged access is charged once, by one member: note which lines' members it covers.
    const uint64_t mask = access.instruction.fused_bytes - 1u;
    const Chunk member{access.block, access.warp, access.addresses[std::countr_zero(access.lanes)] & ~mask, key};
    if (access.charged.requests == 0) {
      ++line.merged_requests;
      note_merge(member);
      return;
    }
    keep(m_charged, member);
    for (auto waiting = m_uncharged.begin(); waiting != m_uncharged.end();) {
      if (waiting->block == member.block && waiting->warp == member.warp && waiting->start == member.start) {
        if (waiting->line != key) m_lines[waiting->line].merged_into.insert(key.second);
        waiting = m_uncharged.erase(waiting);
      } else {
        ++waiting;
      }
    }
  }
  if (access.charged.requests == 0) return;  // paid for by another member, or a matrix's first piece
  kind.requests += access.charged.requests;
  kind.cost += access.charged.cost;
  RecordedAccess candidate{};
  candidate.cost = access.charged.cost;
  candidate.ideal = shared ? access.charged.ideal : std::min(candidate.cost, ideal_sectors(access.lanes, access.bytes));
  if (worse(candidate, kind.worst)) kind.worst = record(access, candidate.cost, candidate.ideal);
}

const LineAccesses* WorstAccessFinder::find_line(int line) const {
  for (const auto& [key, accesses] : m_lines) {
    if (key.second == line) return &accesses;
  }
  return nullptr;
}

const LineAccesses* WorstAccessFinder::worst_shared_line() const { return worst_line(m_lines, true); }
const LineAccesses* WorstAccessFinder::worst_global_line() const { return worst_line(m_lines, false); }

}  // namespace tilecamp::viz
