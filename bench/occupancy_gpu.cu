// What the CUDA driver says of each course kernel's registers, shared memory, local memory and
// occupancy, two ways: the cubin NVRTC assembles for sm_90 (what tilecamp reads its figures
// from, compile/cubin_resources.h) and the PTX loaded through the driver's JIT (what the GPU
// backend runs). bench/occupancy_gpu.sh builds and runs it on the GPU machine:
//   nvcc -std=c++17 -O2 bench/occupancy_gpu.cu -lcuda -lnvrtc -o occupancy_gpu
//   occupancy_gpu FILE SHA256 [FILE SHA256 ...]
// One tab-separated line per kernel and way: file, its SHA-256, kernel (mangled), way, registers,
// static shared bytes, local bytes, max threads per block, then the blocks per SM that
// cuOccupancyMaxActiveBlocksPerMultiprocessor gives for blocks of 32, 64, 128, 256, 512 and 1024
// threads without dynamic shared memory ("-" past the kernel's thread limit).
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check_cu(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s: %s\n", what, name != nullptr ? name : "unknown error");
  std::exit(1);
}

struct Compiled {
  bool ok = false;
  std::string ptx, cubin, log;
};

// As tilecamp compiles (checker/compile/nvrtc_compiler.cpp), less its stand-in headers, which
// the course's kernels do not include. (The run in bench/model/h200/occupancy_gpu.tsv had no -I:
// lesson 7's snippet, which includes cooperative_groups.h, did not compile there.)
Compiled compile(const std::string& path, const std::string& text) {
  Compiled out;
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, text.c_str(), path.c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS) return out;
  // The toolkit's headers, as tilecamp finds them (cooperative_groups.h, libcu++ under cccl).
  const char* options[] = {"-lineinfo", "--std=c++17", "-arch=sm_90", "-I/usr/local/cuda/include",
                           "-I/usr/local/cuda/include/cccl"};
  const nvrtcResult result = nvrtcCompileProgram(program, 5, options);
  size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  out.log.resize(size);
  nvrtcGetProgramLog(program, out.log.data());
  if (result == NVRTC_SUCCESS) {
    nvrtcGetPTXSize(program, &size);
    out.ptx.resize(size);
    nvrtcGetPTX(program, out.ptx.data());
    nvrtcGetCUBINSize(program, &size);
    out.cubin.resize(size);
    nvrtcGetCUBIN(program, out.cubin.data());
    out.ok = true;
  }
  nvrtcDestroyProgram(&program);
  return out;
}

int attribute(CUfunction function, CUfunction_attribute which) {
  int value = 0;
  check_cu(cuFuncGetAttribute(&value, which, function), "cuFuncGetAttribute");
  return value;
}

void report(const std::string& path, const std::string& hash, const char* way, CUmodule module) {
  unsigned int count = 0;
  check_cu(cuModuleGetFunctionCount(&count, module), "cuModuleGetFunctionCount");
  std::vector<CUfunction> functions(count);
  check_cu(cuModuleEnumerateFunctions(functions.data(), count, module), "cuModuleEnumerateFunctions");
  for (CUfunction function : functions) {
    // Modules load lazily by default (CUDA_MODULE_LOADING=LAZY): load each function first.
    check_cu(cuFuncLoad(function), "cuFuncLoad");
    const char* name = nullptr;
    check_cu(cuFuncGetName(&name, function), "cuFuncGetName");
    const int max_threads = attribute(function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    std::printf("%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d", path.c_str(), hash.c_str(), name, way,
                attribute(function, CU_FUNC_ATTRIBUTE_NUM_REGS), attribute(function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
                attribute(function, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), max_threads);
    for (int threads = 32; threads <= 1024; threads *= 2) {
      if (threads > max_threads) {
        std::printf("\t-");
        continue;
      }
      int blocks = 0;
      check_cu(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function, threads, 0), "cuOccupancy");
      std::printf("\t%d", blocks);
    }
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  check_cu(cuInit(0), "cuInit");
  CUdevice device;
  check_cu(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context;
  check_cu(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check_cu(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, device);
  int driver = 0, major = 0, minor = 0;
  cuDriverGetVersion(&driver);
  nvrtcVersion(&major, &minor);
  std::printf("# %s, driver API %d, NVRTC %d.%d\n", name, driver, major, minor);
  std::printf("# file\tsha256\tkernel\tway\tregisters\tshared\tlocal\tmax_threads\tb32\tb64\tb128\tb256\tb512\tb1024\n");
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string path = argv[i], hash = argv[i + 1];
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const Compiled compiled = compile(path, text.str());
    if (!compiled.ok) {
      std::printf("# %s does not compile: %s\n", path.c_str(), compiled.log.c_str());
      continue;
    }
    CUmodule cubin = nullptr, jit = nullptr;
    check_cu(cuModuleLoadData(&cubin, compiled.cubin.data()), "loading the cubin");
    check_cu(cuModuleLoadData(&jit, compiled.ptx.c_str()), "loading the PTX through the JIT");
    report(path, hash, "cubin", cubin);
    report(path, hash, "jit", jit);
    cuModuleUnload(cubin);
    cuModuleUnload(jit);
  }
  return 0;
}
