// Selection, comparison and moves on the emulator: setp with its second predicate and boolean
// combinations, set, selp, slct, vector movs that pack and unpack registers, and cvt.sat; plus
// hand-written PTX for forms NVRTC never writes.
#include <doctest/doctest.h>

#include <algorithm>

#include "checker/ptx/parser.h"
#include "tests/test_emu_alu_support.h"

namespace tilecamp {
namespace {

using test::all_pairs;
using test::edge_u32;
using test::run_elementwise;

constexpr char k_kernels[] = R"(

extern "C" __global__ void select(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[2 * i], b = in[2 * i + 1], r, p, q;
  asm("{ .reg .pred x, y; setp.lt.s32 x|y, %2, %3; selp.u32 %0, 1, 0, x; selp.u32 %1, 1, 0, y; }"
      : "=r"(p), "=r"(q) : "r"(a), "r"(b));
  out[6 * i] = p | q << 1;
  asm("{ .reg .pred c, x, y; setp.ne.u32 c, %4, 0; setp.hi.and.u32 x|y, %2, %3, !c;"
      " selp.u32 %0, 1, 0, x; selp.u32 %1, 1, 0, y; }" : "=r"(p), "=r"(q) : "r"(a), "r"(b), "r"(a & 1));
  out[6 * i + 1] = p | q << 1;
  asm("set.le.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 2] = r;
  asm("set.gt.f32.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); out[6 * i + 3] = r;
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(a ^ b)); out[6 * i + 4] = r;
  asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(b)); out[6 * i + 5] = r;
}

extern "C" __global__ void pack(const u32* in, u32* out, int n) {
  THREAD
  u32 a = in[2 * i], b = in[2 * i + 1];
  double d = __hiloint2double((int)a, (int)b);  // mov.b64 %fd, {lo, hi}
  out[6 * i] = (u32)__double2hiint(d);          // mov.b64 {_, hi}, %fd
  out[6 * i + 1] = (u32)__double2loint(d);
  unsigned short h0, h1;
  asm("mov.b32 {%0, %1}, %2;" : "=h"(h0), "=h"(h1) : "r"(a));
  out[6 * i + 2] = h0;
  out[6 * i + 3] = h1;
  u32 r;
  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(h1), "h"(h0)); out[6 * i + 4] = r;
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"(a)); out[6 * i + 5] = r | (u32)(signed char)b << 8;
}
)";

const ptx::Module& select_module() {
  static const ptx::Module module = test::compile_kernels("alu_select.cu", k_kernels);
  return module;
}

TEST_CASE("setp with a second predicate and a boolean, set, selp and slct select by comparison") {
  const std::vector<uint32_t> in = all_pairs(edge_u32());
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<uint32_t>(select_module(), "select", in, n, 6);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[2 * i], b = in[2 * i + 1];
    const bool lt = static_cast<int32_t>(a) < static_cast<int32_t>(b), c = a & 1;
    CAPTURE(a);
    CAPTURE(b);
    CHECK(out[6 * i] == (lt ? 1u : 2u));  // p|q: q is !p
    const bool hi = a > b;
    CHECK(out[6 * i + 1] == (uint32_t{hi && !c} | uint32_t{!hi && !c} << 1));
    CHECK(out[6 * i + 2] == (static_cast<int32_t>(a) <= static_cast<int32_t>(b) ? 0xffffffffu : 0u));
    CHECK(out[6 * i + 3] == (a > b ? 0x3f800000u : 0u));  // a float destination gets 1.0
    CHECK(out[6 * i + 4] == (static_cast<int32_t>(a ^ b) >= 0 ? a : b));
    const float c_float = test::float_of(b);
    CHECK(out[6 * i + 5] == (c_float >= 0 ? a : b));  // NaN is not >= 0; -0 is
  }
}

TEST_CASE("vector mov packs and unpacks registers, the first element lowest, cvt.sat clamps") {
  const std::vector<uint32_t> in = all_pairs(edge_u32());
  const int n = static_cast<int>(in.size() / 2);
  const auto out = run_elementwise<uint32_t>(select_module(), "pack", in, n, 6);
  for (int i = 0; i < n; ++i) {
    const uint32_t a = in[2 * i], b = in[2 * i + 1];
    CAPTURE(a);
    CAPTURE(b);
    CHECK(out[6 * i] == a);  // __hiloint2double(hi, lo)
    CHECK(out[6 * i + 1] == b);
    CHECK(out[6 * i + 2] == (a & 0xffff));
    CHECK(out[6 * i + 3] == (a >> 16));
    CHECK(out[6 * i + 4] == ((a << 16) | (a >> 16)));
    const int32_t sa = static_cast<int32_t>(a);
    const uint32_t byte = static_cast<uint32_t>(std::clamp(sa, 0, 255));
    CHECK(out[6 * i + 5] == (byte | static_cast<uint32_t>(static_cast<int8_t>(b)) << 8));
  }
}

// Forms NVRTC does not write: setp's optional second destination left out, `_` in a vector
// destination, and set combined with a predicate.
TEST_CASE("hand-written PTX: setp without q, `_` in an unpacking mov, and set with .and") {
  constexpr char k_ptx[] = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 out_param)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out_param];
  mov.b64 %rd2, 0x1122334455667788;
  mov.b64 {_, %r1}, %rd2;
  setp.gt.u32 %p1, %r1, 0x11223343;
  setp.eq.u32 %p2, %r1, 0;
  set.gt.and.s32.u32 %r2, %r1, 7, %p1;
  set.gt.and.s32.u32 %r3, %r1, 7, %p2;
  selp.b32 %r4, 10, 20, %p1;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  ret;
}
)";
  auto module = ptx::parse_module(k_ptx);
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  emu::DeviceMemory memory;
  emu::Emulator emulator(*module, memory);
  const uint64_t out = memory.allocate("out", std::vector<uint8_t>(16, 0));
  LaunchConfig config;
  const auto result = emulator.launch("probe", config, {test::scalar_bytes(out)});
  REQUIRE(result.has_value());
  REQUIRE(result->completed);
  uint32_t values[4];
  std::memcpy(values, memory.find(out, 16)->bytes.data(), 16);
  CHECK(values[0] == 0x11223344u);
  CHECK(values[1] == 0xffffffffu);
  CHECK(values[2] == 0u);
  CHECK(values[3] == 10u);
}

}  // namespace
}  // namespace tilecamp
