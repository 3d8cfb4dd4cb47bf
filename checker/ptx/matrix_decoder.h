// The warp-wide matrix instructions' part of decoding: mma.sync, ldmatrix, movmatrix and WMMA's
// wmma.load, wmma.store and wmma.mma. The forms the emulator runs are listed in docs/emulator.md;
// any other shape or type is refused by name ("unsupported").
#pragma once

#include <string>
#include <string_view>

#include "checker/ptx/module.h"

namespace tilecamp::ptx {

// Decodes `word` when it names a matrix instruction (mma., ldmatrix., movmatrix., wmma.): sets
// opcode and matrix, or marks the instruction unsupported with the reason. False for any other word.
bool decode_matrix(std::string_view word, Instruction& instruction);

// Registers a fragment of matrix `which` ('a', 'b', 'c' or 'd') holds in `instruction`'s form.
int fragment_registers(const Instruction& instruction, char which);

// Why a decoded matrix instruction's operands do not fit its form (empty when they do): the
// fragments' register counts, the address operand.
std::string matrix_operand_problem(const Instruction& instruction);

}  // namespace tilecamp::ptx
