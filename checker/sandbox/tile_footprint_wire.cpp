#include "checker/sandbox/tile_footprint_wire.h"

#include <cstring>

namespace tilecamp::sandbox {
namespace {

using child::MessageReader;
using child::MessageWriter;

template <typename Word>
void write_words(MessageWriter& out, const std::vector<Word>& words) {
  out.bytes(words.data(), words.size() * sizeof(Word));
}

template <typename Word>
Expected<std::vector<Word>> read_words(MessageReader& in, const char* what) {
  TC_TRY_ASSIGN(std::vector<uint8_t> bytes, in.bytes());
  if (bytes.size() % sizeof(Word) != 0 || bytes.size() / sizeof(Word) > viz::k_max_words) {
    return make_error(std::string("malformed message: a list of ") + what + " of " + std::to_string(bytes.size()) + " bytes");
  }
  std::vector<Word> words(bytes.size() / sizeof(Word));
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  for (size_t i = 1; i < words.size(); ++i) {
    if (!(words[i - 1] < words[i])) return make_error(std::string("malformed message: the ") + what + " are not in order");
  }
  return words;
}

void write_count(MessageWriter& out, const viz::LevelCount& count) { out.u64(count.requests).u64(count.bytes).u64(count.cost); }

Expected<viz::LevelCount> read_count(MessageReader& in) {
  viz::LevelCount count;
  TC_TRY_ASSIGN(count.requests, in.u64());
  TC_TRY_ASSIGN(count.bytes, in.u64());
  TC_TRY_ASSIGN(count.cost, in.u64());
  return count;
}

}  // namespace

void write_footprint_target(MessageWriter& out, const viz::FootprintTarget& target) {
  out.u32(target.block.x).u32(target.block.y).u32(target.block.z).u32(target.warp).u32(target.lane);
}

Expected<viz::FootprintTarget> read_footprint_target(MessageReader& in) {
  viz::FootprintTarget target;
  TC_TRY_ASSIGN(target.block.x, in.u32());
  TC_TRY_ASSIGN(target.block.y, in.u32());
  TC_TRY_ASSIGN(target.block.z, in.u32());
  TC_TRY_ASSIGN(target.warp, in.u32());
  TC_TRY_ASSIGN(target.lane, in.u32());
  if (target.lane >= 32) return make_error("malformed message: lane " + std::to_string(target.lane));
  return target;
}

void write_footprint(MessageWriter& out, const viz::Footprint& footprint) {
  write_footprint_target(out, footprint.target);
  write_words(out, footprint.buffers);
  out.u32(footprint.block_ran ? 1 : 0).u32(footprint.truncated ? 1 : 0);
  for (const viz::ScopeRecord& scope : footprint.scopes) {
    for (const viz::LevelCount* count : {&scope.global_loads, &scope.global_stores, &scope.shared_loads, &scope.shared_stores}) {
      write_count(out, *count);
    }
    write_words(out, scope.global_loaded);
    write_words(out, scope.global_stored);
    write_words(out, scope.shared_read);
  }
}

Expected<viz::Footprint> read_footprint(MessageReader& in) {
  viz::Footprint footprint;
  TC_TRY_ASSIGN(footprint.target, read_footprint_target(in));
  TC_TRY_ASSIGN(footprint.buffers, read_words<uint64_t>(in, "buffer addresses"));
  TC_TRY_ASSIGN(uint32_t block_ran, in.u32());
  TC_TRY_ASSIGN(uint32_t truncated, in.u32());
  footprint.block_ran = block_ran != 0;
  footprint.truncated = truncated != 0;
  for (viz::ScopeRecord& scope : footprint.scopes) {
    for (viz::LevelCount* count : {&scope.global_loads, &scope.global_stores, &scope.shared_loads, &scope.shared_stores}) {
      TC_TRY_ASSIGN(*count, read_count(in));
    }
    TC_TRY_ASSIGN(scope.global_loaded, read_words<uint64_t>(in, "global words loaded"));
    TC_TRY_ASSIGN(scope.global_stored, read_words<uint64_t>(in, "global words stored"));
    TC_TRY_ASSIGN(scope.shared_read, read_words<uint32_t>(in, "shared words read"));
  }
  return footprint;
}

}  // namespace tilecamp::sandbox
