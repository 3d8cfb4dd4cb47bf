// tilecamp viz tiles: what a block, a warp and a thread of an exercise's kernel read and wrote,
// level by level (runner/tools/viz_tiles.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "runner/sandbox_options.h"

namespace tilecamp::runner {

struct VizTilesOptions {
  std::string exercise;
  std::string file;  // empty: the exercise's kernel.cu
  uint32_t block_x = 0, block_y = 0, warp = 0, lane = 0;
  bool json = false;
  SandboxChoice sandbox;
};

int run_viz_tiles(const VizTilesOptions& options);

}  // namespace tilecamp::runner
