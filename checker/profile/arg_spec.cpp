#include "checker/profile/arg_spec.h"

#include <charconv>
#include <fstream>
#include <iterator>
#include <cstring>
#include <random>

namespace tilecamp::profile {
namespace {

constexpr std::string_view k_spec_help =
    "expected i32:V, u32:V, i64:V, u64:V, f32:V, f64:V (a scalar) or f32[N], f64[N], i32[N], "
    "u32[N], i64[N], u64[N] (a buffer), optionally followed by =rand, =zeros or =iota";

bool is_float(ElementType type) { return type == ElementType::F32 || type == ElementType::F64; }
bool is_signed(ElementType type) { return type == ElementType::I32 || type == ElementType::I64; }

template <typename T>
std::vector<uint8_t> bytes_of(T value) {
  std::vector<uint8_t> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

Error spec_error(std::string_view text, std::string_view what) {
  return make_error("--arg '" + std::string(text) + "': " + std::string(what));
}

Expected<std::vector<uint8_t>> parse_scalar(ElementType type, std::string_view value, std::string_view text) {
  const char* begin = value.data();
  const char* end = value.data() + value.size();
  if (is_float(type)) {
    double parsed = 0;
    auto [ptr, ec] = std::from_chars(begin, end, parsed);
    if (ec != std::errc() || ptr != end) return spec_error(text, "`" + std::string(value) + "` is not a number");
    return type == ElementType::F32 ? bytes_of(static_cast<float>(parsed)) : bytes_of(parsed);
  }
  int base = 10;
  if (value.starts_with("0x") || value.starts_with("0X")) {
    begin += 2;
    base = 16;
  }
  if (is_signed(type)) {
    int64_t parsed = 0;
    auto [ptr, ec] = std::from_chars(begin, end, parsed, base);
    if (ec != std::errc() || ptr != end) return spec_error(text, "`" + std::string(value) + "` is not an integer");
    if (type == ElementType::I32 && (parsed < INT32_MIN || parsed > INT32_MAX)) {
      return spec_error(text, "`" + std::string(value) + "` does not fit in 32 bits");
    }
    return type == ElementType::I32 ? bytes_of(static_cast<int32_t>(parsed)) : bytes_of(parsed);
  }
  uint64_t parsed = 0;
  auto [ptr, ec] = std::from_chars(begin, end, parsed, base);
  if (ec != std::errc() || ptr != end) {
    return spec_error(text, "`" + std::string(value) + "` is not an unsigned integer");
  }
  if (type == ElementType::U32 && parsed > UINT32_MAX) {
    return spec_error(text, "`" + std::string(value) + "` does not fit in 32 bits");
  }
  return type == ElementType::U32 ? bytes_of(static_cast<uint32_t>(parsed)) : bytes_of(parsed);
}

}  // namespace

uint32_t element_bytes(ElementType type) {
  return type == ElementType::I32 || type == ElementType::U32 || type == ElementType::F32 ? 4 : 8;
}

Expected<ElementType> parse_element_type(std::string_view name) {
  if (name == "i32") return ElementType::I32;
  if (name == "u32") return ElementType::U32;
  if (name == "i64") return ElementType::I64;
  if (name == "u64") return ElementType::U64;
  if (name == "f32") return ElementType::F32;
  if (name == "f64") return ElementType::F64;
  return make_error("unknown type `" + std::string(name) + "`");
}

Expected<ArgSpec> parse_arg_spec(std::string_view text) {
  ArgSpec spec;
  spec.text = std::string(text);
  const size_t colon = text.find(':');
  const size_t bracket = text.find('[');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon < bracket)) {
    auto type = parse_element_type(text.substr(0, colon));
    if (!type) return spec_error(text, type.error() + "; " + std::string(k_spec_help));
    spec.type = *type;
    TC_TRY_ASSIGN(spec.scalar, parse_scalar(spec.type, text.substr(colon + 1), text));
    return spec;
  }
  if (bracket == std::string_view::npos) return spec_error(text, k_spec_help);
  auto type = parse_element_type(text.substr(0, bracket));
  if (!type) return spec_error(text, type.error() + "; " + std::string(k_spec_help));
  spec.type = *type;
  spec.is_buffer = true;
  const size_t close = text.find(']', bracket);
  if (close == std::string_view::npos) return spec_error(text, "missing `]` after the element count");
  std::string_view count = text.substr(bracket + 1, close - bracket - 1);
  auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), spec.count);
  if (ec != std::errc() || ptr != count.data() + count.size() || spec.count == 0) {
    return spec_error(text, "expected a positive element count between the brackets, e.g. f32[1024]");
  }
  if (spec.count > (uint64_t{1} << 31) / element_bytes(spec.type)) {
    return spec_error(text, "a buffer of at most 2 GiB, please");
  }
  std::string_view fill = text.substr(close + 1);
  if (fill.empty() || fill == "=rand") {
    spec.fill = Fill::Rand;
  } else if (fill == "=zeros") {
    spec.fill = Fill::Zeros;
  } else if (fill == "=iota") {
    spec.fill = Fill::Iota;
  } else if (fill.starts_with("=file:") && fill.size() > 6) {
    spec.fill = Fill::File;
    spec.file = std::string(fill.substr(6));
  } else {
    return spec_error(text, "unknown fill `" + std::string(fill) + "`; expected =rand, =zeros, =iota or =file:PATH");
  }
  return spec;
}

Expected<std::vector<uint8_t>> fill_buffer(const ArgSpec& spec, uint64_t seed) {
  const uint32_t size = element_bytes(spec.type);
  std::vector<uint8_t> bytes(spec.count * size, 0);
  if (spec.fill == Fill::Zeros) return bytes;
  if (spec.fill == Fill::File) {
    std::ifstream in(spec.file, std::ios::binary);
    if (!in) return spec_error(spec.text, "cannot open " + spec.file);
    std::vector<uint8_t> contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (contents.size() != bytes.size()) {
      return spec_error(spec.text, spec.file + " has " + std::to_string(contents.size()) + " bytes, but " +
                                       std::to_string(spec.count) + " elements of " + std::to_string(size) +
                                       " bytes need " + std::to_string(bytes.size()));
    }
    return contents;
  }
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(0, 999);
  const bool iota = spec.fill == Fill::Iota;
  for (uint64_t i = 0; i < spec.count; ++i) {
    auto put = [&](auto value) { std::memcpy(bytes.data() + i * size, &value, sizeof value); };
    const double real_value = iota ? static_cast<double>(i) : 0.0;
    const int64_t int_value = iota ? static_cast<int64_t>(i) : 0;
    switch (spec.type) {
      case ElementType::F32: put(static_cast<float>(iota ? real_value : real(random))); break;
      case ElementType::F64: put(iota ? real_value : real(random)); break;
      case ElementType::I32: put(static_cast<int32_t>(iota ? int_value : integer(random))); break;
      case ElementType::U32: put(static_cast<uint32_t>(iota ? int_value : integer(random))); break;
      case ElementType::I64: put(iota ? int_value : integer(random)); break;
      case ElementType::U64: put(static_cast<uint64_t>(iota ? int_value : integer(random))); break;
    }
  }
  return bytes;
}

Expected<std::vector<uint8_t>> spec_bytes(const ArgSpec& spec, uint64_t seed) {
  if (!spec.is_buffer) return spec.scalar;
  return fill_buffer(spec, seed);
}

}  // namespace tilecamp::profile
