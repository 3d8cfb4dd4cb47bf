#include "runner/ptx_cache.h"

#include <atomic>
#include <iostream>

#include "runner/sandbox_options.h"
#include "runner/terminal.h"

namespace tilecamp::runner {
namespace {

// Everything besides the request that changes what a compile makes: the toolchain, this build of
// tilecamp (the in-memory headers and NVRTC's options are compiled into it) and how it compiles.
std::string compiler_identity(const std::string& how) {
  return toolchain_stamp() + "\ntilecamp " + TILECAMP_VERSION + ", " + file_stamp(this_program()) + "\n" + how;
}

std::optional<CacheFolder> open_cache_folder() {
  const std::optional<std::filesystem::path> directory = ptx_cache_directory();
  if (!directory) return std::nullopt;
  auto folder = CacheFolder::open(*directory);
  if (folder) return std::move(*folder);
  static std::atomic_flag noted = ATOMIC_FLAG_INIT;
  if (!noted.test_and_set()) {
    std::cerr << style_for(stderr).dim("note: compiled kernels are not kept (" + folder.error() +
                                       "); TILECAMP_CACHE_DIR=DIR keeps them elsewhere, TILECAMP_CACHE_DIR=off silences this")
              << "\n";
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<CompileCache> cached_compiler(std::unique_ptr<Compiler> compiler, const std::string& how) {
  return std::make_unique<CompileCache>(std::move(compiler), open_cache_folder(), compiler_identity(how));
}

std::string in_this_process() {
  std::error_code error;
  const std::filesystem::path folder = std::filesystem::current_path(error);
  return "in-process, in " + (error ? std::string("an unknown folder") : folder.string());
}

std::unique_ptr<CompileCache> cached_compiler(sandbox::Sandbox& sandbox) {
  const sandbox::SandboxOptions& options = sandbox.options();
  const std::string how = std::string("in the sandbox, in ") + sandbox::k_sandbox_working_directory + ", " +
                          (options.confine ? "confined" : "unconfined (--no-sandbox)") + ", address space " +
                          std::to_string(options.limits.memory_bytes) + " bytes";
  return cached_compiler(sandbox.compiler(), how);
}

}  // namespace tilecamp::runner
