// Decodes an opcode word such as `setp.ge.s32` or `ld.global.nc.v4.f32` into an Instruction's
// fields, and converts immediates to the bits of the type an instruction reads them as.
#pragma once

#include <string_view>

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
// The video instructions' operand selectors (`%r1.b210`, `%r2.b3210`, `%r3.h1`) and vmad's
// negated operands (`-%r2`): checks each against its place (a SIMD destination's mask, a source's
// selection, a scalar part; c takes none), refusing the instruction where one does not fit, and
// writes the PTX ISA's default SIMD selections where none is written. Any other instruction with
// a register written `-%r` is refused.
void resolve_video_operands(Instruction& instruction);

// The fewest operands a well-formed instruction of this kind has (its destination included).
int minimum_operands(const Instruction& instruction);

}  // namespace tilecamp::ptx
