// Modelling a launch too large to emulate whole: a sample of its blocks runs, and the grid's
// counters are estimated from them. Along each axis a grid's blocks are of three kinds: the first,
// the last (partial tiles live there) and those between (alike, for the kernels of a course); a
// block of each combination stands for all of its kind. A 256 x 256 grid runs 9 blocks, not
// 65,536. The first corner, the last corner and a middle block run first: when the three count
// exactly alike (a size of whole tiles) the grid is taken as uniform and nothing more runs.
#pragma once

#include <vector>

#include "checker/backend/launch.h"

namespace tilecamp::model {

// The blocks to run for `grid`: one of each kind, at most 27 (3 x 3 x 3), the first corner, the
// last corner and a middle block first.
std::vector<Dim3> sample_blocks(const Dim3& grid);
// How many of those decide, by counting alike, that the grid is uniform (LaunchConfig::sample_uniform_after).
inline constexpr uint32_t k_uniform_after = 3;

// The whole grid's counters: each sampled block's counters times the number of blocks of its kind,
// or the first block's times the grid's blocks when the run stopped, uniform, after k_uniform_after.
// `sampled` and `counters` are in the order sample_blocks(grid) gave.
Counters extrapolate(const Dim3& grid, const std::vector<Dim3>& sampled, const std::vector<Counters>& counters);

}  // namespace tilecamp::model
