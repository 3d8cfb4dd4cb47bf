// Which scalar shared-memory loads and stores ptxas merges into one wider access (LDS.64,
// LDS.128, STS.64, STS.128), so that the emulator counts requests and wavefronts as Nsight
// Compute does. Execution stays per PTX instruction: only the charging changes.
//
// The rules, read off ptxas 13.0's SASS for sm_90 and checked against Nsight Compute on an H200
// (tests/data/h200-shared-fusion.tsv holds every measured case):
// - Accesses merge within one basic block when their addresses differ by constants: the same
//   base register (or one derived from it by adding constants) or the same symbol, the same
//   guard, and no barrier, fence, atomic, call or cp.async between them. A shared or generic
//   store between two loads keeps them apart, even one to another array; a load keeps stores apart.
// - ptxas must prove the merged access aligned. It knows a register's value to be a multiple of a
//   power of two from how every definition of the register computes it (a loop counter that starts
//   16-aligned and steps by 8 is only 8-aligned), and a shared variable's address from its offset.
// - 32-bit words (and 64-bit pairs of them): a naturally aligned 16-byte chunk of which loads
//   read at least 3 words (stores: all 4) becomes one 16-byte access (the loads read the unused
//   word too); otherwise an 8-byte aligned pair read or written whole becomes one 8-byte access.
//   16-bit halves do the same at 8 and 4 bytes; bytes are never merged.
// - ptxas unrolls a single-block loop of constant trip count N (no `.pragma "nounroll"`): fully
//   when N <= 6, otherwise by the largest factor of N up to 6, and merges across the unrolled
//   iterations. This is a heuristic: with large bodies ptxas sometimes peels an iteration or
//   unrolls by another factor, and its choice depends on the PTX's form (NVRTC's and nvcc's PTX
//   of one loop can differ: the table's sass_nvcc and sass_nvrtc columns).
// - Alignment is judged on the emulator's own layout of shared variables (their offsets in the
//   module), which is also what the emulator's addresses use.
#pragma once

#include <vector>

#include "checker/ptx/module.h"

namespace tilecamp::ptx {

// Sets Instruction::fused_bytes and fused_first of every shared access ptxas merges. `symbols`
// must already have their shared-memory offsets.
void fuse_shared_accesses(Function& function, const std::vector<Symbol>& symbols);

}  // namespace tilecamp::ptx
