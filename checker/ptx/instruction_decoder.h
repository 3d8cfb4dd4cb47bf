// Decodes an opcode word such as `setp.ge.s32` or `ld.global.nc.v4.f32` into an Instruction's
// fields, and converts immediates to the bits of the type an instruction reads them as.
#pragma once

#include <string_view>
#include <vector>

#include "checker/ptx/module.h"

namespace tilecamp::ptx {

// Fills opcode, types, space and modifiers. Unknown opcodes or modifiers leave
// opcode == Opcode::Unsupported with unsupported_reason set.
void decode_opcode(std::string_view word, Instruction& instruction);

// The type an instruction reads its source operand `index` as (destination is index 0).
Type source_operand_type(const Instruction& instruction, int index);

// Parses a PTX numeric literal ("42", "0x1F", "0f3F800000", "0d3FF0000000000000", "1.5") into
// the raw bits of `type`. Returns false if the literal is malformed.
bool literal_bits(std::string_view literal, bool negative, Type type, uint64_t& bits);

Type type_from_modifier(std::string_view modifier);
// An opcode word split at its dots: "mma.sync.aligned" -> {"mma", "sync", "aligned"}.
std::vector<std::string_view> split_modifiers(std::string_view word);
// The fewest operands a well-formed instruction of this kind has (its destination included).
int minimum_operands(const Instruction& instruction);

}  // namespace tilecamp::ptx
