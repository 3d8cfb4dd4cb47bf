#include "checker/viz/sgemm_frames.h"

namespace tilecamp::viz {

std::vector<SgemmFrame> sgemm_frames(const SgemmTrace& trace) {
  std::vector<SgemmFrame> frames;
  SgemmFrame frame;
  auto add = [&](SgemmPhase phase, int step, int k) {
    frame.phase = phase;
    frame.step = step;
    frame.k = k;
    frames.push_back(frame);
  };
  for (size_t b = 0; b < trace.blocks.size(); ++b) {
    const BlockRun& block = trace.blocks[b];
    frame.block = b;
    for (int s = 0; s < trace.steps(); ++s) {
      const TileStep& step = block.steps[size_t(s)];
      frame.global_reads += step.global_reads;
      add(SgemmPhase::Load, s, 0);
      add(SgemmPhase::LoadBarrier, s, 0);
      for (int k = 0; k < trace.size.tile; ++k) {
        frame.shared_reads += step.shared_reads[size_t(k)];
        add(SgemmPhase::Compute, s, k);
      }
      add(SgemmPhase::ComputeBarrier, s, 0);
    }
    for (const auto& value : block.stored) frame.c_written += value.has_value();
    add(SgemmPhase::Store, trace.steps(), 0);
  }
  return frames;
}

size_t next_block_frame(const std::vector<SgemmFrame>& frames, size_t frame) {
  for (size_t i = frame; i < frames.size(); ++i) {
    if (frames[i].block != frames[frame].block) return i;
  }
  return frames.empty() ? 0 : frames.size() - 1;
}

size_t block_start_frame(const SgemmTrace& trace, const std::vector<SgemmFrame>& frames, int bx, int by) {
  for (size_t i = 0; i < frames.size(); ++i) {
    const BlockRun& block = trace.blocks[frames[i].block];
    if (block.bx == bx && block.by == by) return i;
  }
  return 0;
}

}  // namespace tilecamp::viz
