#include "checker/ptx/instruction_decoder.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "checker/ptx/matrix_decoder.h"
#include "checker/ptx/video_decoder.h"

namespace tilecamp::ptx {
namespace {

const std::unordered_map<std::string_view, Opcode>& opcode_table() {
  static const std::unordered_map<std::string_view, Opcode> table = {
      {"mov", Opcode::Mov},   {"cvt", Opcode::Cvt},     {"cvta", Opcode::Cvta},
      {"ld", Opcode::Ld},     {"st", Opcode::St},       {"selp", Opcode::Selp},
      {"add", Opcode::Add},   {"sub", Opcode::Sub},     {"mul", Opcode::Mul},
      {"mad", Opcode::Mad},   {"fma", Opcode::Fma},     {"div", Opcode::Div},
      {"rem", Opcode::Rem},   {"min", Opcode::Min},     {"max", Opcode::Max},
      {"abs", Opcode::Abs},   {"neg", Opcode::Neg},     {"and", Opcode::And},
      {"or", Opcode::Or},     {"xor", Opcode::Xor},     {"not", Opcode::Not},
      {"cnot", Opcode::Cnot}, {"shl", Opcode::Shl},     {"shr", Opcode::Shr},
      {"setp", Opcode::Setp}, {"set", Opcode::Set},     {"bra", Opcode::Bra},     {"ret", Opcode::Ret},
      {"exit", Opcode::Exit}, {"bar", Opcode::Bar},     {"barrier", Opcode::Bar},
      {"membar", Opcode::Membar}, {"fence", Opcode::Membar},
      {"popc", Opcode::Popc}, {"clz", Opcode::Clz}, {"brev", Opcode::Brev}, {"bfe", Opcode::Bfe},
      {"bfi", Opcode::Bfi}, {"bfind", Opcode::Bfind}, {"prmt", Opcode::Prmt}, {"shf", Opcode::Shf},
      {"lop3", Opcode::Lop3}, {"mul24", Opcode::Mul24}, {"mad24", Opcode::Mad24}, {"sad", Opcode::Sad},
      {"copysign", Opcode::Copysign}, {"testp", Opcode::Testp}, {"slct", Opcode::Slct},
      {"rcp", Opcode::Rcp}, {"sqrt", Opcode::Sqrt}, {"rsqrt", Opcode::Rsqrt}, {"ex2", Opcode::Ex2},
      {"lg2", Opcode::Lg2}, {"sin", Opcode::Sin}, {"cos", Opcode::Cos}, {"tanh", Opcode::Tanh},
      {"atom", Opcode::Atom}, {"red", Opcode::Red}, {"shfl", Opcode::Shfl}, {"vote", Opcode::Vote},
      {"match", Opcode::Match}, {"activemask", Opcode::Activemask}, {"call", Opcode::Call},
      {"cp", Opcode::CpAsync}, {"prefetch", Opcode::Prefetch}, {"prefetchu", Opcode::Prefetch},
      {"trap", Opcode::Trap}, {"nanosleep", Opcode::Nanosleep}, {"redux", Opcode::Redux},
      {"dp4a", Opcode::Dp4a}, {"dp2a", Opcode::Dp2a}, {"fns", Opcode::Fns}, {"bmsk", Opcode::Bmsk},
      {"szext", Opcode::Szext}, {"addc", Opcode::Add}, {"subc", Opcode::Sub}, {"madc", Opcode::Mad},
      {"mbarrier", Opcode::Mbarrier},
  };
  return table;
}

const std::unordered_map<std::string_view, CompareOp>& compare_table() {
  static const std::unordered_map<std::string_view, CompareOp> table = {
      {"eq", CompareOp::Eq},   {"ne", CompareOp::Ne},   {"lt", CompareOp::Lt},
      {"le", CompareOp::Le},   {"gt", CompareOp::Gt},   {"ge", CompareOp::Ge},
      {"lo", CompareOp::Lo},   {"ls", CompareOp::Ls},   {"hi", CompareOp::Hi},
      {"hs", CompareOp::Hs},   {"equ", CompareOp::Equ}, {"neu", CompareOp::Neu},
      {"ltu", CompareOp::Ltu}, {"leu", CompareOp::Leu}, {"gtu", CompareOp::Gtu},
      {"geu", CompareOp::Geu}, {"num", CompareOp::Num}, {"nan", CompareOp::Nan},
  };
  return table;
}

const std::unordered_map<std::string_view, Rounding>& rounding_table() {
  static const std::unordered_map<std::string_view, Rounding> table = {
      {"rn", Rounding::Rn},   {"rz", Rounding::Rz},   {"rm", Rounding::Rm},
      {"rp", Rounding::Rp},   {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi},
      {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi},
  };
  return table;
}

// Modifiers that change nothing the emulator models: cache policy, memory ordering and scope
// (the emulator runs one warp at a time, so every access is already sequentially consistent).
bool is_ignorable_modifier(std::string_view m) {
  static const char* const k_ignorable[] = {
      "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed", "acquire", "release",
      "acq_rel", "sc", "weak", "cta", "gpu", "sys", "gl", "aligned", "full", "uni", "sync",
      "noftz"};  // atom.add.noftz.f16x2: half-precision adds never flush subnormals anyway
  for (const char* name : k_ignorable) {
    if (m == name) return true;
  }
  return m.starts_with("L1::") || m.starts_with("L2::");
}

Space space_from_modifier(std::string_view m, bool& found) {
  found = true;
  if (m == "global") return Space::Global;
  if (m == "shared" || m == "shared::cta") return Space::Shared;
  if (m == "local") return Space::Local;
  if (m == "param") return Space::Param;
  if (m == "const") return Space::Const;
  found = false;
  return Space::Generic;
}

void mark_unsupported(Instruction& instruction, std::string reason) {
  instruction.opcode = Opcode::Unsupported;
  instruction.unsupported_reason = std::move(reason);
}

bool uses_sub_ops(Opcode opcode) {
  switch (opcode) {
    case Opcode::Atom: case Opcode::Red: case Opcode::BarRed: case Opcode::Shfl: case Opcode::Vote:
    case Opcode::Match: case Opcode::Shf: case Opcode::Testp: case Opcode::Prmt: case Opcode::Bfind:
    case Opcode::CpAsyncWait: case Opcode::Redux:
      return true;
    default:
      return false;
  }
}

const std::unordered_map<std::string_view, SubOp>& sub_op_table() {
  static const std::unordered_map<std::string_view, SubOp> table = {
      {"add", SubOp::Add}, {"min", SubOp::Min}, {"max", SubOp::Max}, {"exch", SubOp::Exch},
      {"cas", SubOp::Cas}, {"and", SubOp::And}, {"or", SubOp::Or}, {"xor", SubOp::Xor},
      {"inc", SubOp::Inc}, {"dec", SubOp::Dec}, {"up", SubOp::Up}, {"down", SubOp::Down},
      {"bfly", SubOp::Bfly}, {"idx", SubOp::Idx}, {"all", SubOp::All}, {"any", SubOp::Any},
      {"uni", SubOp::Uni}, {"ballot", SubOp::Ballot}, {"popc", SubOp::Popc}, {"l", SubOp::Left},
      {"r", SubOp::Right}, {"finite", SubOp::Finite}, {"infinite", SubOp::Infinite},
      {"number", SubOp::Number}, {"notanumber", SubOp::NotANumber}, {"normal", SubOp::Normal},
      {"subnormal", SubOp::Subnormal}, {"f4e", SubOp::F4e}, {"b4e", SubOp::B4e}, {"rc8", SubOp::Rc8},
      {"ecl", SubOp::Ecl}, {"ecr", SubOp::Ecr}, {"rc16", SubOp::Rc16}, {"shiftamt", SubOp::ShiftAmount},
      {"wait_all", SubOp::WaitAll},
  };
  return table;
}

// Applies one modifier to the instruction; returns false if it is unknown.
bool apply_modifier(std::string_view m, Instruction& instruction, int& types_seen) {
  if (uses_sub_ops(instruction.opcode) && instruction.sub_op == SubOp::None) {
    if (auto it = sub_op_table().find(m); it != sub_op_table().end()) {
      instruction.sub_op = it->second;
      return true;
    }
  }
  // min.NaN / max.NaN: the variant whose result is NaN if either operand is.
  if ((instruction.opcode == Opcode::Min || instruction.opcode == Opcode::Max) && m == "NaN") {
    instruction.sub_op = SubOp::PropagateNaN;
    return true;
  }
  const bool takes_mode = instruction.opcode == Opcode::Shf || instruction.opcode == Opcode::Bmsk ||
                          instruction.opcode == Opcode::Szext || instruction.opcode == Opcode::Vop;
  if (takes_mode && (m == "wrap" || m == "clamp")) {
    instruction.clamp = m == "clamp";
    return true;
  }
  if (Type t = type_from_modifier(m); t != Type::None) {
    // cvt.DST.SRC names two types, the video instructions three (vadd4.dtype.atype.btype);
    // everything else names one (setp/selp compare that type).
    const int seen = types_seen++;
    if (seen == 0) {
      instruction.type = t;
    } else if (seen == 2 && is_video(instruction.opcode)) {
      instruction.source_type_b = t;
    } else {
      instruction.source_type = t;
    }
    return !(is_video(instruction.opcode) && seen > 2);
  }
  bool is_space = false;
  Space space = space_from_modifier(m, is_space);
  if (is_space) {
    instruction.space = space;
    return true;
  }
  const bool video_set = is_video(instruction.opcode) && instruction.video_op == VideoOp::Set;
  if (instruction.opcode == Opcode::Setp || instruction.opcode == Opcode::Set || video_set) {
    if (auto it = compare_table().find(m); it != compare_table().end() &&
                                           instruction.compare == CompareOp::None) {
      instruction.compare = it->second;
      return true;
    }
    if (m == "and" && !video_set) return instruction.bool_op = BoolOp::And, true;
    if (m == "or" && !video_set) return instruction.bool_op = BoolOp::Or, true;
    if (m == "xor" && !video_set) return instruction.bool_op = BoolOp::Xor, true;
  }
  if (auto it = rounding_table().find(m); it != rounding_table().end()) {
    instruction.rounding = it->second;
    return true;
  }
  if (m == "v2") return instruction.vector = 2, true;
  if (m == "v4") return instruction.vector = 4, true;
  if (m == "lo") return instruction.mul_mode = MulMode::Lo, true;
  if (m == "hi") return instruction.mul_mode = MulMode::Hi, true;
  if (m == "wide") return instruction.mul_mode = MulMode::Wide, true;
  if (m == "to") return instruction.to_space = true, true;
  if (m == "ftz") return instruction.ftz = true, true;
  if (m == "sat") return instruction.saturate = true, true;
  if (m == "approx") return instruction.approx = true, true;
  if (m == "uni") return instruction.uniform = true, true;
  if (m == "nc") return instruction.non_coherent = true, true;
  if (m == "cc") return instruction.carry_out = true, true;
  if (m == "relu") return instruction.relu = true, true;
  // The video instructions' secondary operation: SIMD ones accumulate (.add); scalar ones also
  // take .min and .max. vmad's .po adds one; .shr7 and .shr15 scale its result.
  if (is_video(instruction.opcode) && instruction.sub_op == SubOp::None) {
    const bool scalar = instruction.opcode == Opcode::Vop;
    if (m == "add") return instruction.sub_op = SubOp::Add, true;
    if (m == "min" && scalar) return instruction.sub_op = SubOp::Min, true;
    if (m == "max" && scalar) return instruction.sub_op = SubOp::Max, true;
  }
  if (instruction.opcode == Opcode::Vop && instruction.video_op == VideoOp::Mad) {
    if (m == "po") return instruction.plus_one = true, true;
    if (m == "shr7") return instruction.video_shift = 7, true;
    if (m == "shr15") return instruction.video_shift = 15, true;
  }
  if (m == "satfinite" && instruction.opcode == Opcode::Cvt) return instruction.satfinite = true, true;
  if (m == "parity" && instruction.opcode == Opcode::Mbarrier) return instruction.parity = true, true;
  if (m == "noinc" && instruction.opcode == Opcode::CpAsyncMbarrierArrive) return instruction.sub_op = SubOp::NoInc, true;
  if (m == "volatile" || m == "relaxed" || m == "acquire" || m == "acq_rel") instruction.ordered = true;
  using Semantics = Instruction::Semantics;
  if (m == "relaxed") instruction.semantics = Semantics::Relaxed;
  if (m == "acquire") instruction.semantics = Semantics::Acquire;
  if (m == "release") instruction.semantics = Semantics::Release;
  if (m == "acq_rel") instruction.semantics = Semantics::AcqRel;
  return is_ignorable_modifier(m);
}

bool has_modifier(const std::vector<std::string_view>& parts, std::string_view modifier) {
  return std::find(parts.begin() + 1, parts.end(), modifier) != parts.end();
}

bool is_word_type(Type type) { return type == Type::U32 || type == Type::S32; }

// cvt.satfinite and cvt.relu: what the PTX ISA defines them for that the emulator runs, an f32
// rounded to f16 or bf16 (one, or two packed).
std::string conversion_problem(const Instruction& in) {
  if (in.source_type == Type::None) return "no source type";
  if (!in.satfinite && !in.relu) return "";
  const bool half = in.type == Type::F16 || in.type == Type::BF16 || in.type == Type::F16x2 || in.type == Type::BF16x2;
  if (!half || in.source_type != Type::F32) return ".relu and .satfinite are run on conversions of f32 to f16, bf16, f16x2 or bf16x2";
  if (in.rounding != Rounding::Rn && in.rounding != Rounding::Rz) return "it rounds .rn or .rz";
  return "";
}

// Modifiers that decode one by one but do not go together; empty when the instruction runs.
std::string combination_problem(const std::vector<std::string_view>& parts, Instruction& in) {
  const bool packed_integer = in.type == Type::S16x2 || in.type == Type::U16x2;
  const bool packed_runs = in.opcode == Opcode::Min || in.opcode == Opcode::Max || (in.opcode == Opcode::Add && !in.saturate);
  if (packed_integer && !packed_runs) return "of the packed 16-bit integer forms, the emulator runs add (without .sat), min and max";
  if (is_video(in.opcode)) return video_modifier_problem(in, has_modifier(parts, "clamp") || has_modifier(parts, "wrap"));
  if (in.opcode == Opcode::Cvt) return conversion_problem(in);
  if (in.opcode == Opcode::Bmsk || in.opcode == Opcode::Szext) {
    if (!has_modifier(parts, "clamp") && !has_modifier(parts, "wrap")) return "it needs its mode, .clamp or .wrap";
    if (in.opcode == Opcode::Bmsk && in.type != Type::B32) return "bmsk is .b32";
    if (in.opcode == Opcode::Szext && !is_word_type(in.type)) return "szext is .u32 or .s32";
  }
  return "";
}

}  // namespace

std::vector<std::string_view> split_modifiers(std::string_view word) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= word.size()) {
    size_t dot = word.find('.', start);
    if (dot == std::string_view::npos) dot = word.size();
    parts.push_back(word.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

Type type_from_modifier(std::string_view m) {
  static const std::unordered_map<std::string_view, Type> table = {
      {"pred", Type::Pred}, {"b8", Type::B8},     {"b16", Type::B16},   {"b32", Type::B32},
      {"b64", Type::B64},   {"b128", Type::B128}, {"u8", Type::U8},     {"u16", Type::U16},
      {"u32", Type::U32},   {"u64", Type::U64},   {"s8", Type::S8},     {"s16", Type::S16},
      {"s32", Type::S32},   {"s64", Type::S64},   {"f16", Type::F16},   {"f16x2", Type::F16x2},
      {"bf16", Type::BF16}, {"bf16x2", Type::BF16x2}, {"f32", Type::F32}, {"f64", Type::F64},
      {"s16x2", Type::S16x2}, {"u16x2", Type::U16x2},
  };
  auto it = table.find(m);
  return it == table.end() ? Type::None : it->second;
}

void decode_opcode(std::string_view word, Instruction& instruction) {
  if (decode_matrix(word, instruction)) return;  // mma, ldmatrix, movmatrix, wmma.*
  std::vector<std::string_view> parts = split_modifiers(word);
  if (decode_video_name(parts[0], instruction)) {
    // vadd4, vset2, vmad...: opcode and video_op are set
  } else if (auto it = opcode_table().find(parts[0]); it != opcode_table().end()) {
    instruction.opcode = it->second;
  } else {
    mark_unsupported(instruction, "the instruction `" + std::string(parts[0]) + "`");
    return;
  }
  instruction.carry_in = parts[0] == "addc" || parts[0] == "subc" || parts[0] == "madc";
  int types_seen = 0;
  size_t first_modifier = 1;
  // Multi-word opcodes: bar.warp.sync, bar.red, cp.async(.commit_group|.wait_group|.wait_all).
  if (instruction.opcode == Opcode::Bar && parts.size() > 1) {
    if (parts[1] == "warp") instruction.opcode = Opcode::BarWarp;
    if (parts[1] == "red") instruction.opcode = Opcode::BarRed;
    if (parts[1] == "arrive") {
      instruction.sub_op = SubOp::Arrive;
      first_modifier = 2;
    } else if (parts[1] == "cluster") {
      mark_unsupported(instruction, "`" + std::string(word) + "`");
      return;
    }
    if (instruction.opcode != Opcode::Bar) first_modifier = 2;
  }
  if (instruction.opcode == Opcode::Mbarrier) {
    static const std::unordered_map<std::string_view, SubOp> k_operations = {
        {"init", SubOp::MbInit},         {"arrive", SubOp::MbArrive},     {"arrive_drop", SubOp::MbArriveDrop},
        {"try_wait", SubOp::MbTryWait},  {"test_wait", SubOp::MbTestWait}, {"inval", SubOp::MbInval},
    };
    auto operation = parts.size() > 1 ? k_operations.find(parts[1]) : k_operations.end();
    // expect_tx, complete_tx, pending_count and the .expect_tx arrivals belong to TMA copies.
    if (operation == k_operations.end() || word.find("expect_tx") != std::string_view::npos) {
      mark_unsupported(instruction, "`" + std::string(word) + "`");
      return;
    }
    instruction.sub_op = operation->second;
    first_modifier = 2;
  }
  if (instruction.opcode == Opcode::CpAsync && parts.size() > 3 && parts[1] == "async" && parts[2] == "mbarrier" &&
      parts[3] == "arrive") {
    instruction.opcode = Opcode::CpAsyncMbarrierArrive;
    first_modifier = 4;
  }
  if (instruction.opcode == Opcode::CpAsync) {
    if (parts.size() < 2 || parts[1] != "async") {
      mark_unsupported(instruction, "`" + std::string(word) + "`");
      return;
    }
    first_modifier = 2;
    if (parts.size() > 2 && parts[2] == "commit_group") instruction.opcode = Opcode::CpAsyncCommit;
    if (parts.size() > 2 && (parts[2] == "wait_group" || parts[2] == "wait_all")) {
      instruction.opcode = Opcode::CpAsyncWait;
      instruction.sub_op = parts[2] == "wait_all" ? SubOp::WaitAll : SubOp::None;
    }
    if (instruction.opcode != Opcode::CpAsync) first_modifier = 3;
    if (parts.size() > 2 && parts[2] == "bulk") {
      mark_unsupported(instruction, "bulk asynchronous copies (`" + std::string(word) + "`)");
      return;
    }
  }
  for (size_t i = first_modifier; i < parts.size(); ++i) {
    if (!apply_modifier(parts[i], instruction, types_seen)) {
      mark_unsupported(instruction, "the modifier `." + std::string(parts[i]) + "` of `" +
                                        std::string(word) + "`");
      return;
    }
  }
  // ptxas refuses a write to the constant space: a kernel cannot change its constants.
  const bool writes = instruction.opcode == Opcode::St || instruction.opcode == Opcode::Atom || instruction.opcode == Opcode::Red;
  if (writes && instruction.space == Space::Const) {
    mark_unsupported(instruction, "`" + std::string(word) + "`: the constant space cannot be written by a kernel (ptxas "
                                  "refuses it)");
    return;
  }
  if (std::string problem = combination_problem(parts, instruction); !problem.empty()) {
    mark_unsupported(instruction, "`" + std::string(word) + "`: " + problem);
  }
}

int minimum_operands(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Bra: case Opcode::Activemask: case Opcode::BarWarp: case Opcode::Prefetch: case Opcode::Nanosleep:
    case Opcode::Bar: case Opcode::CpAsyncMbarrierArrive:
      return 1;
    case Opcode::Mov: case Opcode::Cvt: case Opcode::Cvta: case Opcode::Ld: case Opcode::St: case Opcode::Abs:
    case Opcode::Neg: case Opcode::Not: case Opcode::Cnot: case Opcode::Popc: case Opcode::Clz: case Opcode::Brev:
    case Opcode::Bfind: case Opcode::Testp: case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Ex2:
    case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos: case Opcode::Tanh: case Opcode::Red:
      return 2;
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div: case Opcode::Rem: case Opcode::Min:
    case Opcode::Max: case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Shl: case Opcode::Shr:
    case Opcode::Setp: case Opcode::Set: case Opcode::Mul24: case Opcode::Copysign: case Opcode::Atom:
    case Opcode::Vote: case Opcode::Match: case Opcode::BarRed: case Opcode::CpAsync: case Opcode::Redux:
    case Opcode::Bmsk: case Opcode::Szext: case Opcode::Vop:
      return 3;
    case Opcode::Mad: case Opcode::Fma: case Opcode::Selp: case Opcode::Bfe: case Opcode::Prmt: case Opcode::Shf:
    case Opcode::Mad24: case Opcode::Sad: case Opcode::Slct: case Opcode::Dp4a: case Opcode::Dp2a: case Opcode::Fns:
    case Opcode::Vop4: case Opcode::Vop2:
      return 4;
    case Opcode::Bfi: case Opcode::Lop3: case Opcode::Shfl:
      return 5;
    case Opcode::Mbarrier:
      switch (instruction.sub_op) {
        case SubOp::MbInit: case SubOp::MbArrive: case SubOp::MbArriveDrop: return 2;
        case SubOp::MbTryWait: case SubOp::MbTestWait: return 3;
        default: return 1;
      }
    default:  // ret, exit, membar, trap, call (its own syntax), cp.async.commit_group / wait_*
      return 0;
  }
}

Type source_operand_type(const Instruction& instruction, int index) {
  switch (instruction.opcode) {
    case Opcode::Cvt:
      return instruction.source_type;
    case Opcode::Shl:
    case Opcode::Shr:
      return index == 2 ? Type::U32 : instruction.type;
    case Opcode::Selp:
      return index == 3 ? Type::Pred : instruction.type;
    case Opcode::Setp:
      return index >= 3 ? Type::Pred : instruction.type;
    case Opcode::Set:  // set.CmpOp.dtype.stype d, a, b{, c}
      return index >= 3 ? Type::Pred : index >= 1 ? instruction.source_type : instruction.type;
    case Opcode::Slct:  // slct.dtype.ctype d, a, b, c
      return index == 3 ? instruction.source_type : instruction.type;
    case Opcode::Vop4: case Opcode::Vop2: case Opcode::Vop:  // vadd4.dtype.atype.btype d, a, b, c
      return index == 1 ? instruction.source_type : index == 2 ? instruction.source_type_b : instruction.type;
    case Opcode::Bmsk: case Opcode::Szext:  // the field's position and width
      return index == 1 && instruction.opcode == Opcode::Szext ? instruction.type : Type::U32;
    default:
      return instruction.type;
  }
}

bool literal_bits(std::string_view literal, bool negative, Type type, uint64_t& bits) {
  auto hex_bits = [&](std::string_view digits, uint64_t& out) {
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out, 16);
    return ec == std::errc() && ptr == digits.data() + digits.size();
  };
  // Half-precision operands are written as their bits (`0x3C00`), never as decimal values.
  const bool wants_float = type == Type::F32 || type == Type::F64;
  if (literal.size() == 10 && (literal[1] == 'f' || literal[1] == 'F') && literal[0] == '0') {
    uint64_t raw = 0;
    if (!hex_bits(literal.substr(2), raw)) return false;
    float value = std::bit_cast<float>(static_cast<uint32_t>(raw));
    if (negative) value = -value;
    bits = type == Type::F64 ? std::bit_cast<uint64_t>(static_cast<double>(value))
                             : std::bit_cast<uint32_t>(value);
    return true;
  }
  if (literal.size() == 18 && (literal[1] == 'd' || literal[1] == 'D') && literal[0] == '0') {
    uint64_t raw = 0;
    if (!hex_bits(literal.substr(2), raw)) return false;
    double value = std::bit_cast<double>(raw);
    if (negative) value = -value;
    bits = type == Type::F32 ? std::bit_cast<uint32_t>(static_cast<float>(value))
                             : std::bit_cast<uint64_t>(value);
    return true;
  }
  const bool decimal_float = literal.find_first_of(".eE") != std::string_view::npos &&
                             !(literal.size() > 1 && (literal[1] == 'x' || literal[1] == 'X'));
  if (decimal_float || wants_float) {
    double value = 0;
    if (decimal_float) {
      auto [ptr, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
      if (ec != std::errc() || ptr != literal.data() + literal.size()) return false;
    } else {
      uint64_t integer = 0;
      int base = literal.starts_with("0x") || literal.starts_with("0X") ? 16 : 10;
      std::string_view digits = base == 16 ? literal.substr(2) : literal;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), integer, base);
      if (ec != std::errc()) return false;
      value = static_cast<double>(integer);
    }
    if (negative) value = -value;
    bits = type == Type::F64 ? std::bit_cast<uint64_t>(value)
                             : std::bit_cast<uint32_t>(static_cast<float>(value));
    return true;
  }
  std::string_view digits = literal;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  } else if (digits.starts_with("0b") || digits.starts_with("0B")) {
    digits.remove_prefix(2);
    base = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;  // PTX, like C: a leading 0 means octal
  }
  if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.remove_suffix(1);
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
  bits = negative ? ~value + 1 : value;
  return true;
}

}  // namespace tilecamp::ptx
