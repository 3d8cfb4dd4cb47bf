#include "checker/viz/tile_footprint.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "checker/grade/expression.h"

namespace tilecamp::viz {
namespace {

constexpr uint64_t k_input_stride = uint64_t{1} << 23;

template <typename Word>
void sort_unique(std::vector<Word>& words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
}

// Appends, keeping the list within k_max_words: when full, duplicates go first.
template <typename Word>
void keep_word(std::vector<Word>& words, Word word, bool& truncated) {
  if (words.size() >= k_max_words) {
    sort_unique(words);
    if (words.size() >= k_max_words) {
      truncated = true;
      return;
    }
  }
  words.push_back(word);
}

}  // namespace

float element_code(int input, uint64_t element) {
  const double magnitude = 1.0 + static_cast<double>(element) + static_cast<double>(k_input_stride) * (input / 2);
  return static_cast<float>(input % 2 == 0 ? magnitude : -magnitude);
}

std::optional<CodedElement> decode_element(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  if (!std::isfinite(value) || value == 0 || value != std::trunc(value)) return std::nullopt;
  const double magnitude = std::fabs(static_cast<double>(value)) - 1;
  const int pair = static_cast<int>(magnitude / static_cast<double>(k_input_stride));
  if (pair >= k_max_coded_inputs / 2) return std::nullopt;
  const uint64_t element = static_cast<uint64_t>(magnitude) - uint64_t{k_input_stride} * pair;
  if (element >= k_max_coded_elements) return std::nullopt;
  return CodedElement{2 * pair + (value < 0 ? 1 : 0), element};
}

void TileFootprint::on_access(const emu::ObservedAccess& access) {
  const FootprintTarget& target = m_data.target;
  if (!(access.block == target.block)) return;
  m_data.block_ran = true;
  m_sorted = false;
  const bool shared = access.space == ptx::Space::Shared;
  // As the counters charged it: a request ptxas merged into another is paid for by that one.
  const uint64_t cost = access.charged.cost, requests = access.charged.requests;
  const uint32_t thread_lane = uint32_t{1} << target.lane;
  for (int scope = 0; scope < k_scopes; ++scope) {
    uint32_t lanes = access.lanes;
    if (scope >= k_warp && access.warp != target.warp) break;
    if (scope == k_thread && access.fragment) break;  // a fragment is the warp's, not one thread's
    if (scope == k_thread) lanes &= thread_lane;
    if (lanes == 0) continue;
    ScopeRecord& record = m_data.scopes[scope];
    LevelCount& count = shared ? (access.is_store ? record.shared_stores : record.shared_loads)
                               : (access.is_store ? record.global_stores : record.global_loads);
    count.requests += requests;
    count.bytes += uint64_t{access.bytes} * std::popcount(lanes);
    // A thread's share of a request's cost is not defined; the thread scope counts requests and bytes.
    if (scope != k_thread) count.cost += cost;
    if (shared && access.is_store) continue;
    for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
      const int lane = std::countr_zero(rest);
      for (uint32_t at = 0; at + 4 <= access.bytes; at += 4) {
        if (!shared) {
          keep_word(access.is_store ? record.global_stored : record.global_loaded, (access.addresses[lane] + at) / 4 * 4,
                    m_data.truncated);
        } else {
          uint32_t bits;
          std::memcpy(&bits, access.data[lane] + at, 4);
          keep_word(record.shared_read, bits, m_data.truncated);
        }
      }
    }
  }
}

const Footprint& TileFootprint::footprint() {
  if (!m_sorted) {
    for (ScopeRecord& record : m_data.scopes) {
      sort_unique(record.global_loaded);
      sort_unique(record.global_stored);
      sort_unique(record.shared_read);
    }
    m_sorted = true;
  }
  return m_data;
}

namespace {

// The matrix whose buffer holds `address`, and the element there; nullopt outside every one.
std::optional<std::pair<MatrixFootprint*, uint64_t>> locate(const std::vector<uint64_t>& bases,
                                                            std::vector<MatrixFootprint>& matrices, uint64_t address) {
  for (MatrixFootprint& matrix : matrices) {
    const MatrixSpec& spec = matrix.spec;
    if (spec.buffer >= bases.size()) continue;
    const uint64_t base = bases[spec.buffer], size = spec.rows * spec.cols * spec.element_bytes;
    if (address >= base && address - base < size) return std::pair{&matrix, (address - base) / spec.element_bytes};
  }
  return std::nullopt;
}

void mark(MatrixFootprint& matrix, int scope, uint64_t element) {
  if (element >= matrix.touched[scope].size() || matrix.touched[scope][element]) return;
  matrix.touched[scope][element] = true;
  ++matrix.count[scope];
  MatrixFootprint::Box& box = matrix.box[scope];
  const uint64_t row = element / matrix.spec.cols, col = element % matrix.spec.cols;
  if (box.empty) {
    box = {row, row, col, col, false};
    return;
  }
  box.row0 = std::min(box.row0, row);
  box.row1 = std::max(box.row1, row);
  box.col0 = std::min(box.col0, col);
  box.col1 = std::max(box.col1, col);
}

}  // namespace

std::vector<MatrixFootprint> matrix_footprints(const Footprint& footprint, const std::vector<MatrixSpec>& matrices) {
  std::vector<MatrixFootprint> found;
  for (const MatrixSpec& spec : matrices) {
    MatrixFootprint matrix{spec, {}, {}, {}, {}};
    for (auto& touched : matrix.touched) touched.assign(spec.rows * spec.cols, false);
    found.push_back(std::move(matrix));
  }
  for (int scope = 0; scope < k_scopes; ++scope) {
    const ScopeRecord& record = footprint.scopes[scope];
    for (uint64_t word : record.global_stored) {
      auto at = locate(footprint.buffers, found, word);
      if (at && at->first->spec.output) mark(*at->first, scope, at->second);
    }
    for (uint32_t bits : record.shared_read) {
      const std::optional<CodedElement> coded = decode_element(bits);
      if (!coded || scope == k_block) continue;
      for (MatrixFootprint& matrix : found) {
        if (matrix.spec.coded_input != coded->input) continue;
        matrix.through_shared[scope] = true;
        mark(matrix, scope, coded->element);
      }
    }
    for (uint64_t word : record.global_loaded) {
      auto at = locate(footprint.buffers, found, word);
      if (at && at->first->spec.input && !at->first->through_shared[scope]) mark(*at->first, scope, at->second);
    }
  }
  return found;
}

std::vector<std::string> draw_footprint(const MatrixFootprint& matrix, uint64_t max_rows, uint64_t max_cols) {
  const MatrixSpec& spec = matrix.spec;
  const MatrixFootprint::Box& part = matrix.box[k_block];
  if (part.empty) return {spec.name + ": nothing touched"};
  const uint64_t part_rows = part.row1 - part.row0 + 1, part_cols = part.col1 - part.col0 + 1;
  uint64_t cell = 1;
  while ((part_rows + cell - 1) / cell > max_rows || (part_cols + cell - 1) / cell > max_cols) cell *= 2;
  const uint64_t rows = (part_rows + cell - 1) / cell, cols = (part_cols + cell - 1) / cell;
  std::string title = spec.name;
  if (spec.rows > 1) {
    title += part_rows == spec.rows ? " rows all" : " rows " + std::to_string(part.row0) + "-" + std::to_string(part.row1);
    title += ",";
  }
  title += part_cols == spec.cols ? " columns all" : " columns " + std::to_string(part.col0) + "-" + std::to_string(part.col1);
  if (cell > 1) title += ", " + std::to_string(cell) + "x" + std::to_string(cell) + " a mark";
  std::vector<std::string> lines{title};
  std::vector<std::string> grid(rows, std::string(cols, '.'));
  constexpr char k_marks[k_scopes] = {'o', 'w', '#'};
  for (int scope = 0; scope < k_scopes; ++scope) {  // the block first: a warp's mark covers it
    const std::vector<bool>& touched = matrix.touched[scope];
    for (uint64_t element = 0; element < touched.size(); ++element) {
      if (!touched[element]) continue;
      const uint64_t row = element / spec.cols, col = element % spec.cols;
      if (row < part.row0 || row > part.row1 || col < part.col0 || col > part.col1) continue;
      grid[(row - part.row0) / cell][(col - part.col0) / cell] = k_marks[scope];
    }
  }
  for (std::string& line : grid) lines.push_back(std::move(line));
  return lines;
}

// The matrices the footprint draws: every pointer parameter, as its shape gives it (one row when
// it has none). Inputs of 32-bit floats get coded values, in parameter order.
Expected<std::vector<MatrixSpec>> code_case_inputs(const grade::Exercise& exercise, grade::CaseData& data) {
  std::vector<MatrixSpec> specs;
  int coded = 0;
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    const grade::Param& param = exercise.params[i];
    if (!param.pointer || data.buffer_of_param[i] < 0) continue;
    MatrixSpec spec;
    spec.name = param.name;
    spec.input = param.is_input();
    spec.output = param.is_output();
    spec.buffer = static_cast<size_t>(data.buffer_of_param[i]);
    const uint64_t elements = data.buffers[spec.buffer].bytes.size() / 4;
    spec.cols = elements;
    if (param.shape.size() == 2) {
      TC_TRY_ASSIGN(int64_t rows, grade::evaluate(param.shape[0], data.dims));
      TC_TRY_ASSIGN(int64_t cols, grade::evaluate(param.shape[1], data.dims));
      if (rows > 0 && cols > 0 && static_cast<uint64_t>(rows * cols) == elements) {
        spec.rows = static_cast<uint64_t>(rows);
        spec.cols = static_cast<uint64_t>(cols);
      }
    }
    if (spec.input && param.element == grade::ElementType::F32 && coded < k_max_coded_inputs &&
        elements <= k_max_coded_elements) {
      spec.coded_input = coded++;
      std::vector<uint8_t>& bytes = data.buffers[spec.buffer].bytes;
      for (uint64_t element = 0; element < elements; ++element) {
        const float value = element_code(spec.coded_input, element);
        std::memcpy(bytes.data() + 4 * element, &value, 4);
      }
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace tilecamp::viz
