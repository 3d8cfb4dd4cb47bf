#include "checker/sandbox/worst_access_wire.h"

namespace tilecamp::sandbox {
namespace {

using child::MessageReader;
using child::MessageWriter;

void write_access(MessageWriter& out, const viz::RecordedAccess& access) {
  out.u32(static_cast<uint32_t>(access.space)).u32(access.is_store ? 1 : 0);
  out.u32(access.block.x).u32(access.block.y).u32(access.block.z);
  out.u32(access.warp).u32(access.lanes).u32(access.bytes).u32(access.fused_bytes).u32(access.fused_first);
  for (uint64_t address : access.addresses) out.u64(address);
  out.u32(access.cost).u32(access.ideal).text(access.instruction).text(access.variable).u64(access.variable_offset);
}

Expected<viz::RecordedAccess> read_access(MessageReader& in) {
  viz::RecordedAccess access;
  TC_TRY_ASSIGN(uint32_t space, in.u32());
  if (space != static_cast<uint32_t>(ptx::Space::Global) && space != static_cast<uint32_t>(ptx::Space::Shared)) {
    return make_error("malformed message: access space " + std::to_string(space));
  }
  access.space = static_cast<ptx::Space>(space);
  TC_TRY_ASSIGN(uint32_t is_store, in.u32());
  access.is_store = is_store != 0;
  TC_TRY_ASSIGN(access.block.x, in.u32());
  TC_TRY_ASSIGN(access.block.y, in.u32());
  TC_TRY_ASSIGN(access.block.z, in.u32());
  TC_TRY_ASSIGN(access.warp, in.u32());
  TC_TRY_ASSIGN(access.lanes, in.u32());
  TC_TRY_ASSIGN(access.bytes, in.u32());
  TC_TRY_ASSIGN(uint32_t fused_bytes, in.u32());
  TC_TRY_ASSIGN(uint32_t fused_first, in.u32());
  access.fused_bytes = static_cast<uint8_t>(fused_bytes);
  access.fused_first = static_cast<uint8_t>(fused_first);
  for (uint64_t& address : access.addresses) {
    TC_TRY_ASSIGN(address, in.u64());
  }
  TC_TRY_ASSIGN(access.cost, in.u32());
  TC_TRY_ASSIGN(access.ideal, in.u32());
  if (access.ideal > access.cost) return make_error("malformed message: an access cheaper than its ideal");
  TC_TRY_ASSIGN(access.instruction, in.text());
  TC_TRY_ASSIGN(access.variable, in.text());
  TC_TRY_ASSIGN(access.variable_offset, in.u64());
  return access;
}

void write_kind(MessageWriter& out, const viz::AccessKind& kind) {
  out.u32(kind.worst ? 1 : 0);
  if (kind.worst) write_access(out, *kind.worst);
  out.u64(kind.requests).u64(kind.cost);
}

Expected<viz::AccessKind> read_kind(MessageReader& in) {
  viz::AccessKind kind;
  TC_TRY_ASSIGN(uint32_t has_worst, in.u32());
  if (has_worst != 0) {
    TC_TRY_ASSIGN(kind.worst, read_access(in));
  }
  TC_TRY_ASSIGN(kind.requests, in.u64());
  TC_TRY_ASSIGN(kind.cost, in.u64());
  return kind;
}

Expected<int> read_int(MessageReader& in) {
  TC_TRY_ASSIGN(uint64_t value, in.u64());
  return static_cast<int>(static_cast<int64_t>(value));
}

}  // namespace

void write_worst_accesses(MessageWriter& out, const WorstAccessLines& lines) {
  out.u32(static_cast<uint32_t>(lines.size()));
  for (const auto& [key, line] : lines) {
    out.u64(static_cast<uint64_t>(key.first)).u64(static_cast<uint64_t>(key.second));
    out.text(line.file).u64(static_cast<uint64_t>(line.line));
    for (const viz::AccessKind* kind : {&line.shared_load, &line.shared_store, &line.global_load, &line.global_store}) {
      write_kind(out, *kind);
    }
    out.u32(static_cast<uint32_t>(line.merged_into.size()));
    for (int merged : line.merged_into) out.u64(static_cast<uint64_t>(merged));
    out.u64(line.merged_requests);
  }
}

Expected<WorstAccessLines> read_worst_accesses(MessageReader& in) {
  WorstAccessLines lines;
  TC_TRY_ASSIGN(uint32_t count, in.u32());
  for (uint32_t i = 0; i < count; ++i) {
    TC_TRY_ASSIGN(int file, read_int(in));
    TC_TRY_ASSIGN(int line_number, read_int(in));
    viz::LineAccesses line;
    TC_TRY_ASSIGN(line.file, in.text());
    TC_TRY_ASSIGN(line.line, read_int(in));
    for (viz::AccessKind* kind : {&line.shared_load, &line.shared_store, &line.global_load, &line.global_store}) {
      TC_TRY_ASSIGN(*kind, read_kind(in));
    }
    TC_TRY_ASSIGN(uint32_t merged, in.u32());
    for (uint32_t j = 0; j < merged; ++j) {
      TC_TRY_ASSIGN(int into, read_int(in));
      line.merged_into.insert(into);
    }
    TC_TRY_ASSIGN(line.merged_requests, in.u64());
    lines[{file, line_number}] = std::move(line);
  }
  return lines;
}

}  // namespace tilecamp::sandbox
