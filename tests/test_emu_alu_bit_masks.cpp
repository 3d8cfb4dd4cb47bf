// bmsk and szext on the emulator (inline PTX: no CUDA intrinsic emits them): against the PTX ISA's
// semantics, transcribed step by step, over positions and widths on both sides of 32, and the
// ISA's own examples.
#include <doctest/doctest.h>

#include "checker/ptx/instruction_decoder.h"
#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

using test::run_elementwise;

constexpr char k_kernels[] = R"(
extern "C" __global__ void masks(const u32* in, u32* out, int n) {
  THREAD
  const u32 position = in[3 * i], width = in[3 * i + 1], value = in[3 * i + 2];
  u32* o = out + 6 * i;
  u32 r;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(position), "r"(width)); o[0] = r;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(position), "r"(width)); o[1] = r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(width)); o[2] = r;
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(width)); o[3] = r;
  asm("szext.clamp.u32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(width)); o[4] = r;
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(width)); o[5] = r;
}

extern "C" __global__ void examples(const u32* in, u32* out, int n) {
  THREAD
  u32 r;
  asm("bmsk.wrap.b32 %0, 1, 2;" : "=r"(r)); out[0] = r;
  asm("szext.wrap.u32 %0, 0xffffffff, 0;" : "=r"(r)); out[1] = r;
}
)";

const ptx::Module& masks_module() {
  static const ptx::Module module = test::compile_kernels("alu_bit_masks.cu", k_kernels);
  return module;
}

// The PTX ISA's bmsk semantics, step by step (shifts of 32 or more give 0, as its pseudocode means).
uint32_t reference_bmsk(uint32_t a, uint32_t b, bool clamp) {
  const uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool overflow = sum >= 32;
  if (clamp) {
    if (a >= 32) {
      overflow = true;
      mask0 = 0;
    }
    if (b >= 32) overflow = true;
  }
  if (overflow) {
    mask1 = 0;
  } else if (b1 == 0) {
    mask1 = ~0u;
  }
  return mask0 & ~mask1;
}

// The PTX ISA's szext semantics, step by step.
uint32_t reference_szext(uint32_t a, uint32_t b, bool clamp, bool is_signed) {
  const uint32_t b1 = b & 0x1f;
  const bool too_large = b >= 32 && clamp;
  const uint32_t mask = too_large ? 0 : ~0u << b1;
  const uint32_t sign_position = (b1 - 1) & 0x1f;
  const bool sign = !(b1 == 0 || too_large || !is_signed) && ((a >> sign_position) & 1);
  return (a & ~mask) | (sign ? mask : 0);
}

TEST_CASE("bmsk and szext follow the PTX ISA for positions and widths below, at and past 32, .clamp and .wrap") {
  std::vector<uint32_t> amounts;
  for (uint32_t k = 0; k <= 40; ++k) amounts.push_back(k);
  for (uint32_t k : {63u, 64u, 65u, 0x7fffffffu, 0x80000000u, 0xffffffe1u, 0xffffffffu}) amounts.push_back(k);
  const std::vector<uint32_t> values = {0x00000000, 0xffffffff, 0x80000000, 0x7fffffff, 0x00000080, 0x12345678, 0xdeadbeef};
  std::vector<uint32_t> in;
  for (size_t p = 0; p < amounts.size(); ++p) {
    for (size_t w = 0; w < amounts.size(); ++w) in.insert(in.end(), {amounts[p], amounts[w], values[(p + 3 * w) % values.size()]});
  }
  const int n = static_cast<int>(in.size() / 3);
  const auto out = run_elementwise<uint32_t>(masks_module(), "masks", in, n, 6);
  for (int i = 0; i < n; ++i) {
    const uint32_t position = in[3 * i], width = in[3 * i + 1], value = in[3 * i + 2];
    CAPTURE(position);
    CAPTURE(width);
    CAPTURE(value);
    const uint32_t* o = &out[6 * static_cast<size_t>(i)];
    CHECK(o[0] == reference_bmsk(position, width, true));
    CHECK(o[1] == reference_bmsk(position, width, false));
    CHECK(o[2] == reference_szext(value, width, true, true));
    CHECK(o[3] == reference_szext(value, width, false, true));
    CHECK(o[4] == reference_szext(value, width, true, false));
    CHECK(o[5] == reference_szext(value, width, false, false));
  }
}

TEST_CASE("bmsk and szext give the PTX ISA's examples and hand-worked values") {
  const auto examples = run_elementwise<uint32_t>(masks_module(), "examples", std::vector<uint32_t>{0}, 1, 2);
  CHECK(examples[0] == 0x00000006u);  // "Creates a bitmask of 0x00000006"
  CHECK(examples[1] == 0u);           // "Result is 0"
  // {position, width, value} -> bmsk.clamp, bmsk.wrap, szext.clamp.s32, szext.wrap.s32, szext.clamp.u32, szext.wrap.u32
  const std::vector<uint32_t> in = {4, 40, 0x80, 32, 1, 0x1, 30, 5, 0xfff};
  const auto out = run_elementwise<uint32_t>(masks_module(), "masks", in, 3, 6);
  // width 40: .clamp takes every bit from 4 up and leaves the value whole; .wrap takes 8 bits
  CHECK(out[0] == 0xfffffff0u);
  CHECK(out[1] == 0x00000ff0u);
  CHECK(out[2] == 0x00000080u);
  CHECK(out[3] == 0xffffff80u);
  CHECK(out[4] == 0x00000080u);
  CHECK(out[5] == 0x00000080u);
  // position 32: empty under .clamp, bit 0 under .wrap; a 1-bit field of 1 is -1 signed
  CHECK(out[6] == 0u);
  CHECK(out[7] == 0x00000001u);
  CHECK(out[8] == 0xffffffffu);
  CHECK(out[10] == 0x00000001u);
  // bits 30..34 stop at bit 31; 5 bits of 0xfff: 0x1f, sign-extended -1
  CHECK(out[12] == 0xc0000000u);
  CHECK(out[13] == 0xc0000000u);
  CHECK(out[14] == 0xffffffffu);
  CHECK(out[16] == 0x0000001fu);
}

TEST_CASE("bmsk and szext without their mode, or of another type, are refused") {
  for (const char* word : {"bmsk.b32", "szext.s32", "bmsk.clamp.u32", "szext.wrap.b32", "szext.clamp.s64"}) {
    const std::string text = word;
    CAPTURE(text);
    ptx::Instruction instruction;
    ptx::decode_opcode(word, instruction);
    CHECK(instruction.opcode == ptx::Opcode::Unsupported);
  }
}

}  // namespace
}  // namespace tilecamp
