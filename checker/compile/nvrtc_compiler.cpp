#include "checker/compile/nvrtc_compiler.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "checker/compile/builtin_headers.h"
#include "checker/compile/cubin_resources.h"
#include "checker/compile/include_policy.h"
#include "checker/compile/nvrtc_log.h"
#include "checker/compile/source_text.h"

namespace tilecamp {
namespace {

// Names the failed call and the file being compiled, e.g.
// "nvrtcCreateProgram for kernel.cu: NVRTC_ERROR_OUT_OF_MEMORY".
std::string describe_failure(std::string_view call, const SourceFile& source, nvrtcResult result) {
  return std::string(call) + " for " + source.path + ": " + nvrtcGetErrorString(result);
}

Status check(nvrtcResult result, std::string_view call, const SourceFile& source) {
  if (result == NVRTC_SUCCESS) return ok();
  return make_error(describe_failure(call, source, result));
}

struct ProgramDeleter {
  // nvrtcDestroyProgram fails only for a null handle, which unique_ptr never passes.
  void operator()(nvrtcProgram program) const { nvrtcDestroyProgram(&program); }
};
using Program = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

// The appended code follows the learner's text under its own #line, so the learner's line numbers
// are unchanged and errors in generated code name the generated file, not the learner's.
std::string program_text(const SourceFile& source, const CompileOptions& options) {
  if (options.appended_source.empty()) return source.text;
  return source.text + "\n#line 1 \"" + std::string(k_appended_source_name) + "\"\n" +
         options.appended_source;
}

// The program's own name, in a folder nothing can be opened from (/dev/null is a file): NVRTC
// looks for a quoted #include beside the file that includes it, and beside the kernel there must
// be nothing, while the toolkit's headers find their siblings (cooperative_groups/details/info.h)
// as they do under nvcc. A #line gives the kernel back its own name for errors and line tables.
constexpr const char* k_program_name = "/dev/null/kernel.cu";

std::string line_directive_name(const std::string& path) {
  std::string quoted;
  for (const char c : path) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += (c == '\n' || c == '\r') ? '?' : c;
  }
  return quoted;
}

Expected<Program> create_program(const SourceFile& source, const CompileOptions& options) {
  std::vector<const char*> header_names;
  std::vector<const char*> header_texts;
  for (const BuiltinHeader& header : builtin_headers()) {
    header_names.push_back(header.name);
    header_texts.push_back(header.text);
  }
  const std::string text = "#line 1 \"" + line_directive_name(source.path) + "\"\n" + program_text(source, options);
  nvrtcProgram handle = nullptr;
  TC_TRY(check(nvrtcCreateProgram(&handle, text.c_str(), k_program_name,
                                  static_cast<int>(header_names.size()), header_texts.data(),
                                  header_names.data()),
               "nvrtcCreateProgram", source));
  Program program(handle);
  for (const std::string& expression : options.name_expressions) {
    TC_TRY(check(nvrtcAddNameExpression(program.get(), expression.c_str()),
                 "nvrtcAddNameExpression(\"" + expression + "\")", source));
  }
  return program;
}

// compute_NN asks for PTX only; sm_NN gives the same PTX and runs ptxas on it as well, whose
// cubin says how many registers and how much shared memory each kernel takes.
std::string assembled_architecture(const std::string& arch) {
  constexpr std::string_view k_virtual = "compute_";
  return arch.starts_with(k_virtual) ? "sm_" + arch.substr(k_virtual.size()) : arch;
}

std::vector<std::string> compile_arguments(const CompileOptions& options, bool assemble) {
  std::vector<std::string> arguments{
      "-lineinfo",
      "--std=c++17",
      "-arch=" + (assemble ? assembled_architecture(options.arch) : options.arch),
      "--pre-include=" + std::string(k_pre_included_header),
  };
  for (const std::string& define : options.defines) arguments.push_back("-D" + define);
  // The toolkit's own device headers (cuda_fp16.h, cuda_pipeline.h, cooperative_groups.h...)
  // come after the in-memory ones, which NVRTC always prefers.
  for (const std::string& include : toolkit_include_directories()) arguments.push_back("-I" + include);
  return arguments;
}

nvrtcResult run_compiler(nvrtcProgram program, const CompileOptions& options, bool assemble) {
  const std::vector<std::string> arguments = compile_arguments(options, assemble);
  std::vector<const char*> pointers;
  for (const std::string& argument : arguments) pointers.push_back(argument.c_str());
  return nvrtcCompileProgram(program, static_cast<int>(pointers.size()), pointers.data());
}

// The log and the PTX are both read as "ask the size, then fill a buffer of that size".
struct TextGetter {
  nvrtcResult (*get_size)(nvrtcProgram, std::size_t*);
  const char* get_size_name;
  nvrtcResult (*get_text)(nvrtcProgram, char*);
  const char* get_text_name;
};
constexpr TextGetter k_log_getter{nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize",
                                  nvrtcGetProgramLog, "nvrtcGetProgramLog"};
constexpr TextGetter k_ptx_getter{nvrtcGetPTXSize, "nvrtcGetPTXSize", nvrtcGetPTX, "nvrtcGetPTX"};
constexpr TextGetter k_cubin_getter{nvrtcGetCUBINSize, "nvrtcGetCUBINSize", nvrtcGetCUBIN, "nvrtcGetCUBIN"};

Expected<std::string> fetch_text(nvrtcProgram program, const TextGetter& getter,
                                 const SourceFile& source) {
  std::size_t size = 0;
  TC_TRY(check(getter.get_size(program, &size), getter.get_size_name, source));
  std::string text(size, '\0');
  TC_TRY(check(getter.get_text(program, text.data()), getter.get_text_name, source));
  // The size counts the terminating NUL.
  if (&getter != &k_cubin_getter) {
    while (!text.empty() && text.back() == '\0') text.pop_back();
  }
  return text;
}

// The kernels' registers and shared memory from the cubin, when there is one. A cubin tilecamp
// cannot read costs the learner nothing but these figures: the PTX is what runs.
Expected<std::vector<KernelResources>> fetch_resources(nvrtcProgram program, const SourceFile& source) {
  TC_TRY_ASSIGN(const std::string cubin, fetch_text(program, k_cubin_getter, source));
  if (cubin.empty()) return std::vector<KernelResources>{};
  Expected<std::vector<KernelResources>> resources = read_cubin_resources(cubin);
  return resources ? std::move(*resources) : std::vector<KernelResources>{};
}

Expected<std::map<std::string, std::string>> fetch_lowered_names(nvrtcProgram program,
                                                                 const CompileOptions& options,
                                                                 const SourceFile& source) {
  std::map<std::string, std::string> lowered_names;
  for (const std::string& expression : options.name_expressions) {
    const char* lowered = nullptr;
    TC_TRY(check(nvrtcGetLoweredName(program, expression.c_str(), &lowered),
                 "nvrtcGetLoweredName(\"" + expression + "\")", source));
    lowered_names[expression] = lowered;  // owned by the program: copy before it is destroyed
  }
  return lowered_names;
}

std::string_view trim_trailing_space(std::string_view text) {
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

// The program ends with the appended code, if any.
std::string_view last_file(const SourceFile& source, const CompileOptions& options) {
  return options.appended_source.empty() ? std::string_view(source.path) : k_appended_source_name;
}

}  // namespace

std::vector<std::string> toolkit_include_directories() {
  std::string include;
  if (const char* override_path = std::getenv("TILECAMP_CUDA_INCLUDE"); override_path != nullptr) {
    include = override_path;
  } else {
#ifdef TILECAMP_CUDA_INCLUDE_DIR
    std::error_code ignored;
    if (std::filesystem::is_directory(TILECAMP_CUDA_INCLUDE_DIR, ignored)) include = TILECAMP_CUDA_INCLUDE_DIR;
#endif
  }
  if (include.empty()) return {};
  std::vector<std::string> directories{include};
  std::error_code ignored;  // CUDA 13 keeps libcu++ (cuda/std/...) under include/cccl
  if (std::filesystem::is_directory(include + "/cccl", ignored)) directories.push_back(include + "/cccl");
  return directories;
}

std::string nvrtc_library_directory() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) == 0 || info.dli_fname == nullptr) return "";
  std::error_code error;
  const std::filesystem::path library = std::filesystem::canonical(info.dli_fname, error);
  return error ? "" : library.parent_path().string();
}

Expected<CompileResult> NvrtcCompiler::compile(const SourceFile& source,
                                               const CompileOptions& options) {
  std::vector<CompileDiagnostic> refused = non_text_bytes(source);
  if (options.check_includes && refused.empty()) refused = forbidden_includes(source);
  if (!refused.empty()) {
    CompileResult result;  // NVRTC never opens the file: its text could come back in an error
    for (const CompileDiagnostic& diagnostic : refused) {
      result.log += diagnostic.file + "(" + std::to_string(diagnostic.line) + "): error: " + diagnostic.message + "\n";
    }
    result.diagnostics = std::move(refused);
    return result;
  }
  TC_TRY_ASSIGN(Program program, create_program(source, options));
  nvrtcResult compiled = run_compiler(program.get(), options, true);
  CompileResult result;
  TC_TRY_ASSIGN(result.log, fetch_text(program.get(), k_log_getter, source));
  if (compiled == NVRTC_ERROR_COMPILATION && result.log.find("ptxas") != std::string::npos) {
    // The front end made PTX that ptxas refuses (inline asm, say): compile to PTX alone, as a
    // GPU's driver would receive it, so that the emulator says what is wrong with it and where.
    // Such a kernel has no resource figures.
    TC_TRY_ASSIGN(program, create_program(source, options));
    compiled = run_compiler(program.get(), options, false);
    TC_TRY_ASSIGN(result.log, fetch_text(program.get(), k_log_getter, source));
  }
  if (compiled != NVRTC_SUCCESS && compiled != NVRTC_ERROR_COMPILATION) {
    // E.g. NVRTC_ERROR_INVALID_OPTION for a bad architecture: the log says which option.
    const std::string_view log = trim_trailing_space(result.log);
    return make_error(describe_failure("nvrtcCompileProgram", source, compiled) +
                      (log.empty() ? "" : ": " + std::string(log)));
  }
  result.diagnostics = parse_nvrtc_log(result.log, last_file(source, options));
  result.ok = compiled == NVRTC_SUCCESS;
  if (!result.ok) return result;
  TC_TRY_ASSIGN(result.ptx, fetch_text(program.get(), k_ptx_getter, source));
  TC_TRY_ASSIGN(result.lowered_names, fetch_lowered_names(program.get(), options, source));
  TC_TRY_ASSIGN(result.resources, fetch_resources(program.get(), source));
  return result;
}

}  // namespace tilecamp
