// The scalar video instructions on the emulator (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr,
// vset, vmad; no CUDA intrinsic emits them): each form written as inline PTX and compared with a
// reference worked from the PTX ISA's definition (partSelectSignExtend, optSaturate,
// optSecondaryOp, optMerge, vmad's negations), the ISA's examples worked by hand, and the forms
// the decoder refuses.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

__extension__ typedef __int128 int128;

enum class Scalar { Add, Sub, Absdiff, Min, Max, Shl, Shr, Set, Mad };

// One form of a scalar video instruction; `ptx_of` spells it. Parts are "", "b0".."b3", "h0", "h1".
struct ScalarForm {
  Scalar op;
  bool d_signed, a_signed, b_signed;
  bool saturate = false;
  std::string secondary = "";  // "add", "min", "max"
  std::string extra = "";      // vset's comparison, vshl/vshr's mode, vmad's "po" / "shr7" / "shr15"
  std::string d_part = "", a_part = "", b_part = "";
  bool minus_a = false, minus_b = false, minus_c = false;  // vmad's negations
};

bool takes_c(const ScalarForm& f) { return f.op == Scalar::Mad || !f.secondary.empty() || !f.d_part.empty(); }

std::string ptx_of(const ScalarForm& f) {
  static const char* const k_names[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset", "vmad"};
  auto type = [](bool is_signed) { return is_signed ? ".s32" : ".u32"; };
  auto part = [](const std::string& p) { return p.empty() ? "" : "." + p; };
  std::string text = k_names[static_cast<int>(f.op)];
  if (f.op != Scalar::Set) text += type(f.d_signed);
  text += std::string(type(f.a_signed)) + type(f.b_signed);
  if (f.op == Scalar::Set && !f.extra.empty()) text += "." + f.extra;
  if (f.op == Scalar::Mad && f.extra == "po") text += ".po";
  if (f.saturate) text += ".sat";
  if (f.op == Scalar::Mad && f.extra.starts_with("shr")) text += "." + f.extra;
  if (f.op == Scalar::Shl || f.op == Scalar::Shr) text += "." + f.extra;
  if (!f.secondary.empty()) text += "." + f.secondary;
  text += " %0" + part(f.d_part) + ", " + (f.minus_a ? "-" : "") + "%1" + part(f.a_part) + ", " + (f.minus_b ? "-" : "") +
          "%2" + part(f.b_part);
  return text + (takes_c(f) ? std::string(", ") + (f.minus_c ? "-" : "") + "%3;" : ";");
}

// partSelectSignExtend: the byte or half-word a part names, or the whole word.
int64_t part_value(uint32_t word, const std::string& part, bool is_signed) {
  const int width = part.empty() ? 32 : part[0] == 'b' ? 8 : 16;
  const int index = part.empty() ? 0 : part[1] - '0';
  const uint64_t raw = (word >> (index * width)) & ((uint64_t{1} << width) - 1);
  return is_signed && (raw >> (width - 1)) ? static_cast<int64_t>(raw) - (int64_t{1} << width) : static_cast<int64_t>(raw);
}

int128 clamp_to(int128 value, int width, bool is_signed) {
  const int128 low = is_signed ? -(int128{1} << (width - 1)) : 0;
  const int128 high = is_signed ? (int128{1} << (width - 1)) - 1 : (int128{1} << width) - 1;
  return value < low ? low : value > high ? high : value;
}

// vmad: the ISA's pseudocode, line by line.
uint32_t reference_mad(const ScalarForm& f, uint32_t a, uint32_t b, uint32_t c) {
  const bool signed_final = f.a_signed || f.b_signed || (f.minus_a != f.minus_b) || f.minus_c;
  int128 tmp = int128{part_value(a, f.a_part, f.a_signed)} * part_value(b, f.b_part, f.b_signed);
  int lsb = 0;
  if (f.extra == "po") {
    lsb = 1;
  } else if (f.minus_a != f.minus_b) {
    tmp = ~tmp;
    lsb = 1;
  } else if (f.minus_c) {
    c = ~c;
    lsb = 1;
  }
  const int128 c128 = signed_final ? int128{static_cast<int32_t>(c)} : int128{c};
  tmp = tmp + c128 + lsb;
  if (f.extra == "shr7") tmp >>= 7;
  if (f.extra == "shr15") tmp >>= 15;
  if (f.saturate) tmp = clamp_to(tmp, 32, signed_final);
  return static_cast<uint32_t>(tmp);
}

uint32_t reference(const ScalarForm& f, uint32_t a, uint32_t b, uint32_t c) {
  if (f.op == Scalar::Mad) return reference_mad(f, a, b, c);
  const bool shift = f.op == Scalar::Shl || f.op == Scalar::Shr;
  const int64_t ta = part_value(a, f.a_part, f.a_signed);
  int64_t tb = part_value(b, f.b_part, shift ? false : f.b_signed);
  int128 tmp = 0;
  switch (f.op) {
    case Scalar::Add: tmp = ta + tb; break;
    case Scalar::Sub: tmp = ta - tb; break;
    case Scalar::Absdiff: tmp = ta > tb ? ta - tb : tb - ta; break;
    case Scalar::Min: tmp = std::min(ta, tb); break;
    case Scalar::Max: tmp = std::max(ta, tb); break;
    case Scalar::Shl:
    case Scalar::Shr:
      tb = f.extra == "clamp" ? std::min<int64_t>(tb, 32) : tb & 0x1f;
      tmp = f.op == Scalar::Shl ? int128{ta} << tb : int128{ta} >> tb;
      break;
    case Scalar::Set: {
      const std::string& cmp = f.extra;
      tmp = cmp == "eq" ? ta == tb : cmp == "ne" ? ta != tb : cmp == "lt" ? ta < tb : cmp == "le" ? ta <= tb
          : cmp == "gt" ? ta > tb : ta >= tb;
      break;
    }
    default: break;
  }
  const bool sign = f.op != Scalar::Set && f.d_signed;  // vset's result and c are unsigned
  if (f.saturate) tmp = clamp_to(tmp, f.d_part.empty() ? 32 : f.d_part[0] == 'b' ? 8 : 16, sign);
  const int128 c33 = sign ? int128{static_cast<int32_t>(c)} : int128{c};
  if (f.secondary == "add") tmp = tmp + c33;
  if (f.secondary == "min") tmp = std::min(tmp, c33);
  if (f.secondary == "max") tmp = std::max(tmp, c33);
  const uint32_t t = static_cast<uint32_t>(tmp);
  if (f.d_part == "h0") return (t & 0xffff) | (0xffff0000 & c);
  if (f.d_part == "h1") return ((t & 0xffff) << 16) | (0x0000ffff & c);
  if (f.d_part == "b0") return (t & 0xff) | (0xffffff00 & c);
  if (f.d_part == "b1") return ((t & 0xff) << 8) | (0xffff00ff & c);
  if (f.d_part == "b2") return ((t & 0xff) << 16) | (0xff00ffff & c);
  if (f.d_part == "b3") return ((t & 0xff) << 24) | (0x00ffffff & c);
  return t;
}

std::vector<ScalarForm> scalar_forms() {
  std::vector<ScalarForm> forms;
  for (Scalar op : {Scalar::Add, Scalar::Sub, Scalar::Absdiff, Scalar::Min, Scalar::Max}) {
    for (int types = 0; types < 8; ++types) {
      const bool d = types & 4, a = types & 2, b = types & 1;
      for (const char* secondary : {"", "add", "min", "max"}) {
        forms.push_back({op, d, a, b, false, secondary});
        forms.push_back({op, d, a, b, true, secondary});
      }
    }
  }
  for (Scalar op : {Scalar::Shl, Scalar::Shr}) {
    for (int types = 0; types < 4; ++types) {
      for (const char* mode : {"clamp", "wrap"}) {
        for (const char* secondary : {"", "add", "max"}) {
          forms.push_back({op, (types & 2) != 0, (types & 1) != 0, false, false, secondary, mode});
          forms.push_back({op, (types & 2) != 0, (types & 1) != 0, false, true, secondary, mode});
        }
      }
    }
  }
  for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    for (int types = 0; types < 4; ++types) {
      for (const char* secondary : {"", "add", "min", "max"}) {
        forms.push_back({Scalar::Set, false, (types & 2) != 0, (types & 1) != 0, false, secondary, cmp});
      }
    }
  }
  return forms;
}

std::vector<ScalarForm> part_forms() {
  std::vector<ScalarForm> forms;
  const char* const parts[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};
  for (const char* a : parts) {
    for (const char* b : parts) {
      forms.push_back({Scalar::Sub, true, true, false, true, "", "", "", a, b});
      forms.push_back({Scalar::Shr, false, true, false, false, "add", "wrap", "", a, b});
    }
  }
  for (const char* d : parts) {
    if (*d == '\0') continue;
    forms.push_back({Scalar::Add, true, true, true, true, "", "", d, "b1", "h1"});
    forms.push_back({Scalar::Absdiff, false, true, false, true, "", "", d});
    forms.push_back({Scalar::Shl, true, false, false, true, "", "clamp", d});
    forms.push_back({Scalar::Set, false, true, true, false, "", "gt", d});
  }
  return forms;
}

std::vector<ScalarForm> mad_forms() {
  std::vector<ScalarForm> forms;
  struct Negation {
    bool a, b, c;
  };
  for (int types = 0; types < 8; ++types) {
    const bool d = types & 4, a = types & 2, b = types & 1;
    for (const char* extra : {"", "po", "shr7", "shr15"}) {
      forms.push_back({Scalar::Mad, d, a, b, false, "", extra});
      forms.push_back({Scalar::Mad, d, a, b, true, "", extra});
    }
    for (Negation n : {Negation{true, false, false}, {false, true, false}, {true, true, false}, {false, false, true},
                       {true, true, true}}) {
      for (bool saturate : {false, true}) {
        forms.push_back({Scalar::Mad, d, a, b, saturate, "", "", "", "", "", n.a, n.b, n.c});
        forms.push_back({Scalar::Mad, d, a, b, saturate, "", "shr15", "", "h1", "b2", n.a, n.b, n.c});
      }
    }
  }
  return forms;
}

// Words at the ends of the byte, half-word and word ranges, shift amounts around 32, and others;
// every (a, b) pair, c running through them too.
std::vector<uint32_t> operand_triples() {
  std::vector<uint32_t> words = {0x00000000, 0xffffffff, 0x7fffffff, 0x80000000, 0x7f80ff01, 0x0180fe7f, 0x7fff8000,
                                 0x80017ffe, 0x0000001f, 0x00000020, 0x00000021, 0x00010000, 0x12345678, 0xdeadbeef};
  for (uint32_t r : test::random_values<uint32_t>(6, 19)) words.push_back(r);
  std::vector<uint32_t> triples;
  for (size_t i = 0; i < words.size(); ++i) {
    for (size_t j = 0; j < words.size(); ++j) triples.insert(triples.end(), {words[i], words[j], words[(5 * i + j) % words.size()]});
  }
  return triples;
}

void check_forms(const std::vector<ScalarForm>& forms) {
  std::vector<std::string> statements;
  for (const ScalarForm& form : forms) statements.push_back(test::inline_ptx(ptx_of(form)));
  test::check_statements("alu_video_scalar.cu", statements, operand_triples(),
                         [&](size_t k, uint32_t a, uint32_t b, uint32_t c) { return reference(forms[k], a, b, c); });
}

TEST_CASE("vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr and vset follow the PTX ISA for every type mix, .sat and .op2") {
  check_forms(scalar_forms());
}

TEST_CASE("scalar video selectors read a byte or half-word of a and b, and d's selector clamps to it and merges into c") {
  check_forms(part_forms());
}

TEST_CASE("vmad: product and c negations, .po, .shr7/.shr15 and .sat follow the ISA's pseudocode") {
  check_forms(mad_forms());
}

TEST_CASE("hand-worked scalar video results: the ISA's examples, saturation at both ends, c's sign from dtype") {
  test::check_worked("alu_video_scalar_worked.cu", {
      // 255 (a's unsigned byte) + -32768 (b's signed half-word)
      {"vadd.s32.u32.s32.sat %0, %1.b0, %2.h0;", 0x000000ff, 0x00008000, 0, 0xffff80ff},
      // INT_MIN - 1 clamps at INT_MIN; 0xffffffff + 1 at UINT_MAX; 1 - 2 at 0
      {"vsub.s32.s32.u32.sat %0, %1, %2;", 0x80000000, 1, 0, 0x80000000},
      {"vadd.u32.u32.u32.sat %0, %1, %2;", 0xffffffff, 1, 0, 0xffffffff},
      {"vsub.u32.u32.u32.sat %0, %1, %2;", 1, 2, 0, 0},
      // |-128 - 127| = 255 fits a signed half-word; merged into c's low half
      {"vabsdiff.s32.s32.s32.sat %0.h0, %1.b0, %2.b2, %3;", 0x00000080, 0x007f0000, 0xabcd1234, 0xabcd00ff},
      // min(5, -3) + 10
      {"vmin.s32.s32.s32.add %0, %1, %2, %3;", 5, 0xfffffffd, 10, 7},
      // c = 0xffffffff is UINT_MAX for a .u32 destination, -1 for a .s32 one
      {"vmax.u32.u32.u32.max %0, %1, %2, %3;", 3, 7, 0xffffffff, 0xffffffff},
      {"vmax.s32.u32.u32.max %0, %1, %2, %3;", 3, 7, 0xffffffff, 7},
      // 1 << 40: .clamp shifts by 32 (2^32: 0 in 32 bits, UINT_MAX saturated); .wrap by 8
      {"vshl.u32.u32.u32.clamp %0, %1, %2;", 1, 40, 0, 0},
      {"vshl.u32.u32.u32.sat.clamp %0, %1, %2;", 1, 40, 0, 0xffffffff},
      {"vshl.u32.u32.u32.wrap %0, %1, %2;", 1, 40, 0, 256},
      // INT_MIN >> (33 mod 32), arithmetically
      {"vshr.s32.s32.u32.wrap %0, %1, %2;", 0x80000000, 33, 0, 0xc0000000},
      // -1 (signed a) < 0; as unsigned, 0xffffffff is not
      {"vset.s32.u32.lt %0, %1, %2;", 0xffffffff, 0, 0, 1},
      {"vset.u32.u32.lt %0, %1, %2;", 0xffffffff, 0, 0, 0},
      {"vset.u32.u32.ne.add %0, %1, %2, %3;", 1, 2, 41, 42},
      // the ISA's examples: 2^32 - 5 clamps at INT_MAX; (32768 * 4 + 32768) >> 15 = 5
      {"vmad.s32.s32.u32.sat %0, %1, %2, -%3;", 0x00010000, 0x00010000, 5, 0x7fffffff},
      {"vmad.u32.u32.u32.shr15 %0, %1.h0, %2.h0, %3;", 0x00008000, 4, 0x8000, 5},
      // 3 * 4 + 5 + 1; -(3 * 4) + 5
      {"vmad.u32.u32.u32.po %0, %1, %2, %3;", 3, 4, 5, 18},
      {"vmad.s32.s32.s32 %0, -%1, %2, %3;", 3, 4, 5, 0xfffffff9},
  });
}

TEST_CASE("scalar video instructions the PTX ISA does not define are refused at their line") {
  const char* const refused[] = {
      "vadd.u32.u32.u32 %r0, %r1, %r2, %r3;",          // c with nothing to combine it
      "vadd.u32.u32.u32.add %r0, %r1, %r2;",           // c missing
      "vadd.u32.u32.u32.add %r0.b0, %r1, %r2, %r3;",   // a merge and a secondary operation
      "vmin.u32.u32.u32.add.max %r0, %r1, %r2, %r3;",  // two secondary operations
      "vshl.u32.u32.u32 %r0, %r1, %r2;",               // a shift without its mode
      "vshl.u32.u32.s32.wrap %r0, %r1, %r2;",          // shifts are by a .u32
      "vadd.u32.u32.u32.wrap %r0, %r1, %r2;",          // a mode on no shift
      "vset.u32.u32.lt.sat %r0, %r1, %r2;",            // vset does not saturate
      "vset.u32.u32.lo %r0, %r1, %r2;",                // no unsigned-only comparisons
      "vmad.u32.u32.u32.add %r0, %r1, %r2, %r3;",      // vmad has no secondary operation
      "vmad.u32.u32.u32 %r0, -%r1, %r2, -%r3;",        // a * b and c both negated
      "vmad.u32.u32.u32.po %r0, -%r1, %r2, %r3;",      // .po negates nothing
      "vmad.u32.u32.u32 %r0.h0, %r1, %r2, %r3;",       // vmad's d has no selector
      "vmad.u32.u32.u32 %r0, %r1, %r2;",               // vmad's c missing
      "vadd.u32.u32.u32 %r0, -%r1, %r2;",              // only vmad negates
      "add.s32 %r0, -%r1, %r2;",                       // nor does any other instruction
      "vadd.u32.u32.u32 %r0, %r1.b4, %r2;",            // there is no fifth byte
      "vadd.u32.u32.u32 %r0, %r1.h10, %r2;",           // one part, not a selection
      "vadd.u32.u32.u32.add %r0, %r1, %r2, %r3.b0;",   // c takes no selector
  };
  for (const std::string instruction : refused) {
    CAPTURE(instruction);
    const ptx::Instruction decoded = test::parse_instruction(instruction);
    CHECK(decoded.opcode == ptx::Opcode::Unsupported);
    CHECK_FALSE(decoded.unsupported_reason.empty());
  }
}

}  // namespace
}  // namespace tilecamp
