#include "checker/ptx/module.h"

namespace tilecamp::ptx {

int type_bits(Type type) {
  switch (type) {
    case Type::Pred: return 1;
    case Type::B8: case Type::U8: case Type::S8: return 8;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 16;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32:
    case Type::F16x2: case Type::BF16x2: case Type::S16x2: case Type::U16x2: return 32;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
    case Type::B128: return 128;
    case Type::None: return 0;
  }
  return 0;
}

bool is_signed(Type type) {
  return type == Type::S8 || type == Type::S16 || type == Type::S32 || type == Type::S64;
}

bool is_float(Type type) {
  return type == Type::F16 || type == Type::F16x2 || type == Type::BF16 || type == Type::BF16x2 ||
         type == Type::F32 || type == Type::F64;
}

const char* type_name(Type type) {
  static const char* const k_names[] = {"", "pred", "b8", "b16", "b32", "b64", "b128",
                                        "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                                        "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "s16x2", "u16x2"};
  return k_names[static_cast<int>(type)];
}

const char* space_name(Space space) {
  static const char* const k_names[] = {"generic", "global", "shared", "local", "param", "const"};
  return k_names[static_cast<int>(space)];
}

bool reads_special(const std::vector<Instruction>& code, std::initializer_list<SpecialRegister> which) {
  for (const Instruction& in : code) {
    for (int i = 0; i < in.operand_count; ++i) {
      const Operand& operand = in.operands[i];
      if (operand.kind != Operand::Kind::Special) continue;
      for (const SpecialRegister special : which) {
        if (operand.special == special) return true;
      }
    }
  }
  return false;
}

const Function* Module::find_function(const std::string& name) const {
  for (const Function& function : functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

std::string Module::location_text(const SourceLocation& location) const {
  const std::string& file = location.file > 0 && location.file < static_cast<int>(files.size())
                                ? files[location.file]
                                : std::string("<ptx>");
  return file + ":" + std::to_string(location.line);
}

}  // namespace tilecamp::ptx
