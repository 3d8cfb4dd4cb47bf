// The video instructions' part of decoding (vadd4, vset2, vadd, vmad...): their names, the
// modifiers that do not go together, and their operands' selectors and negations.
#pragma once

#include <string>
#include <string_view>

#include "checker/ptx/module.h"

namespace tilecamp::ptx {

bool is_video(Opcode opcode);

// Sets opcode and video_op when `name` (`vadd4`, `vmad`...) is a video instruction's; false when not.
bool decode_video_name(std::string_view name, Instruction& instruction);

// Why a video instruction's decoded modifiers do not go together (empty when they do):
// vadd4.dtype.atype.btype{.sat|.add}, vset4.atype.btype.cmp{.add}, their 2-way forms, the scalar
// vop.dtype.atype.btype{.sat}{.op2}, vshl/vshr.dtype.atype.u32{.sat}.mode{.op2} and
// vmad.dtype.atype.btype{.po}{.sat}{.scale}. vset names no dtype (its result is unsigned): its two
// types move to a's and b's here. `mode_written`: .clamp or .wrap was.
std::string video_modifier_problem(Instruction& instruction, bool mode_written);

// The video instructions' operand selectors (`%r1.b210`, `%r2.b3210`, `%r3.h1`) and vmad's
// negated operands (`-%r2`): checks each against its place (a SIMD destination's mask, a source's
// selection, a scalar part; c takes none), refusing the instruction where one does not fit, and
// writes the PTX ISA's default SIMD selections where none is written. Any other instruction with
// a register written `-%r` is refused.
void resolve_video_operands(Instruction& instruction);

}  // namespace tilecamp::ptx
