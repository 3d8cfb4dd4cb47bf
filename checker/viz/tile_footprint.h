// What one block of a kernel, one of its warps and one of that warp's threads read and wrote,
// level by level: global memory, shared memory, and the outputs they computed. `tilecamp viz
// tiles` draws it, to show what a block tile, a warp tile and a thread tile each read.
//
// The inputs are filled with values that name their element (element_code), so that a word read
// from shared memory says which element of which input it is a copy of, however it got there
// (a plain load and store, a float4, cp.async, a register double buffer).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/backend/launch.h"
#include "checker/emu/access_observer.h"
#include "checker/grade/cases.h"
#include "checker/util/expected.h"

namespace tilecamp::viz {

// The value input `input` (0, 1, ...) holds at element `element`: a whole number a float holds
// exactly, +-(1 + element + 2^23 * (input / 2)), positive for even inputs and negative for odd
// ones. Inputs of more than k_max_coded_elements elements, or past the fourth, are not coded.
inline constexpr uint64_t k_max_coded_elements = (uint64_t{1} << 23) - 1;
inline constexpr int k_max_coded_inputs = 4;
float element_code(int input, uint64_t element);
struct CodedElement {
  int input = 0;
  uint64_t element = 0;
};
// The element a float's bits name, if they are one of element_code's values.
std::optional<CodedElement> decode_element(uint32_t bits);

struct FootprintTarget {
  Dim3 block;         // blockIdx
  uint32_t warp = 0;  // in the block
  uint32_t lane = 0;  // in the warp
  bool operator==(const FootprintTarget&) const = default;
};

// Requests, bytes moved by the lanes, and the cost: sectors (global) or wavefronts (shared).
struct LevelCount {
  uint64_t requests = 0, bytes = 0, cost = 0;
  bool operator==(const LevelCount&) const = default;
};

// What one scope (the block, the warp or the thread) did.
struct ScopeRecord {
  LevelCount global_loads, global_stores, shared_loads, shared_stores;
  std::vector<uint64_t> global_loaded, global_stored;  // 4-byte word addresses, sorted, each once
  std::vector<uint32_t> shared_read;                   // the bits of the 4-byte words read, sorted, each once
  bool operator==(const ScopeRecord&) const = default;
};

enum Scope { k_block = 0, k_warp = 1, k_thread = 2 };
inline constexpr int k_scopes = 3;

struct Footprint {
  FootprintTarget target;
  std::vector<uint64_t> buffers;  // the launch's buffers' device addresses, in the request's order
  bool block_ran = false;
  bool truncated = false;  // a scope's word list reached k_max_words; the rest were not kept
  std::array<ScopeRecord, k_scopes> scopes;
  bool operator==(const Footprint&) const = default;
};

// Words kept per list: a block over a 128 x 128 tile of C with K = 1024 reads 256 Ki of A and B.
inline constexpr size_t k_max_words = size_t{1} << 20;

class TileFootprint : public emu::AccessObserver {
 public:
  explicit TileFootprint(const FootprintTarget& target) { m_data.target = target; }
  void on_buffers(const std::vector<uint64_t>& addresses) override { m_data.buffers = addresses; }
  void on_access(const emu::ObservedAccess& access) override;
  // The record, its lists sorted and each word once.
  const Footprint& footprint();
  const FootprintTarget& target() const { return m_data.target; }
  // Takes what another observer recorded (in the sandbox, sent back over a pipe).
  void adopt(Footprint footprint) {
    m_data = std::move(footprint);
    m_sorted = true;
  }

 private:
  Footprint m_data;
  bool m_sorted = true;
};

// One pointer parameter of the launch, as the footprint draws it: `rows` x `cols` elements of
// `element_bytes` each, in buffer `buffer` of the request. `coded_input`: the input number its
// values were coded with (element_code), or -1.
struct MatrixSpec {
  std::string name;
  bool input = false, output = false;
  uint64_t rows = 1, cols = 1;
  uint32_t element_bytes = 4;
  size_t buffer = 0;
  int coded_input = -1;
};

// What each scope touched of one matrix, element by element (row-major).
struct MatrixFootprint {
  MatrixSpec spec;
  // Inputs: the elements the scope read. The block: those it loaded from global memory. A warp or
  // a thread: those it read from shared memory when it read any of this matrix there (the values
  // say which), else those it loaded from global memory itself. Outputs: the elements written.
  std::array<std::vector<bool>, k_scopes> touched;
  std::array<bool, k_scopes> through_shared{};  // the scope's reads of this input came from shared memory
  std::array<uint64_t, k_scopes> count{};       // elements touched
  // The smallest rectangle holding what the scope touched: first row, last row, first and last
  // column (all 0 and `empty` when it touched nothing).
  struct Box {
    uint64_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
    bool empty = true;
  };
  std::array<Box, k_scopes> box{};
};

// The pointer parameters of an exercise's case, as the footprint draws them (one row when the
// parameter has no shape), with the float inputs' values replaced by element_code's, in
// parameter order. An Error: a shape that cannot be evaluated.
Expected<std::vector<MatrixSpec>> code_case_inputs(const grade::Exercise& exercise, grade::CaseData& data);

std::vector<MatrixFootprint> matrix_footprints(const Footprint& footprint, const std::vector<MatrixSpec>& matrices);

// The part of the matrix the block touched (its box) drawn in at most `max_rows` x `max_cols`
// characters, each standing for a square of 2^n x 2^n elements (the smallest n that fits): `#`
// the thread touched one of them, `w` the warp, `o` the block, `.` none. The first line names
// the part and the scale.
std::vector<std::string> draw_footprint(const MatrixFootprint& matrix, uint64_t max_rows, uint64_t max_cols);

}  // namespace tilecamp::viz
