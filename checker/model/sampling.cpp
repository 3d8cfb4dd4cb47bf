#include "checker/model/sampling.h"

#include <algorithm>
#include <cstdint>

namespace tilecamp::model {
namespace {

// Along one axis of `n` blocks: the first, the last, and one in the middle standing for the rest.
std::vector<uint32_t> representatives(uint32_t n) {
  if (n <= 1) return {0};
  if (n == 2) return {0, 1};
  return {0, n / 2, n - 1};
}

// How many blocks of an axis of `n` the representative `index` stands for.
uint64_t weight(uint32_t n, uint32_t index) {
  if (n <= 2 || index == 0 || index == n - 1) return 1;
  return n - 2;
}

}  // namespace

std::vector<Dim3> sample_blocks(const Dim3& grid) {
  std::vector<Dim3> blocks;
  for (uint32_t z : representatives(grid.z)) {
    for (uint32_t y : representatives(grid.y)) {
      for (uint32_t x : representatives(grid.x)) blocks.push_back({x, y, z});
    }
  }
  // The first corner, the last corner and the middle block lead: they decide uniformity.
  const Dim3 last{grid.x - 1, grid.y - 1, grid.z - 1}, middle{grid.x / 2, grid.y / 2, grid.z / 2};
  std::vector<Dim3> ordered = {blocks.front()};
  for (const Dim3& lead : {last, middle}) {
    if (std::find(ordered.begin(), ordered.end(), lead) == ordered.end()) ordered.push_back(lead);
  }
  for (const Dim3& block : blocks) {
    if (std::find(ordered.begin(), ordered.end(), block) == ordered.end()) ordered.push_back(block);
  }
  return ordered;
}

Counters extrapolate(const Dim3& grid, const std::vector<Dim3>& sampled, const std::vector<Counters>& counters) {
  Counters total;
  if (counters.size() < sampled.size() && counters.size() == k_uniform_after) {  // stopped early: uniform
    return total.add_times(counters.front(), grid.count());
  }
  for (size_t i = 0; i < sampled.size() && i < counters.size(); ++i) {
    const Dim3& block = sampled[i];
    total.add_times(counters[i], weight(grid.x, block.x) * weight(grid.y, block.y) * weight(grid.z, block.z));
  }
  return total;
}

}  // namespace tilecamp::model
