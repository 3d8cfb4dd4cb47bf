// The SIMD video instructions on the emulator (vadd4, vsub2, vavrg4, vabsdiff2, vmin4, vmax2,
// vset4, vset2): each form written as inline PTX and compared with a reference worked from the
// PTX ISA's definition, a few results worked by hand, the CUDA SIMD intrinsics (which compile to
// these, to add.u16x2 or to bit tricks) against the CUDA Math API's definitions, and the forms
// the decoder refuses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {


enum class Video { Add, Sub, Avrg, Absdiff, Min, Max, Set };

// One form of a SIMD video instruction; `ptx_of` spells it.
struct VideoForm {
  Video op;
  int elements;  // 4: bytes (vadd4...); 2: half-words (vadd2...)
  bool d_signed, a_signed, b_signed;
  bool saturate = false, accumulate = false;
  std::string compare = "";         // vset's: "eq", "lt"...
  std::vector<int> mask = {};       // the destination's elements, written highest first; empty: all
  std::vector<int> a_select = {};   // the element of {b, a} each of a's takes, highest first
  std::vector<int> b_select = {};
};

std::string selector(int elements, const std::vector<int>& digits) {
  if (digits.empty()) return "";
  std::string text = elements == 4 ? ".b" : ".h";
  for (int digit : digits) text += static_cast<char>('0' + digit);
  return text;
}

std::string ptx_of(const VideoForm& f) {
  static const char* const k_names[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"};
  auto type = [](bool is_signed) { return is_signed ? ".s32" : ".u32"; };
  std::string text = k_names[static_cast<int>(f.op)] + std::to_string(f.elements);
  if (f.op != Video::Set) text += type(f.d_signed);
  text += std::string(type(f.a_signed)) + type(f.b_signed);
  if (f.op == Video::Set) text += "." + f.compare;
  if (f.saturate) text += ".sat";
  if (f.accumulate) text += ".add";
  return text + " %0" + selector(f.elements, f.mask) + ", %1" + selector(f.elements, f.a_select) + ", %2" +
         selector(f.elements, f.b_select) + ", %3;";
}

int64_t element(uint64_t bits, int index, int width, bool is_signed) {
  const uint64_t raw = (bits >> (index * width)) & ((uint64_t{1} << width) - 1);
  return is_signed && (raw >> (width - 1)) ? static_cast<int64_t>(raw) - (int64_t{1} << width) : static_cast<int64_t>(raw);
}

bool compares(const std::string& compare, int64_t a, int64_t b) {
  if (compare == "eq") return a == b;
  if (compare == "ne") return a != b;
  if (compare == "lt") return a < b;
  if (compare == "le") return a <= b;
  if (compare == "gt") return a > b;
  return a >= b;  // "ge"
}

// The PTX ISA's semantics of vop4/vop2/vset4/vset2, element by element.
uint32_t reference(const VideoForm& f, uint32_t a, uint32_t b, uint32_t c) {
  const int n = f.elements, width = 32 / n;
  const uint64_t both = uint64_t{b} << 32 | a;
  const std::vector<int> a_select = !f.a_select.empty() ? f.a_select : n == 4 ? std::vector<int>{3, 2, 1, 0} : std::vector<int>{1, 0};
  const std::vector<int> b_select = !f.b_select.empty() ? f.b_select : n == 4 ? std::vector<int>{7, 6, 5, 4} : std::vector<int>{3, 2};
  uint32_t d = f.accumulate ? c : 0;
  for (int i = 0; i < n; ++i) {
    const int64_t va = element(both, a_select[n - 1 - i], width, f.a_signed);
    const int64_t vb = element(both, b_select[n - 1 - i], width, f.b_signed);
    const int64_t sum = va + vb;
    int64_t t = 0;
    switch (f.op) {
      case Video::Add: t = sum; break;
      case Video::Sub: t = va - vb; break;
      case Video::Avrg: t = sum >= 0 ? (sum + 1) / 2 : -((-sum + 1) / 2); break;
      case Video::Absdiff: t = std::abs(va - vb); break;
      case Video::Min: t = std::min(va, vb); break;
      case Video::Max: t = std::max(va, vb); break;
      case Video::Set: t = compares(f.compare, va, vb); break;
    }
    if (f.saturate) {
      const int64_t low = f.d_signed ? -(int64_t{1} << (width - 1)) : 0;
      const int64_t high = f.d_signed ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
      t = std::clamp(t, low, high);
    }
    const bool written = f.mask.empty() || std::find(f.mask.begin(), f.mask.end(), i) != f.mask.end();
    if (f.accumulate) {
      d += written ? static_cast<uint32_t>(t) : 0;
    } else {
      const uint64_t value = written ? static_cast<uint64_t>(t) : static_cast<uint64_t>(element(c, i, width, false));
      d |= static_cast<uint32_t>((value & ((uint64_t{1} << width) - 1)) << (i * width));
    }
  }
  return d;
}

// Every operation with every .u32/.s32 mix of its operands: plain, .sat and .add; vset with each
// comparison, plain and .add.
std::vector<VideoForm> type_mix_forms(int elements) {
  std::vector<VideoForm> forms;
  for (Video op : {Video::Add, Video::Sub, Video::Avrg, Video::Absdiff, Video::Min, Video::Max}) {
    for (int types = 0; types < 8; ++types) {
      const bool d = types & 4, a = types & 2, b = types & 1;
      forms.push_back({op, elements, d, a, b});
      forms.push_back({op, elements, d, a, b, true, false});
      forms.push_back({op, elements, d, a, b, false, true});
    }
  }
  for (const char* compare : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    for (int types = 0; types < 4; ++types) {
      forms.push_back({Video::Set, elements, false, (types & 2) != 0, (types & 1) != 0, false, false, compare});
      forms.push_back({Video::Set, elements, false, (types & 2) != 0, (types & 1) != 0, false, true, compare});
    }
  }
  return forms;
}

// Every destination mask, merging and accumulating, and selections from anywhere in {b, a}.
std::vector<VideoForm> selector_forms() {
  std::vector<VideoForm> forms;
  const std::vector<std::vector<int>> quad_masks = {{0}, {1}, {1, 0}, {2}, {2, 0}, {2, 1}, {2, 1, 0}, {3}, {3, 0}, {3, 1},
                                                    {3, 1, 0}, {3, 2}, {3, 2, 0}, {3, 2, 1}, {3, 2, 1, 0}};
  for (const auto& mask : quad_masks) {
    forms.push_back({Video::Sub, 4, true, true, false, true, false, "", mask});
    forms.push_back({Video::Absdiff, 4, false, true, true, false, true, "", mask});
    forms.push_back({Video::Set, 4, false, false, true, false, false, "gt", mask});
  }
  for (const auto& mask : std::vector<std::vector<int>>{{0}, {1}, {1, 0}}) {
    forms.push_back({Video::Add, 2, true, true, true, true, false, "", mask});
    forms.push_back({Video::Min, 2, false, true, false, false, true, "", mask});
    forms.push_back({Video::Set, 2, false, true, true, false, false, "le", mask});
  }
  const std::vector<std::vector<int>> quad_selections = {{0, 0, 0, 0}, {7, 6, 5, 4}, {3, 2, 1, 0}, {4, 1, 6, 3}, {7, 7, 0, 2}};
  for (const auto& a_select : quad_selections) {
    for (const auto& b_select : quad_selections) {
      forms.push_back({Video::Max, 4, false, true, false, false, false, "", {}, a_select, b_select});
      forms.push_back({Video::Avrg, 4, true, true, true, true, false, "", {2, 0}, a_select, b_select});
    }
  }
  const std::vector<std::vector<int>> half_selections = {{0, 0}, {3, 2}, {1, 0}, {2, 1}, {0, 3}};
  for (const auto& a_select : half_selections) {
    for (const auto& b_select : half_selections) {
      forms.push_back({Video::Sub, 2, true, false, true, false, true, "", {}, a_select, b_select});
      forms.push_back({Video::Set, 2, false, true, false, false, false, "ne", {1}, a_select, b_select});
    }
  }
  return forms;
}

// Words whose bytes and half-words sit at the ends of their ranges, and some that do not; c runs
// through them too (all ones: an .add that wraps).
std::vector<uint32_t> operand_triples() {
  std::vector<uint32_t> words = {0x00000000, 0xffffffff, 0x7f7f7f7f, 0x80808080, 0x7f80ff01, 0x0180fe7f, 0x81ff007f,
                                 0x7fff8000, 0x80017ffe, 0xffff0001, 0x00010000, 0x12345678, 0xdeadbeef};
  for (uint32_t r : test::random_values<uint32_t>(7, 18)) words.push_back(r);
  std::vector<uint32_t> triples;
  for (size_t i = 0; i < words.size(); ++i) {
    for (size_t j = 0; j < words.size(); ++j) triples.insert(triples.end(), {words[i], words[j], words[(3 * i + j) % words.size()]});
  }
  return triples;
}

void check_forms(const std::vector<VideoForm>& forms) {
  std::vector<std::string> statements;
  for (const VideoForm& form : forms) statements.push_back(test::inline_ptx(ptx_of(form)));
  test::check_statements("alu_video.cu", statements, operand_triples(),
                         [&](size_t k, uint32_t a, uint32_t b, uint32_t c) { return reference(forms[k], a, b, c); });
}

TEST_CASE("vadd4, vsub4, vavrg4, vabsdiff4, vmin4, vmax4 and vset4 follow the PTX ISA for every .u32/.s32 mix") {
  check_forms(type_mix_forms(4));
}

TEST_CASE("vadd2, vsub2, vavrg2, vabsdiff2, vmin2, vmax2 and vset2 follow the PTX ISA for every .u32/.s32 mix") {
  check_forms(type_mix_forms(2));
}

TEST_CASE("selectors pick elements from {b, a}, and the destination's mask keeps c's other elements or leaves them out of .add") {
  check_forms(selector_forms());
}

// Results worked by hand from the ISA's definition, one behaviour each.
TEST_CASE("hand-worked: saturation at both ends, signed and unsigned mixes, masks, selectors, .add wrapping") {
  test::check_worked("alu_video_worked.cu", {
      // bytes ff 7f 80 01 + 01 01 80 01: 256 and 256 clamp to 255
      {"vadd4.u32.u32.u32.sat %0, %1, %2, %3;", 0x01807fff, 0x01800101, 0, 0x02ff80ff},
      // as signed: -1+1, 127+1 -> 127, -128-128 -> -128, 1+1
      {"vadd4.s32.s32.s32.sat %0, %1, %2, %3;", 0x01807fff, 0x01800101, 0, 0x02807f00},
      // 0x10-0x20 and 0x01-0x02 and 0x00-0x01 clamp to 0; 0xff-0xfe = 1
      {"vsub4.u32.u32.u32.sat %0, %1, %2, %3;", 0x00ff0110, 0x01fe0220, 0, 0x00010000},
      // |-128 - 127| = 255, added to c = 10
      {"vabsdiff4.u32.s32.s32.add %0, %1, %2, %3;", 0x00000080, 0x0000007f, 10, 0x109},
      // halves 3 and -3 averaged with 0: 2 and -2 (halves round away from zero)
      {"vavrg2.s32.s32.s32 %0, %1, %2, %3;", 0xfffd0003, 0, 0, 0xfffe0002},
      // 4>1, 3>2: two ones added to all ones wrap to 1
      {"vset4.u32.u32.gt.add %0, %1, %2, %3;", 0x01020304, 0x04030201, 0xffffffff, 1},
      // four differences of -127 sum to -508
      {"vsub4.s32.s32.s32.add %0, %1, %2, %3;", 0, 0x7f7f7f7f, 0, 0xfffffe04},
      // every element takes a's byte 0; elements 2 and 0 written, 3 and 1 kept from c
      {"vmax4.u32.u32.u32 %0.b20, %1.b0000, %2.b7654, %3;", 0x00000050, 0x10203040, 0xaabbccdd, 0xaa50cc50},
      // a signed (1, -1), b unsigned (2, 1): min is 1 and -1
      {"vmin2.s32.s32.u32 %0, %1, %2, %3;", 0xffff0001, 0x00010002, 0, 0xffff0001},
      // 5+1 = 6; -2+1 = -1 clamps to 0 in an unsigned destination
      {"vadd2.u32.s32.u32.sat %0, %1, %2, %3;", 0xfffe0005, 0x00010001, 0, 0x00000006},
      // high halves: -1 < 0 (a signed, b unsigned) sets 1; the low half is c's
      {"vset2.s32.u32.lt %0.h1, %1, %2, %3;", 0xffff0005, 0x00000003, 0x12345678, 0x00015678},
      // a's high half against b's low half: |0x8000 - 0x0001| unsigned; .h0 writes only the low half
      {"vabsdiff2.u32.u32.u32 %0.h0, %1.h11, %2.h22, %3;", 0x80000000, 0x00000001, 0xabcd0000, 0xabcd7fff},
  });
}

// ---- the CUDA SIMD intrinsics ----

// f applied to each element of a and b (read signed or not), the result kept to the element's
// width, or clamped to its range when `saturate`.
uint32_t each(uint32_t a, uint32_t b, int n, bool is_signed, int64_t (*f)(int64_t, int64_t), bool saturate = false) {
  const int width = 32 / n;
  uint32_t d = 0;
  for (int i = 0; i < n; ++i) {
    int64_t t = f(element(a, i, width, is_signed), element(b, i, width, is_signed));
    if (saturate) {
      t = std::clamp(t, is_signed ? -(int64_t{1} << (width - 1)) : 0,
                     is_signed ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1);
    }
    d |= static_cast<uint32_t>((static_cast<uint64_t>(t) & ((uint64_t{1} << width) - 1)) << (i * width));
  }
  return d;
}

uint32_t sum_of_differences(uint32_t a, uint32_t b, int n, bool is_signed) {
  int64_t sum = 0;
  for (int i = 0; i < n; ++i) sum += std::abs(element(a, i, 32 / n, is_signed) - element(b, i, 32 / n, is_signed));
  return static_cast<uint32_t>(sum);
}

struct Intrinsic {
  std::string name;
  std::function<uint32_t(uint32_t, uint32_t)> reference;
  bool unary = false;
};

// The CUDA Math API's SIMD intrinsics, each with its documented result, for 2 half-words and 4 bytes.
std::vector<Intrinsic> simd_intrinsics() {
  using Function = int64_t (*)(int64_t, int64_t);
  std::vector<Intrinsic> list;
  for (int n : {2, 4}) {
    const std::string suffix = std::to_string(n);
    auto add = [&](const std::string& name, bool is_signed, Function f, bool saturate = false, bool unary = false) {
      list.push_back({name + suffix, [=](uint32_t a, uint32_t b) { return each(a, b, n, is_signed, f, saturate); }, unary});
    };
    const Function plus = [](int64_t x, int64_t y) { return x + y; };
    const Function minus = [](int64_t x, int64_t y) { return x - y; };
    const Function absolute = [](int64_t x, int64_t) { return x < 0 ? -x : x; };
    const Function negated = [](int64_t x, int64_t) { return -x; };
    add("__vadd", false, plus);
    add("__vaddss", true, plus, true);
    add("__vaddus", false, plus, true);
    add("__vsub", false, minus);
    add("__vsubss", true, minus, true);
    add("__vsubus", false, minus, true);
    add("__vabs", true, absolute, false, true);
    add("__vabsss", true, absolute, true, true);
    add("__vneg", true, negated, false, true);
    add("__vnegss", true, negated, true, true);
    add("__vabsdiffs", true, [](int64_t x, int64_t y) { return std::abs(x - y); });
    add("__vabsdiffu", false, [](int64_t x, int64_t y) { return std::abs(x - y); });
    add("__vavgs", true, [](int64_t x, int64_t y) { return x + y >= 0 ? (x + y + 1) / 2 : -((-(x + y) + 1) / 2); });
    add("__vavgu", false, [](int64_t x, int64_t y) { return (x + y + 1) / 2; });
    add("__vhaddu", false, [](int64_t x, int64_t y) { return (x + y) / 2; });
    add("__vmaxs", true, [](int64_t x, int64_t y) { return std::max(x, y); });
    add("__vmaxu", false, [](int64_t x, int64_t y) { return std::max(x, y); });
    add("__vmins", true, [](int64_t x, int64_t y) { return std::min(x, y); });
    add("__vminu", false, [](int64_t x, int64_t y) { return std::min(x, y); });
    // __vcmp*: all ones where the comparison holds; __vset*: 1.
    add("__vcmpeq", false, [](int64_t x, int64_t y) -> int64_t { return x == y ? -1 : 0; });
    add("__vcmpne", false, [](int64_t x, int64_t y) -> int64_t { return x != y ? -1 : 0; });
    add("__vcmpges", true, [](int64_t x, int64_t y) -> int64_t { return x >= y ? -1 : 0; });
    add("__vcmpgeu", false, [](int64_t x, int64_t y) -> int64_t { return x >= y ? -1 : 0; });
    add("__vcmpgts", true, [](int64_t x, int64_t y) -> int64_t { return x > y ? -1 : 0; });
    add("__vcmpgtu", false, [](int64_t x, int64_t y) -> int64_t { return x > y ? -1 : 0; });
    add("__vcmples", true, [](int64_t x, int64_t y) -> int64_t { return x <= y ? -1 : 0; });
    add("__vcmpleu", false, [](int64_t x, int64_t y) -> int64_t { return x <= y ? -1 : 0; });
    add("__vcmplts", true, [](int64_t x, int64_t y) -> int64_t { return x < y ? -1 : 0; });
    add("__vcmpltu", false, [](int64_t x, int64_t y) -> int64_t { return x < y ? -1 : 0; });
    add("__vseteq", false, [](int64_t x, int64_t y) -> int64_t { return x == y; });
    add("__vsetne", false, [](int64_t x, int64_t y) -> int64_t { return x != y; });
    add("__vsetges", true, [](int64_t x, int64_t y) -> int64_t { return x >= y; });
    add("__vsetgeu", false, [](int64_t x, int64_t y) -> int64_t { return x >= y; });
    add("__vsetgts", true, [](int64_t x, int64_t y) -> int64_t { return x > y; });
    add("__vsetgtu", false, [](int64_t x, int64_t y) -> int64_t { return x > y; });
    add("__vsetles", true, [](int64_t x, int64_t y) -> int64_t { return x <= y; });
    add("__vsetleu", false, [](int64_t x, int64_t y) -> int64_t { return x <= y; });
    add("__vsetlts", true, [](int64_t x, int64_t y) -> int64_t { return x < y; });
    add("__vsetltu", false, [](int64_t x, int64_t y) -> int64_t { return x < y; });
    list.push_back({"__vsads" + suffix, [n](uint32_t a, uint32_t b) { return sum_of_differences(a, b, n, true); }});
    list.push_back({"__vsadu" + suffix, [n](uint32_t a, uint32_t b) { return sum_of_differences(a, b, n, false); }});
  }
  return list;
}

TEST_CASE("the CUDA SIMD intrinsics (__vadd2, __vsadu2, __vabsdiffu4, __vcmpgtu4...) give the CUDA Math API's results") {
  const std::vector<Intrinsic> intrinsics = simd_intrinsics();
  std::vector<std::string> statements;
  for (const Intrinsic& intrinsic : intrinsics) statements.push_back("r = " + intrinsic.name + (intrinsic.unary ? "(a);" : "(a, b);"));
  test::check_statements("alu_video_intrinsics.cu", statements, operand_triples(),
                         [&](size_t k, uint32_t a, uint32_t b, uint32_t) { return intrinsics[k].reference(a, b); });
}

// ---- refusals ----

TEST_CASE("video instructions the PTX ISA does not define are refused at their line, with the reason") {
  const char* const refused[] = {
      "vadd4.u32.u32.u32.sat.add %r0, %r1, %r2, %r3;",     // .sat with the accumulate
      "vmin4.u32.u32.u32.max %r0, %r1, %r2, %r3;",         // the scalar forms' secondary ops
      "vset4.u32.u32.lo %r0, %r1, %r2, %r3;",              // no unsigned-only comparisons
      "vset2.u32.u32.lt.sat %r0, %r1, %r2, %r3;",          // vset does not saturate
      "vadd4.u32.u32 %r0, %r1, %r2, %r3;",                 // a type missing
      "vadd2.u32.u32.u32.u32 %r0, %r1, %r2, %r3;",         // a type too many
      "vsub4.f32.u32.u32 %r0, %r1, %r2, %r3;",             // not a word type
      "vadd4.u32.u32.u32 %r0.b01, %r1, %r2, %r3;",         // a mask is written from the highest element
      "vadd4.u32.u32.u32 %r0.b4, %r1, %r2, %r3;",          // there is no fifth byte
      "vadd4.u32.u32.u32 %r0, %r1.b8765, %r2, %r3;",       // selections name bytes 0..7
      "vadd4.u32.u32.u32 %r0, %r1.b210, %r2, %r3;",        // one byte for each element
      "vadd4.u32.u32.u32 %r0, %r1.h10, %r2, %r3;",         // half-words belong to vadd2
      "vadd2.u32.u32.u32 %r0, %r1.h14, %r2, %r3;",         // there is no fifth half-word
      "vadd2.u32.u32.u32 %r0, %r1, %r2, %r3.h10;",         // c takes no selector
      "vadd2.u32.u32.u32 %r0.x, %r1, %r2, %r3;",           // not a selector
      "vadd4.u32.u32.u32 %r0, %r1, %r2;",                  // c missing
  };
  for (const std::string instruction : refused) {
    CAPTURE(instruction);
    const ptx::Instruction decoded = test::parse_instruction(instruction);
    CHECK(decoded.opcode == ptx::Opcode::Unsupported);
    CHECK_FALSE(decoded.unsupported_reason.empty());
  }
  const ptx::Instruction accepted = test::parse_instruction("vmax4.s32.u32.s32.sat %r0.b31, %r1.b7320, %r2.b0000, %r3;");
  CHECK(accepted.opcode == ptx::Opcode::Vop4);
  CHECK(accepted.video_op == ptx::VideoOp::Max);
  CHECK(accepted.operands[0].select_digits == 0x31);
  CHECK(accepted.operands[1].select_digits == 0x7320);
  CHECK(accepted.operands[2].select_digits == 0x0000);
}

}  // namespace
}  // namespace tilecamp
