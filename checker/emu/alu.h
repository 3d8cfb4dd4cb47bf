// The arithmetic of PTX's register-to-register instructions on raw register bits. Registers hold
// values in the low bits of a uint64_t; these functions interpret them by the instruction's types
// and return the result's bits. Where the PTX ISA defines a result exactly, it is the GPU's to the
// bit (an H200 was the reference); the `.approx` instructions are computed in double precision and
// stay within the PTX ISA's error bounds (alu_float.cpp says how closely they follow the GPU).
#pragma once

#include <array>
#include <cstdint>

#include "checker/ptx/module.h"

namespace tilecamp::emu {

uint64_t truncate_bits(uint64_t value, int bits);
int64_t sign_extend(uint64_t value, int bits);
// Element `index` of `bits` bits packed in `word` (the first lowest), sign-extended when `is_signed`.
int64_t packed_element(uint64_t word, int index, int bits, bool is_signed);

// One lane's source operands, in the order written after the destination; a predicate is 0 or 1
// with any `!` already applied.
using AluSources = std::array<uint64_t, 4>;

// The result of a register-to-register instruction for one lane, truncated to the destination's
// width. setp's two destination predicates are bits 0 and 1 (for a scalar comparison the second
// is the complement; for .f16x2 and .bf16x2 the comparisons of the low and the high halves).
// A vector (`{lo, hi}`) operand of mov is packed into one value, its first element lowest.
uint64_t alu_execute(const ptx::Instruction& instruction, const AluSources& sources);

// The families alu_execute dispatches to.
uint64_t alu_integer(const ptx::Instruction& instruction, const AluSources& sources);  // alu.cpp
// add/sub/mad with .cc or as addc/subc/madc: `carry_in` is the lane's carry flag (used by the
// *c forms), `carry_out` the flag it leaves (for subtraction, the borrow).
uint64_t alu_with_carry(const ptx::Instruction& instruction, const AluSources& sources, bool carry_in, bool& carry_out);
uint64_t alu_float(const ptx::Instruction& instruction, const AluSources& sources);    // alu_float.cpp
uint64_t alu_convert(const ptx::Instruction& instruction, const AluSources& sources);  // alu_convert.cpp
uint64_t alu_video(const ptx::Instruction& instruction, const AluSources& sources);    // alu_video.cpp
// setp's and set's comparison of a and b as `type` (.f16x2/.bf16x2: the low halves' in bit 0,
// the high halves' in bit 1).
uint64_t alu_compare(const ptx::Instruction& instruction, ptx::Type type, uint64_t a, uint64_t b);
uint64_t alu_float_compare(const ptx::Instruction& instruction, ptx::Type type, uint64_t a, uint64_t b);
// testp's property of an f32 or f64 value.
uint64_t alu_float_test(ptx::SubOp test, ptx::Type type, uint64_t bits);

}  // namespace tilecamp::emu
