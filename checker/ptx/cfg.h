// The control-flow graph of a function and the immediate post-dominator of each branch: the point
// where a warp whose lanes took different paths runs in lockstep again.
#pragma once

#include <cstdint>
#include <vector>

#include "checker/ptx/module.h"

namespace tilecamp::ptx {

// For every instruction index, the instruction index where divergent paths leaving it
// reconverge; instructions.size() means "only at exit" (e.g. paths that never meet again).
std::vector<uint32_t> compute_reconvergence_points(const Function& function);

// The first instruction of every basic block, in order.
std::vector<uint32_t> basic_block_starts(const Function& function);

}  // namespace tilecamp::ptx
