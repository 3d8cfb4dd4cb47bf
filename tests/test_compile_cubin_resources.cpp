// What ptxas recorded in NVRTC's cubin: registers, static shared memory, the stack frame and
// __launch_bounds__, read back per kernel; and bytes that are not such a cubin refused cleanly.
#include <doctest/doctest.h>
#include <nvrtc.h>

#include <random>
#include <string>

#include "checker/child/launch_wire.h"
#include "checker/compile/cubin_resources.h"
#include "checker/compile/nvrtc_compiler.h"

namespace tilecamp {
namespace {

constexpr const char* k_kernels = R"(
extern "C" __global__ void __launch_bounds__(256) staged(float* out, const float* in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// Held to 32 registers by its launch bounds, it keeps 32 values live: ptxas spills some of them to
// a stack frame in local memory.
extern "C" __global__ void __launch_bounds__(256, 8) stacked(const float* in, float* out) {
  float v[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) v[k] = in[(blockIdx.x * 32 + k) * 256 + threadIdx.x];
#pragma unroll
  for (int k = 0; k < 32; ++k) out[(blockIdx.x * 32 + k) * 256 + threadIdx.x] = v[k];
}

template <int N>
__global__ void accumulate(float* out, const float* in) {
  float sum[N];
#pragma unroll
  for (int i = 0; i < N; ++i) sum[i] = in[i * blockDim.x + threadIdx.x];
  float total = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) total += sum[i] * sum[(i + 1) % N];
  out[threadIdx.x] = total;
}
template __global__ void accumulate<32>(float*, const float*);
)";

CompileResult compile_kernels() {
  NvrtcCompiler compiler;
  Expected<CompileResult> result = compiler.compile({"kernels.cu", k_kernels}, {});
  REQUIRE(result.has_value());
  REQUIRE(result->ok);
  return *result;
}

// NVRTC's own cubin of the same file, for the tests that damage it.
std::string cubin_of(const char* source) {
  nvrtcProgram program = nullptr;
  REQUIRE(nvrtcCreateProgram(&program, source, "kernels.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
  const char* options[] = {"-arch=sm_90", "--std=c++17"};
  REQUIRE(nvrtcCompileProgram(program, 2, options) == NVRTC_SUCCESS);
  size_t size = 0;
  REQUIRE(nvrtcGetCUBINSize(program, &size) == NVRTC_SUCCESS);
  std::string cubin(size, '\0');
  REQUIRE(nvrtcGetCUBIN(program, cubin.data()) == NVRTC_SUCCESS);
  nvrtcDestroyProgram(&program);
  return cubin;
}

TEST_CASE("every kernel of a compiled file comes back with what ptxas gave it") {
  const CompileResult compiled = compile_kernels();
  REQUIRE(compiled.resources.size() == 3);

  const KernelResources* staged = find_resources(compiled.resources, "staged");
  REQUIRE(staged != nullptr);
  CHECK(staged->static_shared_bytes == 1024);  // 256 floats
  CHECK(staged->max_threads == 256);
  CHECK(staged->local_bytes == 0);
  CHECK(staged->registers >= 4);
  CHECK(staged->registers <= 32);

  const KernelResources* stacked = find_resources(compiled.resources, "stacked");
  REQUIRE(stacked != nullptr);
  CHECK(stacked->registers <= 32);
  CHECK(stacked->local_bytes > 0);  // the spilled values
  CHECK(stacked->static_shared_bytes == 0);
  CHECK(stacked->max_threads == 256);

  const KernelResources* accumulate = find_resources(compiled.resources, "_Z10accumulateILi32EEvPfPKf");
  REQUIRE(accumulate != nullptr);
  CHECK(accumulate->registers > staged->registers);  // 32 values live at once
}

TEST_CASE("a compiler's result carries the resources through the sandbox's message and the PTX cache's entry") {
  const CompileResult compiled = compile_kernels();
  child::MessageWriter out;
  child::write_compile_result(out, compiled);
  child::MessageReader in(out.data());
  Expected<CompileResult> read = child::read_compile_result(in);
  REQUIRE(read.has_value());
  REQUIRE(read->resources.size() == compiled.resources.size());
  for (size_t i = 0; i < compiled.resources.size(); ++i) {
    CHECK(read->resources[i].kernel == compiled.resources[i].kernel);
    CHECK(read->resources[i].registers == compiled.resources[i].registers);
    CHECK(read->resources[i].static_shared_bytes == compiled.resources[i].static_shared_bytes);
    CHECK(read->resources[i].local_bytes == compiled.resources[i].local_bytes);
    CHECK(read->resources[i].max_threads == compiled.resources[i].max_threads);
  }
}

TEST_CASE("the cubin's figures are those the compiler reports, read from NVRTC's bytes") {
  Expected<std::vector<KernelResources>> read = read_cubin_resources(cubin_of(k_kernels));
  REQUIRE(read.has_value());
  CHECK(read->size() == 3);
}

TEST_CASE("a cubin cut short anywhere is an error or fewer figures, never a read past its end") {
  const std::string cubin = cubin_of(k_kernels);
  int refused = 0;
  for (size_t size = 0; size < cubin.size(); size += 7) {
    // A copy of exactly `size` bytes, so a sanitizer sees any read past it.
    const std::string cut = cubin.substr(0, size);
    Expected<std::vector<KernelResources>> read = read_cubin_resources(cut);
    if (!read) {
      CHECK(read.error().starts_with("the cubin is malformed: "));
      ++refused;
    }
  }
  CHECK(refused > 0);
}

TEST_CASE("PTX that ptxas refuses is still compiled, to PTX alone, for the emulator to judge") {
  NvrtcCompiler compiler;
  const Expected<CompileResult> result = compiler.compile({"scribble.cu", R"(
__constant__ float c[32];
__global__ void scribble(float v) {
  asm volatile("st.const.f32 [c], %0;" :: "f"(v));
}
)"}, {});
  REQUIRE(result.has_value());
  CHECK(result->ok);
  CHECK(result->ptx.find("st.const.f32") != std::string::npos);
  CHECK(result->resources.empty());
}

TEST_CASE("bytes that are not an ELF file, or an ELF file whose offsets lie, are refused") {
  CHECK_FALSE(read_cubin_resources("").has_value());
  CHECK_FALSE(read_cubin_resources(std::string(64, '\0')).has_value());
  CHECK(read_cubin_resources("\x7f" "ELF garbage").error() == "the cubin is malformed: not a 64-bit little-endian ELF file");

  std::string cubin = cubin_of(k_kernels);
  std::string lying = cubin;
  lying[0x28] = '\xff';  // the section headers' offset, far past the end
  lying[0x2f] = '\x7f';
  CHECK_FALSE(read_cubin_resources(lying).has_value());

  // Random damage anywhere: whatever comes back, nothing is read outside the bytes.
  std::mt19937 random(19);
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = cubin;
    for (int i = 0; i < 8; ++i) damaged[random() % damaged.size()] = static_cast<char>(random());
    (void)read_cubin_resources(damaged);
  }
}

}  // namespace
}  // namespace tilecamp
