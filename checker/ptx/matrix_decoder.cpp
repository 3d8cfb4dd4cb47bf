#include "checker/ptx/matrix_decoder.h"

#include <charconv>
#include <vector>

#include "checker/ptx/instruction_decoder.h"

namespace tilecamp::ptx {
namespace {

MatrixType matrix_type(std::string_view m) {
  if (m == "f16") return MatrixType::F16;
  if (m == "bf16") return MatrixType::BF16;
  if (m == "tf32") return MatrixType::TF32;
  if (m == "f32") return MatrixType::F32;
  if (m == "b16") return MatrixType::B16;
  return MatrixType::None;
}

// "m16n8k16" -> m 16, n 8, k 16; "m8n8" -> k 0. False when `m` is no shape.
bool parse_shape(std::string_view m, MatrixForm& form) {
  if (m.size() < 4 || m[0] != 'm') return false;
  int values[3] = {0, 0, 0};
  const char letters[3] = {'m', 'n', 'k'};
  size_t at = 0;
  for (int i = 0; i < 3 && at < m.size(); ++i) {
    if (m[at] != letters[i]) return false;
    ++at;
    const char* begin = m.data() + at;
    auto [ptr, ec] = std::from_chars(begin, m.data() + m.size(), values[i]);
    if (ec != std::errc() || ptr == begin || values[i] > 255) return false;
    at = static_cast<size_t>(ptr - m.data());
  }
  if (at != m.size() || values[1] == 0) return false;
  form.m = static_cast<uint8_t>(values[0]);
  form.n = static_cast<uint8_t>(values[1]);
  form.k = static_cast<uint8_t>(values[2]);
  return true;
}

bool is_shared(std::string_view m) { return m == "shared" || m == "shared::cta"; }

void refuse(Instruction& instruction, std::string_view word, const std::string& why) {
  instruction.opcode = Opcode::Unsupported;
  instruction.unsupported_reason = "`" + std::string(word) + "`: " + why;
}

const char* const k_mma_forms =
    "the emulator runs mma.sync.aligned.m16n8k8 and .m16n8k4 .row.col.f32.tf32.tf32.f32, .m16n8k16 and "
    ".m16n8k8 .row.col.f32.bf16.bf16.f32, and .m16n8k16 and .m16n8k8 .row.col with .f16 A and B and .f16 or "
    ".f32 C and D";
const char* const k_wmma_forms =
    "the emulator runs WMMA's m16n16k16 with f16 or bf16 A and B (f32 or, for f16, f16 accumulators) and "
    "m16n16k8 with tf32 A and B and f32 accumulators";

void decode_mma(std::string_view word, const std::vector<std::string_view>& parts, Instruction& in) {
  in.opcode = Opcode::Mma;
  MatrixForm& form = in.matrix;
  std::vector<MatrixType> types;
  int layouts = 0;
  bool shape = false, sync = false, aligned = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    if (m == "sync") sync = true;
    else if (m == "aligned") aligned = true;
    else if (!shape && parse_shape(m, form)) shape = true;
    else if ((m == "row" || m == "col") && layouts < 2) (layouts++ == 0 ? form.a_row : form.b_row) = m == "row";
    else if (MatrixType t = matrix_type(m); t != MatrixType::None && types.size() < 4) types.push_back(t);
    else return refuse(in, word, "the modifier `." + std::string(m) + "`: " + k_mma_forms);
  }
  if (!sync || !aligned) return refuse(in, word, "mma is written .sync.aligned");
  if (!shape || types.size() != 4 || layouts != 2) return refuse(in, word, k_mma_forms);
  form.d = types[0], form.a = types[1], form.b = types[2], form.c = types[3];
  const bool row_col = form.a_row && !form.b_row;
  const bool m16n8 = form.m == 16 && form.n == 8;
  bool runs = false;
  if (form.a == MatrixType::TF32 && form.b == MatrixType::TF32) {
    runs = m16n8 && (form.k == 8 || form.k == 4) && form.c == MatrixType::F32 && form.d == MatrixType::F32;
  } else if (form.a == MatrixType::BF16 && form.b == MatrixType::BF16) {
    runs = m16n8 && (form.k == 16 || form.k == 8) && form.c == MatrixType::F32 && form.d == MatrixType::F32;
  } else if (form.a == MatrixType::F16 && form.b == MatrixType::F16) {
    const bool accumulators = (form.c == MatrixType::F16 || form.c == MatrixType::F32) &&
                              (form.d == MatrixType::F16 || form.d == MatrixType::F32);
    runs = m16n8 && (form.k == 16 || form.k == 8) && accumulators;
  }
  if (!runs || !row_col) return refuse(in, word, k_mma_forms);
}

void decode_ldmatrix(std::string_view word, const std::vector<std::string_view>& parts, Instruction& in) {
  in.opcode = parts[0] == "ldmatrix" ? Opcode::Ldmatrix : Opcode::Movmatrix;
  MatrixForm& form = in.matrix;
  bool shape = false, sync = false, aligned = false, typed = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    if (m == "sync") sync = true;
    else if (m == "aligned") aligned = true;
    else if (!shape && parse_shape(m, form)) shape = true;
    else if (m == "trans") form.trans = true;
    else if (m == "b16") typed = true;
    else if (in.opcode == Opcode::Ldmatrix && (m == "x1" || m == "x2" || m == "x4")) form.count = static_cast<uint8_t>(m[1] - '0');
    else if (in.opcode == Opcode::Ldmatrix && is_shared(m)) in.space = Space::Shared;
    else return refuse(in, word, "the modifier `." + std::string(m) + "`: the emulator runs ldmatrix.sync.aligned.m8n8 "
                                 "(.x1, .x2, .x4, optionally .trans) of .b16 and movmatrix.sync.aligned.m8n8.trans.b16");
  }
  const bool m8n8 = shape && form.m == 8 && form.n == 8 && form.k == 0;
  if (!sync || !aligned || !m8n8 || !typed) {
    return refuse(in, word, "the emulator runs ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 and "
                            "movmatrix.sync.aligned.m8n8.trans.b16");
  }
  if (in.opcode == Opcode::Ldmatrix && form.count == 0) return refuse(in, word, "ldmatrix needs .x1, .x2 or .x4");
  if (in.opcode == Opcode::Movmatrix && !form.trans) return refuse(in, word, "movmatrix is .trans");
  form.d = MatrixType::B16;
}

void decode_wmma(std::string_view word, const std::vector<std::string_view>& parts, Instruction& in) {
  MatrixForm& form = in.matrix;
  size_t first = 2;
  if (parts.size() > 2 && parts[1] == "load" && (parts[2] == "a" || parts[2] == "b" || parts[2] == "c")) {
    in.opcode = Opcode::WmmaLoad;
    form.matrix = parts[2][0];
    first = 3;
  } else if (parts.size() > 2 && parts[1] == "store" && parts[2] == "d") {
    in.opcode = Opcode::WmmaStore;
    form.matrix = 'd';
    first = 3;
  } else if (parts.size() > 1 && parts[1] == "mma") {
    in.opcode = Opcode::WmmaMma;
  } else {
    return refuse(in, word, "the emulator runs wmma.load.{a,b,c}, wmma.store.d and wmma.mma");
  }
  std::vector<MatrixType> types;
  int layouts = 0;
  bool shape = false, sync = false, aligned = false;
  for (size_t i = first; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    if (m == "sync") sync = true;
    else if (m == "aligned") aligned = true;
    else if (!shape && parse_shape(m, form)) shape = true;
    else if ((m == "row" || m == "col") && in.opcode != Opcode::WmmaMma && layouts++ == 0) form.row_major = m == "row";
    else if ((m == "row" || m == "col") && in.opcode == Opcode::WmmaMma && layouts < 2) {
      (layouts++ == 0 ? form.a_row : form.b_row) = m == "row";
    } else if (m == "global" && in.opcode != Opcode::WmmaMma) in.space = Space::Global;
    else if (is_shared(m) && in.opcode != Opcode::WmmaMma) in.space = Space::Shared;
    else if (MatrixType t = matrix_type(m); t != MatrixType::None && types.size() < 4) types.push_back(t);
    else return refuse(in, word, "the modifier `." + std::string(m) + "`: " + k_wmma_forms);
  }
  if (!sync || !aligned) return refuse(in, word, "WMMA instructions are written .sync.aligned");
  if (!shape || layouts != (in.opcode == Opcode::WmmaMma ? 2 : 1)) return refuse(in, word, k_wmma_forms);
  const bool k16 = form.m == 16 && form.n == 16 && form.k == 16;
  const bool k8 = form.m == 16 && form.n == 16 && form.k == 8;
  auto accumulator = [&](MatrixType t) { return t == MatrixType::F32 || (k16 && t == MatrixType::F16); };
  auto multiplicand = [&](MatrixType t) {
    return (k16 && (t == MatrixType::F16 || t == MatrixType::BF16)) || (k8 && t == MatrixType::TF32);
  };
  bool runs = false;
  if (in.opcode == Opcode::WmmaMma) {
    if (types.size() == 2) {  // .dtype.ctype: f16 A and B
      form.d = types[0], form.c = types[1], form.a = form.b = MatrixType::F16;
      runs = k16;
    } else if (types.size() == 4) {
      form.d = types[0], form.a = types[1], form.b = types[2], form.c = types[3];
      runs = form.a == form.b && form.a != MatrixType::F16;
    }
    runs = runs && multiplicand(form.a) && accumulator(form.c) && accumulator(form.d) &&
           (form.a == MatrixType::F16 || (form.c == MatrixType::F32 && form.d == MatrixType::F32));
  } else if (types.size() == 1) {
    const MatrixType t = types[0];
    (form.matrix == 'a' ? form.a : form.matrix == 'b' ? form.b : form.matrix == 'c' ? form.c : form.d) = t;
    runs = form.matrix == 'a' || form.matrix == 'b' ? multiplicand(t) : accumulator(t);
  }
  if (!runs) return refuse(in, word, k_wmma_forms);
}

int operand_registers(const Operand& operand) {
  if (operand.kind == Operand::Kind::Vector) return operand.count;
  return operand.kind == Operand::Kind::Register ? 1 : -1;
}

}  // namespace

bool decode_matrix(std::string_view word, Instruction& instruction) {
  const std::vector<std::string_view> parts = split_modifiers(word);
  if (parts[0] == "mma") decode_mma(word, parts, instruction);
  else if (parts[0] == "ldmatrix" || parts[0] == "movmatrix") decode_ldmatrix(word, parts, instruction);
  else if (parts[0] == "wmma") decode_wmma(word, parts, instruction);
  else if (parts[0] == "wgmma" || parts[0] == "stmatrix") refuse(instruction, word, "not run by the emulator");
  else return false;
  return true;
}

int fragment_registers(const Instruction& in, char which) {
  const MatrixForm& f = in.matrix;
  switch (in.opcode) {
    case Opcode::Mma:
      if (which == 'a') return f.k == 16 || (f.a == MatrixType::TF32 && f.k == 8) ? 4 : 2;
      if (which == 'b') return f.k == 16 || (f.a == MatrixType::TF32 && f.k == 8) ? 2 : 1;
      return (which == 'c' ? f.c : f.d) == MatrixType::F32 ? 4 : 2;
    case Opcode::WmmaLoad: case Opcode::WmmaStore: case Opcode::WmmaMma: {
      if (which == 'a' || which == 'b') return (which == 'a' ? f.a : f.b) == MatrixType::F16 ? 8 : 4;
      return (which == 'c' ? f.c : f.d) == MatrixType::F32 ? 8 : 4;
    }
    case Opcode::Ldmatrix:
      return f.count;
    case Opcode::Movmatrix:
      return 1;
    default:
      return 0;
  }
}

std::string matrix_operand_problem(const Instruction& in) {
  auto fragment = [&](int index, char which) -> std::string {
    const int wanted = fragment_registers(in, which);
    const int found = index < in.operand_count ? operand_registers(in.operands[index]) : -1;
    if (found == wanted) return "";
    return std::string("its ") + which + " fragment is " + std::to_string(wanted) + " register(s), written as {...}";
  };
  auto address = [&](int index) -> std::string {
    if (index < in.operand_count && in.operands[index].kind == Operand::Kind::Address) return "";
    return "operand " + std::to_string(index + 1) + " is an address [...]";
  };
  auto stride = [&](int index) -> std::string {
    if (in.operand_count <= index) return "";
    const Operand::Kind kind = in.operands[index].kind;
    if (in.operand_count == index + 1 && (kind == Operand::Kind::Register || kind == Operand::Kind::Immediate)) return "";
    return "the stride is one register or number, the last operand";
  };
  std::string problem;
  switch (in.opcode) {
    case Opcode::Mma: case Opcode::WmmaMma:
      if (in.operand_count != 4) return "it takes four fragments, d, a, b and c";
      for (const auto& [index, which] : {std::pair{0, 'd'}, {1, 'a'}, {2, 'b'}, {3, 'c'}}) {
        if (problem.empty()) problem = fragment(index, which);
      }
      return problem;
    case Opcode::Ldmatrix:
      if (in.operand_count != 2) return "it takes a fragment and an address";
      problem = fragment(0, 'd');
      return problem.empty() ? address(1) : problem;
    case Opcode::Movmatrix:
      if (in.operand_count != 2 || in.operands[0].kind != Operand::Kind::Register ||
          in.operands[1].kind != Operand::Kind::Register) {
        return "it takes two registers";
      }
      return "";
    case Opcode::WmmaLoad:
      problem = fragment(0, in.matrix.matrix);
      if (problem.empty()) problem = address(1);
      return problem.empty() ? stride(2) : problem;
    case Opcode::WmmaStore:
      problem = address(0);
      if (problem.empty()) problem = fragment(1, 'd');
      return problem.empty() ? stride(2) : problem;
    default:
      return "";
  }
}

}  // namespace tilecamp::ptx
