// The SGEMM tiling visualizer's data (`tilecamp viz sgemm`): the source notes' tiled SGEMM
// (partial tiles zero-filled), compiled with NVRTC and run on the emulator with an
// AccessObserver. Every load, tile slot, product and counter the visualizer draws is read off
// that run; a naive SGEMM run the same way gives the figure it is compared with.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/compile/compiler.h"
#include "checker/backend/counters.h"
#include "checker/util/expected.h"

namespace tilecamp::viz {

// C (m x n) = A (m x k) * B (k x n), row-major; blocks of tile x tile threads.
struct SgemmSize {
  int m = 4, n = 4, k = 8, tile = 2;
  uint64_t seed = 1;  // draws the inputs: whole numbers 1 to 9, so every sum can be read exactly
};

// An Error names the first value out of the range a terminal can show.
Status check_sgemm_size(const SgemmSize& size);

// One thread copying one element of A or B into its slot of a shared tile.
struct ElementCopy {
  int row = -1, col = -1;  // the element; -1 when outside the matrix (no load: the slot gets 0)
  uint64_t offset = 0;     // its byte offset from the matrix's start, from the load's address
  float value = 0;         // what the thread stored in the tile
};

// One thread in one step of the tile loop.
struct ThreadStep {
  ElementCopy a, b;  // into tileA[ty][tx] and tileB[ty][tx]
  std::vector<std::pair<float, float>> products;  // (tileA[ty][k], tileB[k][tx]) as read, k = 0..tile-1
};

struct TileStep {
  std::vector<ThreadStep> threads;    // thread (ty, tx) at ty * tile + tx
  std::vector<float> tile_a, tile_b;  // the shared tiles once loaded, row-major
  uint64_t global_reads = 0;          // elements the block's threads loaded from A and B
  std::vector<uint64_t> shared_reads;  // per k: tile elements the block's threads read for product k
};

struct BlockRun {
  int bx = 0, by = 0;
  std::vector<TileStep> steps;
  std::vector<std::optional<float>> stored;  // per thread: what it wrote to C (nothing outside C)
};

struct SgemmTrace {
  SgemmSize size;
  std::string kernel;  // "sgemmTiled<2>"
  std::string source;  // the kernels' source, as compiled
  std::string file;    // the name it was compiled under
  std::vector<int> load_lines, compute_lines, store_lines, barrier_lines;  // the source lines of each phase
  std::vector<float> a, b;
  std::vector<BlockRun> blocks;  // in the order the emulator ran them
  Counters tiled, naive;    // the emulator's counters of both kernels
  // Elements the threads read, counted from the traced loads.
  uint64_t tiled_global_reads = 0, tiled_shared_reads = 0, naive_global_reads = 0;
  int steps() const { return (size.k + size.tile - 1) / size.tile; }
  int threads_per_block() const { return size.tile * size.tile; }
};

Expected<SgemmTrace> trace_sgemm(Compiler& compiler, const SgemmSize& size);

}  // namespace tilecamp::viz
