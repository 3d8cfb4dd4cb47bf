// Small in-memory stand-ins for the headers a kernel file commonly includes, handed to NVRTC so a
// file that builds with nvcc builds here too. NVRTC has no system include path: without these,
// `#include <cstdint>` is a catastrophic error. Most CUDA names (threadIdx, printf, assert,
// __syncthreads, sqrtf, float4, ...) are already built into NVRTC, so these headers only add what
// NVRTC lacks: the fixed-width integer types, the limit macros, and the `std::` spellings.
#pragma once

#include <span>
#include <string_view>

namespace tilecamp {

// NUL-terminated, as nvrtcCreateProgram takes them.
struct BuiltinHeader {
  const char* name;  // as written between the <> of an #include
  const char* text;
};

std::span<const BuiltinHeader> builtin_headers();

// Pre-included into every program, as nvcc pre-includes its own cuda_runtime.h.
inline constexpr std::string_view k_pre_included_header = "cuda_runtime.h";

}  // namespace tilecamp
