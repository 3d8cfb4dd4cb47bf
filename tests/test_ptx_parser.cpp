#include <doctest/doctest.h>

#include "checker/ptx/instruction_decoder.h"
#include "checker/ptx/kernel_lookup.h"
#include "checker/ptx/parser.h"
#include "tests/test_support.h"

namespace tilecamp::ptx {
namespace {

const char* const k_small_kernel = R"(
.version 8.0
.target sm_90
.address_size 64
.file 1 "k.cu"
.visible .entry scale(
  .param .u64 scale_param_0,
  .param .f32 scale_param_1
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  .loc 1 3 0
  ld.param.u64 %rd1, [scale_param_0];
  ld.param.f32 %f1, [scale_param_1];
  mov.u32 %r1, %tid.x;
  setp.gt.u32 %p1, %r1, 15;
  @%p1 bra $L__done;
  .loc 1 5 3
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3+0], %f1;
$L__done:
  ret;
}
)";

TEST_CASE("a kernel's parameters, registers and instructions are decoded") {
  auto module = parse_module(k_small_kernel);
  REQUIRE_MESSAGE(module.has_value(), (module ? "" : module.error()));
  const Function* scale = module->find_function("scale");
  REQUIRE(scale != nullptr);
  CHECK(scale->is_entry);
  REQUIRE(scale->parameters.size() == 2);
  CHECK(scale->parameters[0].offset == 0);
  CHECK(scale->parameters[1].offset == 8);
  CHECK(scale->register_names.size() == 2 + 3 + 3 + 4);
  REQUIRE(scale->instructions.size() == 9);
  const Instruction& setp = scale->instructions[3];
  CHECK(setp.opcode == Opcode::Setp);
  CHECK(setp.compare == CompareOp::Gt);
  CHECK(setp.type == Type::U32);
  CHECK(setp.operands[2].bits == 15);
  const Instruction& branch = scale->instructions[4];
  CHECK(branch.opcode == Opcode::Bra);
  CHECK(branch.guard >= 0);
  CHECK(branch.target == 8);
  CHECK(scale->instructions[5].location.line == 5);
  CHECK(module->files[1] == "k.cu");
}

TEST_CASE("a forward branch reconverges at its target") {
  auto module = parse_module(k_small_kernel);
  REQUIRE(module.has_value());
  const Function* scale = module->find_function("scale");
  CHECK(scale->reconvergence_pc[4] == 8);
}

TEST_CASE("float immediates are read as the instruction's type") {
  auto module = parse_module(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .f32 %f<2>;
  .reg .f64 %fd<2>;
  mov.f32 %f1, 0f3F800000;
  add.f64 %fd1, %fd0, 0d4000000000000000;
  ret;
}
)");
  REQUIRE(module.has_value());
  const Function& k = module->functions[0];
  CHECK(k.instructions[0].operands[1].bits == 0x3F800000u);
  CHECK(k.instructions[1].operands[2].bits == 0x4000000000000000ull);
}

TEST_CASE("an instruction the emulator does not know is kept and marked, not dropped") {
  auto module = parse_module(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<3>;
  suq.width.b32 %r1, [%r2];
  ret;
}
)");
  REQUIRE(module.has_value());
  CHECK(module->functions[0].instructions[0].opcode == Opcode::Unsupported);
  CHECK(module->functions[0].instructions[0].unsupported_reason.find("suq") != std::string::npos);
}

TEST_CASE("malformed PTX is an error naming the PTX line") {
  auto module = parse_module(".version 8.0\n.target sm_90\n.visible .entry k(\n{\n");
  REQUIRE_FALSE(module.has_value());
  CHECK(module.error().find("PTX line") != std::string::npos);
}

TEST_CASE("kernels are found by plain name, template instance or mangled name") {
  const Module module = test::compile_to_module("names.cu", R"(
template <int N> __global__ void scaleBy(float* x) { x[threadIdx.x] *= N; }
template __global__ void scaleBy<2>(float*);
template __global__ void scaleBy<3>(float*);
__global__ void plain(float* x) { x[0] = 1; }
)");
  auto plain = resolve_kernel_name(module, "plain");
  REQUIRE(plain.has_value());
  CHECK(*plain == "_Z5plainPf");
  CHECK(resolve_kernel_name(module, "_Z5plainPf").has_value());
  auto three = resolve_kernel_name(module, "scaleBy<3>");
  REQUIRE(three.has_value());
  CHECK(readable_kernel_name(*three) == "scaleBy<3>");
  auto ambiguous = resolve_kernel_name(module, "scaleBy");
  REQUIRE_FALSE(ambiguous.has_value());
  CHECK(ambiguous.error().find("scaleBy<2>") != std::string::npos);
  auto missing = resolve_kernel_name(module, "nope");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().find("plain") != std::string::npos);
}

// Regression tests for inputs the PTX fuzzer (tests/fuzz/fuzz_ptx_parser.cpp) found, shrunk.

TEST_CASE("a branch to a label just before the closing brace leaves the function") {
  auto module = parse_module(".entry _{bra\t$L__BB1_9;$L__BB1_9:}");
  REQUIRE(module.has_value());
  REQUIRE(module->functions.at(0).instructions.size() == 1);
  CHECK(module->functions[0].instructions[0].target == 1);
  CHECK(module->functions[0].reconvergence_pc.at(0) == 1);
}

TEST_CASE("a register declaration with an absurd count is an error, not an endless allocation") {
  auto module = parse_module(".entry k(){.reg .b32 %r<3875820019684212735>;}");
  REQUIRE_FALSE(module.has_value());
  CHECK(module.error().find("registers") != std::string::npos);
  // The fuzzer's original input (leading zeros make it an invalid octal literal): still an error.
  CHECK_FALSE(parse_module(".entry k(){.reg .b32 %r<0003875820019684212735>;}").has_value());
}

}  // namespace
}  // namespace tilecamp::ptx

namespace tilecamp::ptx {
namespace {

TEST_CASE("integer literals follow PTX: hexadecimal, octal with a leading 0, binary") {
  uint64_t bits = 0;
  CHECK(literal_bits("010", false, Type::U32, bits));
  CHECK(bits == 8);
  CHECK(literal_bits("0x1F", false, Type::U32, bits));
  CHECK(bits == 31);
  CHECK(literal_bits("0b101", false, Type::U32, bits));
  CHECK(bits == 5);
  CHECK(literal_bits("0", false, Type::U32, bits));
  CHECK(bits == 0);
  CHECK(literal_bits("7", true, Type::S32, bits));
  CHECK(static_cast<int64_t>(bits) == -7);
  CHECK_FALSE(literal_bits("09", false, Type::U32, bits));
}

}  // namespace
}  // namespace tilecamp::ptx
