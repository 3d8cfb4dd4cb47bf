#include "checker/ptx/video_decoder.h"

#include <unordered_map>

namespace tilecamp::ptx {
namespace {

struct VideoOpcode {
  Opcode opcode;
  VideoOp operation;
};

const std::unordered_map<std::string_view, VideoOpcode>& video_table() {
  static const std::unordered_map<std::string_view, VideoOpcode> table = {
      {"vadd4", {Opcode::Vop4, VideoOp::Add}}, {"vsub4", {Opcode::Vop4, VideoOp::Sub}},
      {"vavrg4", {Opcode::Vop4, VideoOp::Avrg}}, {"vabsdiff4", {Opcode::Vop4, VideoOp::Absdiff}},
      {"vmin4", {Opcode::Vop4, VideoOp::Min}}, {"vmax4", {Opcode::Vop4, VideoOp::Max}},
      {"vset4", {Opcode::Vop4, VideoOp::Set}}, {"vadd2", {Opcode::Vop2, VideoOp::Add}},
      {"vsub2", {Opcode::Vop2, VideoOp::Sub}}, {"vavrg2", {Opcode::Vop2, VideoOp::Avrg}},
      {"vabsdiff2", {Opcode::Vop2, VideoOp::Absdiff}}, {"vmin2", {Opcode::Vop2, VideoOp::Min}},
      {"vmax2", {Opcode::Vop2, VideoOp::Max}}, {"vset2", {Opcode::Vop2, VideoOp::Set}},
      {"vadd", {Opcode::Vop, VideoOp::Add}}, {"vsub", {Opcode::Vop, VideoOp::Sub}},
      {"vabsdiff", {Opcode::Vop, VideoOp::Absdiff}}, {"vmin", {Opcode::Vop, VideoOp::Min}},
      {"vmax", {Opcode::Vop, VideoOp::Max}}, {"vshl", {Opcode::Vop, VideoOp::Shl}},
      {"vshr", {Opcode::Vop, VideoOp::Shr}}, {"vmad", {Opcode::Vop, VideoOp::Mad}},
      {"vset", {Opcode::Vop, VideoOp::Set}},
  };
  return table;
}

bool is_word_type(Type type) { return type == Type::U32 || type == Type::S32; }

uint16_t selector_digit(const Operand& operand, int k) { return operand.select_digits >> (4 * k) & 0xf; }

// A destination mask names distinct elements from the highest down: .b3210, .b20, .h1...
bool is_mask(const Operand& operand, char kind, int elements) {
  if (operand.select_kind != kind || operand.select_count == 0 || operand.select_count > elements) return false;
  int previous = elements;
  for (int k = operand.select_count - 1; k >= 0; --k) {  // the first written digit is the highest nibble
    if (selector_digit(operand, k) >= previous) return false;
    previous = selector_digit(operand, k);
  }
  return true;
}

// A source selection names, for each element from the last down, one of the 2 * elements of {b, a}.
bool is_selection(const Operand& operand, char kind, int elements) {
  if (operand.select_kind != kind || operand.select_count != elements) return false;
  for (int k = 0; k < elements; ++k) {
    if (selector_digit(operand, k) >= 2 * elements) return false;
  }
  return true;
}

// A scalar video instruction's selector names one byte (.b0 to .b3) or half-word (.h0, .h1).
bool is_part(const Operand& operand) {
  return operand.select_count == 1 &&
         ((operand.select_kind == 'b' && operand.select_digits < 4) || (operand.select_kind == 'h' && operand.select_digits < 2));
}

// Why a SIMD video instruction's operands do not fit it (empty when they do); writes the PTX
// ISA's default selectors where none is written.
std::string simd_operand_problem(Instruction& in) {
  const bool quads = in.opcode == Opcode::Vop4;
  const char kind = quads ? 'b' : 'h';
  const int elements = quads ? 4 : 2;
  // d{.mask}, a{.asel}, b{.bsel}: every element, a's elements, b's elements.
  const uint16_t defaults[3] = {static_cast<uint16_t>(quads ? 0x3210 : 0x10), static_cast<uint16_t>(quads ? 0x3210 : 0x10),
                                static_cast<uint16_t>(quads ? 0x7654 : 0x32)};
  for (int index = 0; index < in.operand_count; ++index) {
    Operand& operand = in.operands[index];
    if (operand.minus) return "only vmad negates an operand";
    if (operand.select_kind == 0 && index < 3) {
      operand.select_kind = kind;
      operand.select_count = static_cast<uint8_t>(elements);
      operand.select_digits = defaults[index];
      continue;
    }
    const bool fits = index == 0 ? is_mask(operand, kind, elements) : index < 3 && is_selection(operand, kind, elements);
    if (!fits && operand.select_kind != 0) {
      return "the selector of operand " + std::to_string(index + 1) + " (the PTX ISA's masks and selections are ." +
             (quads ? "b3210, .b7654" : "h10, .h32") + " and the like)";
    }
  }
  return "";
}

// Why a scalar video instruction's operands do not fit it: selectors on d, a and b only (none on
// vmad's d), c exactly when a secondary operation or a merge into d's part needs it, and only
// vmad's operands negated, either a * b or c.
std::string scalar_operand_problem(const Instruction& in) {
  const bool mad = in.video_op == VideoOp::Mad;
  for (int index = 0; index < in.operand_count; ++index) {
    const Operand& operand = in.operands[index];
    if (operand.select_kind != 0 && (index == 3 || (mad && index == 0) || !is_part(operand))) {
      return "the selector of operand " + std::to_string(index + 1) + " (a scalar video instruction selects .b0 to .b3, .h0 or .h1)";
    }
    if (operand.minus && !mad) return "only vmad negates an operand";
  }
  const Operand &a = in.operands[1], &b = in.operands[2], &c = in.operands[3];
  if (mad) {
    if (in.operand_count != 4) return "vmad takes d, a, b and c";
    if (a.minus != b.minus && c.minus) return "vmad negates either a * b or c, not both";
    if (in.plus_one && (a.minus || b.minus || c.minus)) return "vmad.po negates no operand";
    return "";
  }
  const bool merge = in.operands[0].select_kind != 0, secondary = in.sub_op != SubOp::None;
  if (merge && secondary) return "a merge into d's part and a secondary operation exclude each other";
  if ((merge || secondary) != (in.operand_count == 4)) return merge || secondary ? "c is missing" : "c with nothing to combine it";
  return "";
}

}  // namespace


bool is_video(Opcode opcode) { return opcode == Opcode::Vop4 || opcode == Opcode::Vop2 || opcode == Opcode::Vop; }

bool decode_video_name(std::string_view name, Instruction& instruction) {
  auto it = video_table().find(name);
  if (it == video_table().end()) return false;
  instruction.opcode = it->second.opcode;
  instruction.video_op = it->second.operation;
  return true;
}

std::string video_modifier_problem(Instruction& in, bool mode_written) {
  const bool shift = in.video_op == VideoOp::Shl || in.video_op == VideoOp::Shr;
  if (shift != mode_written) return shift ? "vshl and vshr need their mode, .clamp or .wrap" : "only vshl and vshr take a mode";
  if (shift && in.source_type_b != Type::U32) return "vshl and vshr shift by a .u32";
  if (in.video_op == VideoOp::Mad && in.sub_op != SubOp::None) return "vmad has no secondary operation";
  if (in.video_op == VideoOp::Set) {
    in.source_type_b = in.source_type;
    in.source_type = in.type;
    in.type = Type::U32;
    const bool comparison = in.compare == CompareOp::Eq || in.compare == CompareOp::Ne || in.compare == CompareOp::Lt ||
                            in.compare == CompareOp::Le || in.compare == CompareOp::Gt || in.compare == CompareOp::Ge;
    if (!comparison) return "vset compares with .eq, .ne, .lt, .le, .gt or .ge";
    if (in.saturate) return "vset has no .sat";
  }
  if (!is_word_type(in.type) || !is_word_type(in.source_type) || !is_word_type(in.source_type_b)) {
    return "a video instruction names .u32 or .s32 for each of its operands";
  }
  const bool simd = in.opcode != Opcode::Vop;
  if (simd && in.saturate && in.sub_op == SubOp::Add) return ".sat cannot be combined with the secondary .add";
  return "";
}

void resolve_video_operands(Instruction& instruction) {
  std::string problem;
  if (instruction.opcode == Opcode::Vop) {
    problem = scalar_operand_problem(instruction);
  } else if (is_video(instruction.opcode)) {
    problem = simd_operand_problem(instruction);
  } else if (instruction.opcode != Opcode::Unsupported) {
    for (int index = 0; index < instruction.operand_count; ++index) {
      if (instruction.operands[index].minus) problem = "a register written `-%r`, which only vmad takes";
    }
  }
  if (problem.empty()) return;
  const std::string word = instruction.text.substr(0, instruction.text.find(' '));  // the message adds the operands
  instruction.opcode = Opcode::Unsupported;
  instruction.unsupported_reason = "`" + word + "`: " + problem;
}

}  // namespace tilecamp::ptx
