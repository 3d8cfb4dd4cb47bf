// Register-to-register instructions: arithmetic, logic, comparison, conversion, address-space
// conversion. The arithmetic itself is in alu.cpp; this file applies it lane by lane.
#include <bit>

#include "checker/emu/alu.h"
#include "checker/emu/kernel_run.h"

namespace tilecamp::emu {

using ptx::Instruction;
using ptx::Opcode;
using ptx::Operand;

namespace {

template <typename Body>
void for_each_lane(uint32_t mask, Body body) {
  while (mask) {
    const int lane = std::countr_zero(mask);
    body(lane);
    mask &= mask - 1;
  }
}

}  // namespace

void KernelRun::execute_alu(Warp& warp, const Instruction& in, uint32_t lanes) {
  const Operand* op = in.operands.data();
  const int dst = op[0].reg;
  switch (in.opcode) {
    case Opcode::Mov:
      if (op[0].kind != Operand::Kind::Register || op[1].kind == Operand::Kind::Vector) {
        fail(in, "unsupported", "tilecamp's emulator does not support vector `mov` yet (`" + in.text + "`)");
        return;
      }
      for_each_lane(lanes, [&](int lane) { write(warp, dst, lane, read(warp, op[1], lane)); });
      return;
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div: case Opcode::Rem:
    case Opcode::Min: case Opcode::Max: case Opcode::And: case Opcode::Or: case Opcode::Xor:
    case Opcode::Shl: case Opcode::Shr:
      for_each_lane(lanes, [&](int lane) {
        write(warp, dst, lane, alu_binary(in, read(warp, op[1], lane), read(warp, op[2], lane)));
      });
      return;
    case Opcode::Mad: case Opcode::Fma:
      for_each_lane(lanes, [&](int lane) {
        write(warp, dst, lane, alu_ternary(in, read(warp, op[1], lane), read(warp, op[2], lane),
                                           read(warp, op[3], lane)));
      });
      return;
    case Opcode::Abs: case Opcode::Neg: case Opcode::Not: case Opcode::Cnot:
      for_each_lane(lanes, [&](int lane) { write(warp, dst, lane, alu_unary(in, read(warp, op[1], lane))); });
      return;
    case Opcode::Cvt:
      for_each_lane(lanes, [&](int lane) { write(warp, dst, lane, alu_convert(in, read(warp, op[1], lane))); });
      return;
    case Opcode::Selp:
      for_each_lane(lanes, [&](int lane) {
        write(warp, dst, lane, read_predicate(warp, op[3], lane) ? read(warp, op[1], lane) : read(warp, op[2], lane));
      });
      return;
    case Opcode::Setp:
      for_each_lane(lanes, [&](int lane) {
        const bool t = alu_compare(in.compare, in.type, read(warp, op[1], lane), read(warp, op[2], lane));
        auto combine = [&](bool value) {
          if (in.bool_op == ptx::BoolOp::None) return value;
          const bool c = read_predicate(warp, op[3], lane);
          if (in.bool_op == ptx::BoolOp::And) return value && c;
          if (in.bool_op == ptx::BoolOp::Or) return value || c;
          return value != c;
        };
        write(warp, dst, lane, combine(t));
        if (op[0].elements[0] >= 0) write(warp, op[0].elements[0], lane, combine(!t));
      });
      return;
    case Opcode::Cvta:
      for_each_lane(lanes, [&](int lane) {
        uint64_t address = read(warp, op[1], lane);
        uint64_t window = in.space == ptx::Space::Shared  ? k_shared_window
                          : in.space == ptx::Space::Local ? k_local_window
                                                          : 0;
        write(warp, dst, lane, in.to_space ? address - window : address + window);
      });
      return;
    default:
      fail(in, "unsupported", "tilecamp's emulator cannot execute `" + in.text + "`");
  }
}

}  // namespace tilecamp::emu
