#include "checker/grade/cases.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>

namespace tilecamp::grade {
namespace {

constexpr int64_t k_max_buffer_elements = int64_t{1} << 26;  // 256 MiB of floats
constexpr int64_t k_max_emulated_fmas = int64_t{1} << 26;    // a 406^3 SGEMM: seconds on the emulator

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) return false;
  }
  return true;
}

// The hidden cases a seed draws, so that over one seed's cases every dimension takes: 1 (where its
// range starts there), a prime, a partial tile (neither even nor a multiple of 3, but of 5), an odd
// multiple of 3 and of 7, and whole tiles (a multiple of 32, and of 5 where the range allows): residues 0 and
// not 0 modulo 2, 3, 4, 5, 7, 8, 16 and 32. A kernel wrong only when n % 3 == 0, or only on whole
// tiles, fails under every seed, not under some.
class CaseDrawer {
 public:
  CaseDrawer(const ProblemSpec& problem, uint64_t seed) : m_problem(problem), m_random(seed) {}

  int64_t draw(int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(m_random); }

  // A value of `dim` for which every tile of 2..32 leaves a partial tile at the edge, where the
  // range allows one (not a multiple of 2 or 3), above 32 and a multiple of 5 where it can be.
  int64_t partial(const std::string& dim) {
    if (auto choice = chosen(dim)) return *choice;
    const auto [low, high] = m_problem.ranges.at(dim);
    const int64_t above = std::min<int64_t>(33, high);
    if (auto value = draw_congruent(dim, 30, draw(0, 1) == 0 ? 5 : 25, above)) return *value;  // 5 or 25 mod 30
    for (int attempt = 0; attempt < 64; ++attempt) {
      const int64_t value = draw(std::max<int64_t>(low, above), high);
      if (value % 2 != 0 && value % 3 != 0) return value;
    }
    return draw(low, high);
  }

  int64_t prime(const std::string& dim) {
    if (auto choice = chosen(dim)) return *choice;
    const auto [low, high] = m_problem.ranges.at(dim);
    for (int attempt = 0; attempt < 256; ++attempt) {
      const int64_t value = draw(low, high);
      if (is_prime(value)) return value;
    }
    return partial(dim);
  }

  // An odd multiple of 3 and of 7 (21 mod 42), else of 3 alone (3 mod 6), else anything.
  int64_t odd_multiple_of_three(const std::string& dim) {
    if (auto choice = chosen(dim)) return *choice;
    for (auto [step, offset] : {std::pair<int64_t, int64_t>{42, 21}, {6, 3}, {1, 0}}) {
      if (auto value = draw_congruent(dim, step, offset)) return *value;
    }
    return partial(dim);
  }

  // Whole tiles: a multiple of 160 (32 and 5), else of the largest power of two up to 32 the range holds.
  int64_t whole_tiles(const std::string& dim) {
    if (auto choice = chosen(dim)) return *choice;
    for (int64_t step : {160, 32, 16, 8, 4, 2, 1}) {
      if (auto value = draw_congruent(dim, step, 0)) return *value;
    }
    return partial(dim);
  }

  std::optional<int64_t> chosen(const std::string& dim) {
    auto found = m_problem.choices.find(dim);
    if (found == m_problem.choices.end()) return std::nullopt;
    return found->second[static_cast<size_t>(draw(0, static_cast<int64_t>(found->second.size()) - 1))];
  }

  std::vector<ProblemCase> hidden() {
    std::vector<ProblemCase> cases;
    auto add = [&](auto value_of) {
      ProblemCase problem_case;
      problem_case.hidden = true;
      for (const std::string& dim : m_problem.dims) problem_case.dims.push_back(value_of(dim));
      cases.push_back(std::move(problem_case));
    };
    add([&](const std::string& dim) { return partial(dim); });
    bool every_dim_was_odd_multiple = m_problem.dims.size() > 1;
    for (const std::string& one : m_problem.dims) {  // 1-wide, 1-tall, ...: the others odd multiples of 3
      auto range = m_problem.ranges.find(one);
      if (range == m_problem.ranges.end() || range->second.first != 1) {
        every_dim_was_odd_multiple = false;
        continue;
      }
      add([&](const std::string& dim) { return dim == one ? 1 : odd_multiple_of_three(dim); });
    }
    if (!every_dim_was_odd_multiple) add([&](const std::string& dim) { return odd_multiple_of_three(dim); });
    add([&](const std::string& dim) { return prime(dim); });
    add([&](const std::string& dim) { return whole_tiles(dim); });
    return cases;
  }

 private:
  // A value of `dim`'s range, at least `at_least`, that is `offset` modulo `step`, drawn evenly
  // among those there are.
  std::optional<int64_t> draw_congruent(const std::string& dim, int64_t step, int64_t offset, int64_t at_least = 1) {
    const auto [range_low, high] = m_problem.ranges.at(dim);
    const int64_t low = std::max(range_low, at_least);
    const int64_t first = low + ((offset - low % step) % step + step) % step;  // the smallest such value >= low
    if (first > high) return std::nullopt;
    return first + step * draw(0, (high - first) / step);
  }

  const ProblemSpec& m_problem;
  std::mt19937_64 m_random;
};

std::vector<uint8_t> scalar_bytes(const Param& param, int64_t value) {
  std::vector<uint8_t> bytes(4);
  if (param.element == ElementType::F32) {
    const float as_float = static_cast<float>(value);
    std::memcpy(bytes.data(), &as_float, 4);
  } else {
    const uint32_t as_int = static_cast<uint32_t>(value);
    std::memcpy(bytes.data(), &as_int, 4);
  }
  return bytes;
}

std::vector<uint8_t> input_bytes(const Param& param, size_t count, std::mt19937& random) {
  std::vector<uint8_t> bytes(count * 4);
  if (param.element == ElementType::F32) {
    std::uniform_real_distribution<float> values(static_cast<float>(param.low), static_cast<float>(param.high));
    for (size_t i = 0; i < count; ++i) {
      float value = values(random);
      if (value == 0.0f) value = static_cast<float>(param.high);  // never 0: distinguishable from unwritten
      std::memcpy(bytes.data() + i * 4, &value, 4);
    }
  } else {
    std::uniform_int_distribution<int64_t> values(static_cast<int64_t>(param.low), static_cast<int64_t>(param.high));
    for (size_t i = 0; i < count; ++i) {
      int64_t value = values(random);
      if (value == 0) value = static_cast<int64_t>(param.high);
      const uint32_t narrow = static_cast<uint32_t>(value);
      std::memcpy(bytes.data() + i * 4, &narrow, 4);
    }
  }
  if (param.hot_share > 0) {
    // The second half: each element the hot value with probability hot_share (drawn after the
    // uniform values, so a buffer without hot_share draws exactly as before).
    std::vector<uint8_t> hot = input_bytes(Param{.element = param.element, .low = param.low, .high = param.high}, 1, random);
    std::bernoulli_distribution is_hot(param.hot_share);
    for (size_t i = count / 2; i < count; ++i) {
      if (is_hot(random)) std::memcpy(bytes.data() + i * 4, hot.data(), 4);
    }
  }
  return bytes;
}

std::vector<uint8_t> poisoned_bytes(const Param& param, size_t count) {
  std::vector<uint8_t> bytes(count * 4, 0xFF);  // all ones: a NaN as a float, -1 as an integer
  if (param.element == ElementType::F32) {
    const float poison = std::nanf("");
    for (size_t i = 0; i < count; ++i) std::memcpy(bytes.data() + i * 4, &poison, 4);
  }
  return bytes;
}

Expected<std::vector<int64_t>> evaluate_all(const std::vector<std::string>& texts, const Bindings& names) {
  std::vector<int64_t> values;
  for (const std::string& text : texts) {
    TC_TRY_ASSIGN(int64_t value, evaluate(text, names));
    values.push_back(value);
  }
  return values;
}

std::string listed(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& text : texts) out += (out.empty() ? "" : ", ") + text;
  return texts.size() == 1 ? out : "(" + out + ")";
}

std::string listed(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t value : values) out += (out.empty() ? "" : ", ") + std::to_string(value);
  return values.size() == 1 ? out : "(" + out + ")";
}

}  // namespace

std::string case_shape(const ProblemSpec& problem, const ProblemCase& problem_case) {
  std::string shape;
  for (size_t i = 0; i < problem.dims.size(); ++i) {
    shape += fmt::format("{}{}={}", i == 0 ? "" : " ", problem.dims[i], problem_case.dims[i]);
  }
  return shape;
}

std::vector<ProblemCase> draw_cases(const ProblemSpec& problem, uint64_t seed, bool timed_on_gpu) {
  std::vector<ProblemCase> cases;
  for (const std::vector<int64_t>& dims : problem.public_cases) cases.push_back({dims, false, false});
  CaseDrawer drawer(problem, seed);
  for (ProblemCase& hidden : drawer.hidden()) cases.push_back(std::move(hidden));
  for (const std::vector<int64_t>& dims : problem.hidden_cases) cases.push_back({dims, true, false});
  const bool larger = timed_on_gpu && !problem.gpu_performance.empty();
  if (!problem.performance.empty()) cases.push_back({larger ? problem.gpu_performance : problem.performance, true, true});
  return cases;
}

Status check_buffer_elements(const Param& param, int64_t count) {
  if (count >= 0 && count <= k_max_buffer_elements) return ok();
  return make_error(fmt::format("buffer `{}` would have {} elements (size `{}`); at most {} are allowed", param.name,
                                count, param.size, k_max_buffer_elements));
}

Status check_case_fits(const Exercise& exercise, const std::vector<int64_t>& dims, bool on_emulator) {
  Bindings names;
  for (size_t d = 0; d < dims.size() && d < exercise.problem.dims.size(); ++d) names[exercise.problem.dims[d]] = dims[d];
  for (const Param& param : exercise.params) {
    TC_TRY_ASSIGN(int64_t value, evaluate(param.pointer ? param.size : param.value, names));
    if (param.pointer) {
      auto fits = check_buffer_elements(param, value);
      if (!fits) return fits;
    }
  }
  if (on_emulator && !exercise.problem.fmas.empty()) {
    TC_TRY_ASSIGN(int64_t fmas, evaluate(exercise.problem.fmas, names));
    if (fmas > k_max_emulated_fmas) {
      return make_error(fmt::format("the case would take {} multiply-adds (`fmas` = `{}`); the emulator runs at most {} "
                                    "in a case",
                                    fmas, exercise.problem.fmas, k_max_emulated_fmas));
    }
  }
  return ok();
}

Expected<CaseData> make_case_data(const Exercise& exercise, const ProblemCase& problem_case, uint64_t seed,
                                  bool zeroed) {
  CaseData data;
  for (size_t i = 0; i < exercise.problem.dims.size(); ++i) data.dims[exercise.problem.dims[i]] = problem_case.dims[i];
  std::mt19937 random(static_cast<uint32_t>(seed ^ (seed >> 32)));
  for (const Param& param : exercise.params) {
    if (!param.pointer) {
      TC_TRY_ASSIGN(int64_t value, evaluate(param.value, data.dims));
      data.buffer_of_param.push_back(-1);
      data.arguments.push_back({scalar_bytes(param, value), -1});
      continue;
    }
    TC_TRY_ASSIGN(int64_t count, evaluate(param.size, data.dims));
    TC_TRY(check_buffer_elements(param, count));
    const size_t elements = static_cast<size_t>(count);
    const int index = static_cast<int>(data.buffers.size());
    const BufferRole role = param.role == ParamRole::In    ? BufferRole::In
                            : param.role == ParamRole::Out ? BufferRole::Out
                                                           : BufferRole::InOut;
    if (zeroed) {
      data.buffers.push_back({param.name, {}, role, elements * 4});
    } else {
      data.buffers.push_back(
          {param.name, param.is_input() ? input_bytes(param, elements, random) : poisoned_bytes(param, elements), role});
    }
    data.buffer_of_param.push_back(index);
    data.arguments.push_back({{}, index});
  }
  return data;
}

Expected<LaunchConfig> launch_config(const LaunchSpec& launch, const Bindings& names) {
  TC_TRY_ASSIGN(std::vector<int64_t> block, evaluate_all(launch.block, names));
  TC_TRY_ASSIGN(std::vector<int64_t> grid, evaluate_all(launch.grid, names));
  block.resize(3, 1);
  grid.resize(3, 1);
  // Sides within 1..1024 first, so that their product cannot overflow.
  const bool sides_ok = block[0] >= 1 && block[1] >= 1 && block[2] >= 1 && block[0] <= 1024 && block[1] <= 1024 && block[2] <= 64;
  if (!sides_ok || block[0] * block[1] * block[2] > 1024) {
    const std::string threads = sides_ok ? fmt::format(" is {} threads", block[0] * block[1] * block[2]) : "";
    block.resize(launch.block.size());
    return make_error(fmt::format("the block {} = {}{}; a block has 1 to 1024 threads, each side at least 1 (z at most 64)",
                                  listed(launch.block), listed(block), threads));
  }
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1 || grid[0] > 0x7fffffff || grid[1] > 65535 || grid[2] > 65535) {
    grid.resize(launch.grid.size());
    return make_error(fmt::format("the grid {} = {} is not a valid grid: each side at least 1", listed(launch.grid),
                                  listed(grid)));
  }
  LaunchConfig config;
  config.block = {static_cast<uint32_t>(block[0]), static_cast<uint32_t>(block[1]), static_cast<uint32_t>(block[2])};
  config.grid = {static_cast<uint32_t>(grid[0]), static_cast<uint32_t>(grid[1]), static_cast<uint32_t>(grid[2])};
  config.cooperative = launch.cooperative;
  if (!launch.shared_bytes.empty()) {
    TC_TRY_ASSIGN(int64_t shared, evaluate(launch.shared_bytes, names));
    if (shared < 0 || shared > 227 * 1024) {
      return make_error(fmt::format("dynamic shared memory `{}` = {} bytes; a block may have 0 to {} bytes",
                                    launch.shared_bytes, shared, 227 * 1024));
    }
    config.dynamic_shared_bytes = static_cast<uint32_t>(shared);
  }
  return config;
}

double output_elements(const Exercise& exercise, const CaseData& data) {
  double elements = 0;
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    if (exercise.params[i].is_output()) elements += static_cast<double>(data.buffers[static_cast<size_t>(data.buffer_of_param[i])].bytes.size() / 4);
  }
  return elements;
}

}  // namespace tilecamp::grade
