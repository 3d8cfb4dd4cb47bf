#include "checker/grade/reference.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <thread>

namespace tilecamp::grade {
namespace {

// The float buffers of one case by parameter name; a reference reads its inputs and fills its
// outputs (already sized) here. Sums are accumulated in double, then rounded once.
using FloatBuffers = std::map<std::string, std::vector<float>>;
using Options = std::map<std::string, double>;

struct Builtin {
  const char* name;
  std::vector<const char*> inputs;
  std::vector<const char*> outputs;
  std::vector<const char*> dims;
  std::function<void(const Bindings&, const Options&, FloatBuffers&)> run;
  std::vector<const char*> int_outputs = {};  // 32-bit integer outputs, kept bit for bit in FloatBuffers
};

size_t at(const Bindings& dims, const char* name) { return static_cast<size_t>(dims.at(name)); }

void vector_add(const Bindings&, const Options&, FloatBuffers& b) {
  auto& c = b["c"];
  for (size_t i = 0; i < c.size() && i < b["a"].size() && i < b["b"].size(); ++i) c[i] = b["a"][i] + b["b"][i];
}

void copy(const Bindings&, const Options&, FloatBuffers& b) {
  auto& out = b["out"];
  std::copy_n(b["in"].begin(), std::min(out.size(), b["in"].size()), out.begin());
}

void transpose(const Bindings& dims, const Options&, FloatBuffers& b) {
  const size_t width = at(dims, "width"), height = at(dims, "height");
  const auto& in = b["in"];
  auto& out = b["out"];
  for (size_t y = 0; y < height; ++y) {
    for (size_t x = 0; x < width; ++x) out[x * height + y] = in[y * width + x];
  }
}

void stencil_1d(const Bindings& dims, const Options& options, FloatBuffers& b) {
  const int64_t n = dims.at("n");
  const int64_t radius = static_cast<int64_t>(options.count("radius") ? options.at("radius") : 3);
  const auto& in = b["in"];
  auto& out = b["out"];
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int64_t j = std::max<int64_t>(0, i - radius); j <= std::min(n - 1, i + radius); ++j) sum += in[static_cast<size_t>(j)];
    out[static_cast<size_t>(i)] = static_cast<float>(sum / static_cast<double>(2 * radius + 1));
  }
}

void row_sum(const Bindings& dims, const Options&, FloatBuffers& b) {
  const size_t width = at(dims, "width"), height = at(dims, "height");
  const auto& in = b["in"];
  auto& out = b["out"];
  for (size_t y = 0; y < height; ++y) {
    double sum = 0;
    for (size_t x = 0; x < width; ++x) sum += in[y * width + x];
    out[y] = static_cast<float>(sum);
  }
}

void block_sum(const Bindings& dims, const Options&, FloatBuffers& b) {
  const size_t n = at(dims, "n"), block = at(dims, "block");
  const auto& in = b["in"];
  auto& out = b["out"];
  for (size_t first = 0, index = 0; first < n && index < out.size(); first += block, ++index) {
    double sum = 0;
    for (size_t i = first; i < std::min(n, first + block); ++i) sum += in[i];
    out[index] = static_cast<float>(sum);
  }
}

// An integer output lives in FloatBuffers as its bits.
void store_int(std::vector<float>& buffer, size_t index, int32_t value) {
  std::memcpy(&buffer[index], &value, 4);
}

// Stream compaction, one segment at a time (a block's share): the positive elements of each
// `segment` elements of `in`, in order, at the front of the same segment of `out`, whose other
// elements stay as they were; counts[s] = how many segment s kept.
void compact_positive(const Bindings& dims, const Options& options, FloatBuffers& b) {
  const size_t n = at(dims, "n");
  const size_t segment = static_cast<size_t>(options.count("segment") ? options.at("segment") : 256);
  const auto& in = b["in"];
  auto& out = b["out"];
  auto& counts = b["counts"];
  for (size_t first = 0, index = 0; first < n && index < counts.size(); first += segment, ++index) {
    size_t kept = 0;
    for (size_t i = first; i < std::min(n, first + segment); ++i) {
      if (in[i] > 0.0f) out[first + kept++] = in[i];
    }
    store_int(counts, index, static_cast<int32_t>(kept));
  }
}

// Rows [first, last) of C = A B, each row summed in double in the order of k.
void sgemm_rows(const float* a, const float* b, float* c, size_t first, size_t last, size_t n, size_t k) {
  std::vector<double> row(n);
  for (size_t i = first; i < last; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (size_t p = 0; p < k; ++p) {
      const double a_ip = a[i * k + p];
      for (size_t j = 0; j < n; ++j) row[j] += a_ip * b[p * n + j];
    }
    for (size_t j = 0; j < n; ++j) c[i * n + j] = static_cast<float>(row[j]);
  }
}

// A GPU's timed case (2048^3: 8.6 G multiply-adds) would keep one core busy for seconds, so large
// products are split by rows over the cores. Every row is computed the same way whichever thread
// takes it: the result does not depend on the number of threads.
void sgemm(const Bindings& dims, const Options&, FloatBuffers& buffers) {
  const size_t m = at(dims, "M"), n = at(dims, "N"), k = at(dims, "K");
  const float* a = buffers["A"].data();
  const float* b = buffers["B"].data();
  float* c = buffers["C"].data();
  constexpr double k_work_per_thread = 1 << 26;  // multiply-adds worth a thread of their own
  const size_t wanted = static_cast<size_t>(static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) /
                                            k_work_per_thread);
  const size_t threads = std::max<size_t>(1, std::min({wanted, size_t{std::thread::hardware_concurrency()}, m}));
  if (threads <= 1) {
    sgemm_rows(a, b, c, 0, m, n, k);
    return;
  }
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back(sgemm_rows, a, b, c, m * t / threads, m * (t + 1) / threads, n, k);
  }
  for (std::thread& worker : workers) worker.join();
}

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> k_builtins = {
      {"vector_add", {"a", "b"}, {"c"}, {"n"}, vector_add},
      {"copy", {"in"}, {"out"}, {}, copy},
      {"transpose", {"in"}, {"out"}, {"width", "height"}, transpose},
      {"stencil_1d", {"in"}, {"out"}, {"n"}, stencil_1d},
      {"row_sum", {"in"}, {"out"}, {"width", "height"}, row_sum},
      {"block_sum", {"in"}, {"out"}, {"n", "block"}, block_sum},
      {"sgemm", {"A", "B"}, {"C"}, {"M", "N", "K"}, sgemm},
      {"compact_positive", {"in"}, {"out"}, {"n"}, compact_positive, {"counts"}},
  };
  return k_builtins;
}

const Builtin* find_builtin(const std::string& name) {
  for (const Builtin& builtin : builtins()) {
    if (name == builtin.name) return &builtin;
  }
  return nullptr;
}

std::vector<float> floats_of(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), values.size() * 4);
  return values;
}

}  // namespace

std::vector<std::string> builtin_references() {
  std::vector<std::string> names;
  for (const Builtin& builtin : builtins()) names.emplace_back(builtin.name);
  return names;
}

Status check_builtin_reference(const std::string& name, const Exercise& exercise) {
  const Builtin* builtin = find_builtin(name);
  if (builtin == nullptr) {
    std::string known;
    for (const std::string& n : builtin_references()) known += (known.empty() ? "" : ", ") + n;
    return make_error("one of the built-in references (" + known + "), not `" + name + "`");
  }
  auto find_param = [&](const char* wanted) {
    return std::find_if(exercise.params.begin(), exercise.params.end(), [&](const Param& p) { return p.name == wanted; });
  };
  for (const char* input : builtin->inputs) {
    auto param = find_param(input);
    if (param == exercise.params.end() || !param->pointer || !param->is_input() || param->element != ElementType::F32) {
      return make_error(std::string("`") + name + "` reads a float input parameter named `" + input + "`");
    }
  }
  for (const char* output : builtin->outputs) {
    auto param = find_param(output);
    if (param == exercise.params.end() || !param->pointer || !param->is_output() || param->element != ElementType::F32) {
      return make_error(std::string("`") + name + "` writes a float output parameter named `" + output + "`");
    }
  }
  for (const char* output : builtin->int_outputs) {
    auto param = find_param(output);
    if (param == exercise.params.end() || !param->pointer || !param->is_output() || param->element != ElementType::I32) {
      return make_error(std::string("`") + name + "` writes an int output parameter named `" + output + "`");
    }
  }
  for (const char* dim : builtin->dims) {
    if (std::find(exercise.problem.dims.begin(), exercise.problem.dims.end(), dim) == exercise.problem.dims.end()) {
      return make_error(std::string("`") + name + "` needs a problem dimension named `" + dim + "`");
    }
  }
  return ok();
}

std::vector<std::vector<uint8_t>> run_builtin_reference(const Exercise& exercise, const CaseData& data) {
  const Builtin* builtin = find_builtin(exercise.reference.builtin);
  FloatBuffers buffers;
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    if (data.buffer_of_param[i] < 0) continue;
    const std::vector<uint8_t>& bytes = data.buffers[static_cast<size_t>(data.buffer_of_param[i])].bytes;
    buffers[exercise.params[i].name] = floats_of(bytes);
  }
  builtin->run(data.dims, exercise.reference.options, buffers);
  std::vector<std::vector<uint8_t>> result;
  for (size_t i = 0; i < exercise.params.size(); ++i) {
    if (data.buffer_of_param[i] < 0) continue;
    const std::vector<float>& values = buffers[exercise.params[i].name];
    std::vector<uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    result.push_back(exercise.params[i].is_output() ? std::move(bytes)
                                                    : data.buffers[static_cast<size_t>(data.buffer_of_param[i])].bytes);
  }
  return result;
}

}  // namespace tilecamp::grade
