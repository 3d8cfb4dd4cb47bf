// The arithmetic of PTX instructions on raw register bits. Registers hold values in the low bits
// of a uint64_t; these functions interpret them by the instruction's type and return the result's
// bits, truncated to the destination's width.
#pragma once

#include <cstdint>

#include "checker/ptx/module.h"

namespace tilecamp::emu {

uint64_t truncate_bits(uint64_t value, int bits);
int64_t sign_extend(uint64_t value, int bits);

// add sub mul div rem min max and or xor shl shr (integer and float, as the type says)
uint64_t alu_binary(const ptx::Instruction& instruction, uint64_t a, uint64_t b);
// mad fma
uint64_t alu_ternary(const ptx::Instruction& instruction, uint64_t a, uint64_t b, uint64_t c);
// abs neg not cnot
uint64_t alu_unary(const ptx::Instruction& instruction, uint64_t a);
bool alu_compare(ptx::CompareOp compare, ptx::Type type, uint64_t a, uint64_t b);
uint64_t alu_convert(const ptx::Instruction& instruction, uint64_t a);

// The destination width of an instruction's result (mul.wide doubles its type's width).
int result_bits(const ptx::Instruction& instruction);

}  // namespace tilecamp::emu
