#include "checker/grade/judge.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace tilecamp::grade {
namespace {

constexpr int k_shown_mismatches = 4;

uint32_t bits_at(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + index * 4, 4);
  return value;
}

float float_of(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

std::string value_text(ElementType type, uint32_t bits) {
  if (type == ElementType::I32) return bits == 0xFFFFFFFFu ? "-1 (never written?)" : std::to_string(static_cast<int32_t>(bits));
  if (type == ElementType::U32) return bits == 0xFFFFFFFFu ? "4294967295 (never written?)" : std::to_string(bits);
  const float value = float_of(bits);
  if (std::isnan(value)) return "NaN (never written)";
  return fmt::format("{:.7g}", value);
}

bool matches(const Exercise& exercise, ElementType type, uint32_t expected, uint32_t actual) {
  if (expected == actual) return true;
  if (type != ElementType::F32) return false;
  const double e = float_of(expected), a = float_of(actual);
  // An element the reference leaves as it was (poisoned) must stay unwritten: any NaN, since the
  // host poisons with one NaN and a GPU's repeated runs with another (all ones).
  if (std::isnan(e) && std::isnan(a)) return true;
  if (!exercise.compare.relative || std::isnan(a) || std::isnan(e)) return false;
  return std::fabs(a - e) <= exercise.compare.tol + std::fabs(e) * exercise.compare.eps;
}

// The buffer's rows and columns: its shape, or one row.
std::pair<int64_t, int64_t> rows_and_columns(const Param& param, const CaseData& data, size_t elements) {
  if (param.shape.size() == 2) {
    auto rows = evaluate(param.shape[0], data.dims), columns = evaluate(param.shape[1], data.dims);
    if (rows && columns && *rows * *columns == static_cast<int64_t>(elements)) return {*rows, *columns};
  }
  return {1, static_cast<int64_t>(elements)};
}

struct Mismatches {
  int64_t count = 0, unwritten = 0, at_edges = 0, swapped = 0, same_index_input = 0;
  std::string shown;
};

CaseJudgement judge_output(const Exercise& exercise, const Param& param, const CaseData& data,
                           const std::vector<uint8_t>& expected, const std::vector<uint8_t>& actual,
                           const LaunchConfig& config) {
  const size_t elements = expected.size() / 4;
  const auto [rows, columns] = rows_and_columns(param, data, elements);
  const int64_t tile = config.block.x;  // the tiles a launch covers, as wide as a block
  auto at_edge = [&](int64_t row, int64_t column) {
    const bool column_edge = columns % tile != 0 && column >= columns - columns % tile;
    const bool row_edge = rows > 1 && rows % tile != 0 && row >= rows - rows % tile;
    return column_edge || row_edge;
  };
  Mismatches m;
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      const size_t index = static_cast<size_t>(row * columns + column);
      const uint32_t want = bits_at(expected, index), got = bits_at(actual, index);
      if (matches(exercise, param.element, want, got)) continue;
      ++m.count;
      m.unwritten += param.element == ElementType::F32 ? std::isnan(float_of(got)) : got == 0xFFFFFFFFu;
      m.at_edges += at_edge(row, column);
      if (rows > 1 && column < rows && row < columns) {  // the element at (column, row), read as rows x columns
        m.swapped += bits_at(expected, static_cast<size_t>(column * columns + row)) == got;
      }
      for (size_t b = 0; b < data.buffers.size(); ++b) {  // a copy of an input at the same index?
        const std::vector<uint8_t>& input = data.buffers[b].bytes;
        if (&input != &actual && index * 4 < input.size() && data.buffers[b].name != param.name &&
            bits_at(input, index) == got) {
          ++m.same_index_input;
          break;
        }
      }
      if (m.count <= k_shown_mismatches) {
        const std::string where = rows > 1 ? fmt::format("{}[{}][{}]", param.name, row, column)
                                           : fmt::format("{}[{}]", param.name, column);
        m.shown += fmt::format("\n    {}: expected {}, got {}", where, value_text(param.element, want),
                               value_text(param.element, got));
      }
    }
  }
  if (m.count == 0) return {true, ""};
  std::string message = rows > 1 ? fmt::format("{} of {} elements of `{}` are wrong (`{}` is {} rows x {} columns):",
                                               m.count, elements, param.name, param.name, rows, columns)
                                 : fmt::format("{} of {} elements of `{}` are wrong:", m.count, elements, param.name);
  message += m.shown;
  if (m.count > k_shown_mismatches) message += fmt::format("\n    ... and {} more", m.count - k_shown_mismatches);
  if (m.unwritten == m.count) {
    message += "\n  every wrong element was never written";
    if (m.at_edges == m.count) message += ", all in the partial tiles at the edges: check the bounds guards";
  } else if (m.swapped * 2 > m.count) {
    message += "\n  most wrong elements hold the value of the element with row and column swapped: a transposed index";
  } else if (m.same_index_input * 2 > m.count) {
    message += "\n  most wrong elements hold an input's value at the same index: the data is copied, not rearranged";
  } else if (m.at_edges == m.count) {
    message += "\n  all wrong elements are in the partial tiles at the edges: check the bounds guards";
  } else if (exercise.compare.relative) {
    message += fmt::format("\n  (allowed error: {:g} + {:g} x |expected|)", exercise.compare.tol, exercise.compare.eps);
  }
  return {false, message};
}

}  // namespace

CaseJudgement judge_case(const Exercise& exercise, const CaseData& data,
                         const std::vector<std::vector<uint8_t>>& expected,
                         const std::vector<std::vector<uint8_t>>& actual, const LaunchConfig& config) {
  std::string outputs;
  for (const Param& param : exercise.params) {
    if (param.is_output()) outputs += (outputs.empty() ? "`" : ", `") + param.name + "`";
  }
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    const Param& param = exercise.params[i];
    if (param.role != ParamRole::In) continue;
    const size_t buffer = static_cast<size_t>(data.buffer_of_param[i]);
    if (actual[buffer] != data.buffers[buffer].bytes) {
      return {false, "the kernel wrote to its input `" + param.name + "`; only " + outputs + " may change"};
    }
  }
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    const Param& param = exercise.params[i];
    if (!param.is_output()) continue;
    const size_t buffer = static_cast<size_t>(data.buffer_of_param[i]);
    CaseJudgement judgement = judge_output(exercise, param, data, expected[buffer], actual[buffer], config);
    if (!judgement.passed) return judgement;
  }
  return {true, ""};
}

}  // namespace tilecamp::grade
