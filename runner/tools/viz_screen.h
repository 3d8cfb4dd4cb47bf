// The frames of `tilecamp viz sgemm`, drawn from the emulator's trace of a tiled SGEMM: the
// matrices with the block's current tiles, the shared tiles' values, what each thread of the
// block does in this phase, the followed thread's dot product, and the reads counted so far.
// Built from plain data so that it is tested without a terminal.
#pragma once

#include <string>
#include <vector>

#include "checker/report/style.h"
#include "checker/viz/sgemm_frames.h"

namespace tilecamp::runner {

struct SgemmView {
  int thread_row = 0, thread_col = 0;  // the followed thread: threadIdx.y, threadIdx.x
  size_t width = 80;
  size_t height = 0;  // rows available; 0: as many as the frame needs (printed, not a screen)
  bool interactive = false;  // add the key line and the play state
  bool playing = false;
  int speed_ms = 600;
};

// One screen: at most view.height lines (when set), each at most view.width columns.
std::vector<std::string> render_sgemm_frame(const viz::SgemmTrace& trace, const std::vector<viz::SgemmFrame>& frames,
                                            size_t frame, const SgemmView& view, const report::Style& style);

// The whole run's counters, tiled against naive, as the emulator counted them (for --once).
std::string sgemm_summary(const viz::SgemmTrace& trace);

}  // namespace tilecamp::runner
