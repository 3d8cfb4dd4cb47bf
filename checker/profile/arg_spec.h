// Kernel arguments as written on the command line (`tilecamp profile --arg SPEC`):
//   i32:V | u32:V | i64:V | u64:V | f32:V | f64:V          a scalar
//   f32[N] | f64[N] | i32[N] | u32[N] | i64[N] | u64[N]   a buffer of N elements, optionally
//                                                         followed by =rand (default), =zeros, =iota
//                                                         or =file:PATH (raw little-endian)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/backend/backend.h"
#include "checker/util/expected.h"

namespace tilecamp::profile {

enum class ElementType { I32, U32, I64, U64, F32, F64, I16, U16, F16, BF16 };
enum class Fill { Rand, Zeros, Iota, File };

struct ArgSpec {
  ElementType type = ElementType::I32;
  bool is_buffer = false;
  std::vector<uint8_t> scalar;  // the scalar's bytes
  uint64_t count = 0;           // buffer elements
  Fill fill = Fill::Rand;
  std::string file;             // Fill::File: raw little-endian elements
  std::string text;             // as written, for messages
};

uint32_t element_bytes(ElementType type);
Expected<ElementType> parse_element_type(std::string_view name);
Expected<ArgSpec> parse_arg_spec(std::string_view text);

// The buffer's initial contents. `rand` is seeded: floats uniform in [-1, 1), integers in [0, 1000).
// An Error for a file that cannot be read or whose size is not N elements.
Expected<std::vector<uint8_t>> fill_buffer(const ArgSpec& spec, uint64_t seed);

// The bytes a SPEC gives a `__device__`/`__constant__` variable (`profile --set NAME=SPEC`).
Expected<std::vector<uint8_t>> spec_bytes(const ArgSpec& spec, uint64_t seed);

}  // namespace tilecamp::profile
