#include "checker/profile/arg_spec.h"

#include <charconv>
#include <fstream>
#include <iterator>
#include <cstring>
#include <random>

#include "checker/emu/float_format.h"

namespace tilecamp::profile {
namespace {

constexpr std::string_view k_spec_help =
    "expected TYPE:V (a scalar) or TYPE[N] (a buffer, optionally followed by =rand, =zeros or =iota), "
    "TYPE one of i32, u32, i64, u64, f32, f64, i16, u16, f16, bf16";

bool is_float(ElementType type) {
  return type == ElementType::F32 || type == ElementType::F64 || type == ElementType::F16 || type == ElementType::BF16;
}
bool is_signed(ElementType type) {
  return type == ElementType::I32 || type == ElementType::I64 || type == ElementType::I16;
}

template <typename T>
void put(uint8_t* out, T value) {
  std::memcpy(out, &value, sizeof value);
}

// Writes a value in the element type's bytes, rounded to nearest even for a 16-bit float.
void put_float(uint8_t* out, ElementType type, double value) {
  switch (type) {
    case ElementType::F16: put(out, static_cast<uint16_t>(emu::encode(emu::k_f16, {value}, ptx::Rounding::Rn))); break;
    case ElementType::BF16: put(out, static_cast<uint16_t>(emu::encode(emu::k_bf16, {value}, ptx::Rounding::Rn))); break;
    case ElementType::F32: put(out, static_cast<float>(value)); break;
    default: put(out, value); break;
  }
}

// Writes an integer in the element type's bytes (its low bytes: the range is checked before).
void put_integer(uint8_t* out, ElementType type, uint64_t bits) {
  switch (element_bytes(type)) {
    case 2: put(out, static_cast<uint16_t>(bits)); break;
    case 4: put(out, static_cast<uint32_t>(bits)); break;
    default: put(out, bits); break;
  }
}

std::vector<uint8_t> float_bytes(ElementType type, double value) {
  std::vector<uint8_t> bytes(element_bytes(type));
  put_float(bytes.data(), type, value);
  return bytes;
}

std::vector<uint8_t> integer_bytes(ElementType type, uint64_t bits) {
  std::vector<uint8_t> bytes(element_bytes(type));
  put_integer(bytes.data(), type, bits);
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
    return float_bytes(type, parsed);
  }
  const int bits = static_cast<int>(element_bytes(type)) * 8;
  int base = 10;
  if (value.starts_with("0x") || value.starts_with("0X")) {
    begin += 2;
    base = 16;
  }
  if (is_signed(type)) {
    int64_t parsed = 0;
    auto [ptr, ec] = std::from_chars(begin, end, parsed, base);
    if (ec != std::errc() || ptr != end) return spec_error(text, "`" + std::string(value) + "` is not an integer");
    if (bits < 64 && (parsed < -(int64_t{1} << (bits - 1)) || parsed >= (int64_t{1} << (bits - 1)))) {
      return spec_error(text, "`" + std::string(value) + "` does not fit in " + std::to_string(bits) + " bits");
    }
    return integer_bytes(type, static_cast<uint64_t>(parsed));
  }
  uint64_t parsed = 0;
  auto [ptr, ec] = std::from_chars(begin, end, parsed, base);
  if (ec != std::errc() || ptr != end) {
    return spec_error(text, "`" + std::string(value) + "` is not an unsigned integer");
  }
  if (bits < 64 && parsed >= (uint64_t{1} << bits)) {
    return spec_error(text, "`" + std::string(value) + "` does not fit in " + std::to_string(bits) + " bits");
  }
  return integer_bytes(type, parsed);
}

}  // namespace

uint32_t element_bytes(ElementType type) {
  switch (type) {
    case ElementType::I16: case ElementType::U16: case ElementType::F16: case ElementType::BF16: return 2;
    case ElementType::I32: case ElementType::U32: case ElementType::F32: return 4;
    default: return 8;
  }
}

Expected<ElementType> parse_element_type(std::string_view name) {
  if (name == "i32") return ElementType::I32;
  if (name == "u32") return ElementType::U32;
  if (name == "i64") return ElementType::I64;
  if (name == "u64") return ElementType::U64;
  if (name == "f32") return ElementType::F32;
  if (name == "f64") return ElementType::F64;
  if (name == "i16") return ElementType::I16;
  if (name == "u16") return ElementType::U16;
  if (name == "f16") return ElementType::F16;
  if (name == "bf16") return ElementType::BF16;
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
    const double real_value = iota ? static_cast<double>(i) : 0.0;
    const int64_t int_value = iota ? static_cast<int64_t>(i) : 0;
    if (is_float(spec.type)) {
      put_float(bytes.data() + i * size, spec.type, iota ? real_value : real(random));
    } else {
      put_integer(bytes.data() + i * size, spec.type, static_cast<uint64_t>(iota ? int_value : integer(random)));
    }
  }
  return bytes;
}

Expected<std::vector<uint8_t>> spec_bytes(const ArgSpec& spec, uint64_t seed) {
  if (!spec.is_buffer) return spec.scalar;
  return fill_buffer(spec, seed);
}

}  // namespace tilecamp::profile
