// The steps `tilecamp viz sgemm` shows, in order: for each block the emulator ran, each tile step
// as load -> barrier -> compute (one frame per k) -> barrier, then the store of C; with the reads
// counted so far, all taken from the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "checker/viz/sgemm_trace.h"

namespace tilecamp::viz {

enum class SgemmPhase { Load, LoadBarrier, Compute, ComputeBarrier, Store };

struct SgemmFrame {
  size_t block = 0;  // in SgemmTrace::blocks
  int step = 0;      // the tile step; steps() in the Store frame
  SgemmPhase phase = SgemmPhase::Load;
  int k = 0;         // Compute: the product being added
  // Counted up to and including this frame, over the whole grid.
  uint64_t global_reads = 0, shared_reads = 0, c_written = 0;
};

std::vector<SgemmFrame> sgemm_frames(const SgemmTrace& trace);

// The first frame of the block after `frame`'s (of the last block: the last frame).
size_t next_block_frame(const std::vector<SgemmFrame>& frames, size_t frame);
// The first frame of block (bx, by); 0 when the grid has no such block.
size_t block_start_frame(const SgemmTrace& trace, const std::vector<SgemmFrame>& frames, int bx, int by);

}  // namespace tilecamp::viz
