// `tilecamp grade --shard K/N` and `tilecamp grade --merge DIR...`: a class graded in N parts (on
// the nodes of a cluster), then put together. A student's shard depends on the student's id alone
// (a SHA-256 of it), so a student never moves when others join the roster. Each shard's report
// folder gets shard.json at the end of its run: the shard's place, the settings every shard must
// share, and its students' results. The merge reads nothing else of those folders, and trusts
// nothing in them: every field is checked, and every shard must agree with the others.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "checker/report/class_report.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

struct ShardSpec {
  uint32_t index = 0;  // K, from 0
  uint32_t count = 1;  // N
};

// "K/N" with 0 <= K < N; an error says what --shard takes.
Expected<ShardSpec> parse_shard(const std::string& text);

// The shard (0 to count-1) that grades `student`: the first 8 bytes of SHA-256(id), mod count.
uint32_t shard_of(const std::string& student, uint32_t count);

// The file a shard leaves in its report folder.
inline constexpr const char* k_shard_file = "shard.json";

// What a shard's run knows when it ends.
struct ShardResults {
  ShardSpec spec;
  std::string settings;                  // grade's hash of the course, hidden tests, seed, backend, limits
  std::vector<std::string> not_graded;   // the roster's warnings (every shard sees the same)
  report::ClassResults results;          // this shard's students only
};

// Writes out/shard.json (atomically).
Status write_shard_file(const std::filesystem::path& out, const ShardResults& shard);

// The shard that `out`/shard.json says was graded into `out` before, if any (unchecked: only to
// refuse a second shard's run into the same folder).
std::optional<ShardSpec> shard_in_folder(const std::filesystem::path& out);

// The class put together from the shards' folders: every shard of one class exactly once, each
// student in the shard shard_of gives, all with the same settings. `not_graded` is the union of
// the shards' warnings.
struct MergedClass {
  report::ClassResults results;
  std::vector<std::string> not_graded;
};
Expected<MergedClass> merge_shards(const std::vector<std::filesystem::path>& folders);

}  // namespace tilecamp::runner
