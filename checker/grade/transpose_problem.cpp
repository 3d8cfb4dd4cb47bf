#include "checker/grade/transpose_problem.h"

#include <cmath>
#include <cstring>
#include <random>

namespace tilecamp::grade {
namespace {

constexpr int k_shown_mismatches = 4;

std::vector<uint8_t> int32_bytes(int64_t value) {
  const int32_t narrow = static_cast<int32_t>(value);
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &narrow, 4);
  return bytes;
}

float float_at(const std::vector<uint8_t>& bytes, size_t index) {
  float value;
  std::memcpy(&value, bytes.data() + index * 4, 4);
  return value;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

std::string shape_text(int64_t width, int64_t height) { return std::to_string(width) + "x" + std::to_string(height); }

std::string value_text(float value) {
  if (std::isnan(value)) return "NaN (never written)";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace

std::vector<ProblemCase> TransposeProblem::cases(uint64_t seed) const {
  std::mt19937_64 random(seed);
  auto draw = [&](int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(random); };
  auto partial = [&] {  // a size that leaves a partial tile for any tile of 2..32
    int64_t n;
    do n = draw(33, 200);
    while (n % 2 == 0 || n % 3 == 0);
    return n;
  };
  static const int64_t k_primes[] = {37, 61, 97, 127, 131, 157, 193, 251};
  auto prime = [&] { return k_primes[draw(0, 7)]; };
  auto make = [](int64_t w, int64_t h, bool hidden, bool performance = false) {
    return ProblemCase{shape_text(w, h), {w, h}, hidden, performance};
  };
  return {
      make(64, 64, false),
      make(50, 37, false),
      make(partial(), partial(), true),
      make(1, draw(2, 120), true),
      make(draw(2, 120), 1, true),
      make(prime(), prime(), true),
      make(768, 544, true, true),
  };
}

Expected<LaunchRequest> TransposeProblem::make_launch(const ProblemCase& problem_case, const LaunchConstants& constants,
                                                      uint64_t seed) const {
  const int64_t tile = constants.at("TILE_DIM");
  auto rows_it = constants.find("BLOCK_ROWS");
  const int64_t block_rows = rows_it == constants.end() ? tile : rows_it->second;
  if (tile < 1 || tile > 1024 || block_rows < 1 || tile * block_rows > 1024) {
    return make_error("TILE_DIM = " + std::to_string(tile) + " and BLOCK_ROWS = " + std::to_string(block_rows) +
                      " make a block of " + std::to_string(tile * block_rows) +
                      " threads; a block has 1 to 1024 threads");
  }
  const int64_t width = problem_case.dims[0], height = problem_case.dims[1];
  LaunchRequest request;
  request.config.block = {static_cast<uint32_t>(tile), static_cast<uint32_t>(block_rows), 1};
  request.config.grid = {static_cast<uint32_t>((width + tile - 1) / tile),
                         static_cast<uint32_t>((height + tile - 1) / tile), 1};
  const size_t count = static_cast<size_t>(width * height);
  std::vector<uint8_t> input(count * 4);
  std::mt19937 random(static_cast<uint32_t>(seed));
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  for (size_t i = 0; i < count; ++i) {
    float value = values(random);
    if (value == 0.0f) value = 1.0f;  // every element distinguishable from an unwritten zero
    std::memcpy(input.data() + i * 4, &value, 4);
  }
  std::vector<uint8_t> output(count * 4);
  const float poison = std::nanf("");
  for (size_t i = 0; i < count; ++i) std::memcpy(output.data() + i * 4, &poison, 4);
  request.buffers = {{"in", std::move(input)}, {"out", std::move(output)}};
  request.arguments = {{{}, 0}, {{}, 1}, {int32_bytes(width), -1}, {int32_bytes(height), -1}};
  return request;
}

CaseJudgement TransposeProblem::judge(const ProblemCase& problem_case, const LaunchConstants& constants,
                                      const LaunchRequest& request, const LaunchOutcome& outcome) const {
  const int64_t width = problem_case.dims[0], height = problem_case.dims[1];
  const int64_t tile = constants.at("TILE_DIM");
  const std::vector<uint8_t>& input = request.buffers[0].bytes;
  const std::vector<uint8_t>& output = outcome.buffers[1];
  if (outcome.buffers[0] != input) return {false, "the kernel wrote to its input `in`; only `out` may change"};
  int64_t mismatches = 0, unwritten = 0, edge_only = 0, swapped = 0;
  std::string shown;
  for (int64_t row = 0; row < width; ++row) {        // out has `width` rows of `height` columns
    for (int64_t col = 0; col < height; ++col) {
      const float expected = float_at(input, static_cast<size_t>(col * width + row));
      const float actual = float_at(output, static_cast<size_t>(row * height + col));
      if (same_bits(expected, actual)) continue;
      ++mismatches;
      unwritten += std::isnan(actual);
      if (row >= width / tile * tile || col >= height / tile * tile) ++edge_only;
      // Did the value land where a copy (no transpose) would put it?
      if (row * height + col < width * height && same_bits(actual, float_at(input, static_cast<size_t>(row * height + col)))) {
        ++swapped;
      }
      if (mismatches <= k_shown_mismatches) {
        shown += "\n    out[" + std::to_string(row) + "][" + std::to_string(col) + "]: expected " +
                 value_text(expected) + ", got " + value_text(actual);
      }
    }
  }
  if (mismatches == 0) return {true, ""};
  std::string message = std::to_string(mismatches) + " of " + std::to_string(width * height) +
                        " outputs are wrong (out is " + std::to_string(width) + " rows x " +
                        std::to_string(height) + " columns):" + shown;
  if (unwritten == mismatches) {
    message += "\n  every wrong element was never written";
    if (edge_only == mismatches) message += ", all in the partial tiles at the edges: check the bounds guards";
  } else if (swapped * 2 > mismatches) {
    message += "\n  most wrong elements hold in[] at the same index: the output is copied, not transposed";
  } else if (edge_only == mismatches) {
    message += "\n  all wrong elements are in the partial tiles at the edges: check the bounds guards, and which "
               "tile of `out` each block writes";
  }
  return {false, message};
}

Expected<std::unique_ptr<Problem>> make_problem(const std::string& kind) {
  if (kind == "transpose") return std::unique_ptr<Problem>(std::make_unique<TransposeProblem>());
  return make_error("unknown problem kind `" + kind + "` (known: transpose)");
}

}  // namespace tilecamp::grade
