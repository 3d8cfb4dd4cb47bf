#include "checker/sandbox/sandbox_worker.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <string>

#include "checker/child/launch_wire.h"
#include "checker/compile/nvrtc_compiler.h"
#include "checker/emu/emulator_backend.h"
#include "checker/sandbox/confine.h"
#include "checker/sandbox/tile_footprint_wire.h"
#include "checker/sandbox/worst_access_wire.h"

namespace tilecamp::sandbox {
namespace {

using child::MessageReader;
using child::MessageWriter;

struct WorkerArguments {
  Limits limits;
  bool confine = true;
  int in = -1, out = -1;
};

Expected<WorkerArguments> parse_arguments(int argc, char** argv) {
  WorkerArguments arguments;
  if (argc < 4) return make_error("usage: tilecamp __sandbox [--memory BYTES] [--seconds S] [--unconfined] IN OUT");
  for (int i = 2; i < argc - 2; ++i) {
    const std::string option = argv[i];
    if (option == "--unconfined") {
      arguments.confine = false;
    } else if (option == "--memory" && i + 1 < argc - 2) {
      arguments.limits.memory_bytes = std::strtoull(argv[++i], nullptr, 10);
    } else if (option == "--seconds" && i + 1 < argc - 2) {
      arguments.limits.seconds = std::strtod(argv[++i], nullptr);
    } else {
      return make_error("__sandbox: unknown option " + option);
    }
  }
  arguments.in = std::atoi(argv[argc - 2]);
  arguments.out = std::atoi(argv[argc - 1]);
  return arguments;
}

// NVRTC loads libnvrtc-builtins.so.MAJOR.MINOR when it first compiles, and that library needs the
// C++ runtime (libstdc++, libgcc_s), which a portable tilecamp links statically: loaded then, they
// would be read from the system's library folders, outside the sandbox's rules. Loaded before the
// sandbox closes, they are there when NVRTC asks (by the same name: no file is opened again).
void preload_nvrtc_builtins() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return;
  const std::string name = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
  if (::dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) return;
  // Not found by name: beside NVRTC itself.
  if (const std::string folder = nvrtc_library_directory(); !folder.empty()) {
    ::dlopen((folder + "/" + name).c_str(), RTLD_NOW | RTLD_GLOBAL);
  }
}

// NVRTC reads the toolkit's headers and, when it first compiles, loads libnvrtc-builtins from its
// own folder (through the loader's cache for a bare name): nothing else once warmed up.
Readable what_nvrtc_reads() {
  Readable readable;
  readable.directories = toolkit_include_directories();
  if (const std::string library = nvrtc_library_directory(); !library.empty()) readable.directories.push_back(library);
  readable.files = {"/etc/ld.so.cache"};
  return readable;
}

class SandboxWorker {
 public:
  SandboxWorker(int in, int out) : m_in(in), m_out(out) {}

  int serve(const std::string& unconfined_because) {
    for (;;) {
      auto frame = child::read_frame(m_in, -1);
      if (!frame) return 0;  // the parent closed the pipe: done
      MessageReader request(std::move(*frame));
      MessageWriter reply;
      if (!unconfined_because.empty()) {
        reply.u32(static_cast<uint32_t>(Reply::Unconfined)).text(unconfined_because);
      } else {
        Status handled = handle_safely(request, reply);
        if (!handled) {
          reply = MessageWriter();
          reply.u32(static_cast<uint32_t>(Reply::Error)).text(handled.error());
        }
      }
      if (!child::write_frame(m_out, reply.data())) return 1;
    }
  }

 private:
  Status handle_safely(MessageReader& request, MessageWriter& reply) {
    try {
      return handle(request, reply);
    } catch (const std::bad_alloc&) {
      ::_exit(k_exit_out_of_memory);
    } catch (const std::exception& error) {
      return make_error(std::string("tilecamp failed on this kernel: ") + error.what());
    }
  }

  Status handle(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t kind, request.u32());
    switch (static_cast<Request>(kind)) {
      case Request::Compile: return compile(request, reply);
      case Request::Load: return load(request, reply);
      case Request::Launch: return launch(request, reply);
    }
    return make_error("unknown request " + std::to_string(kind));
  }

  Status compile(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(auto input, child::read_compile_request(request));
    auto result = m_compiler.compile(input.first, input.second);
    if (!result && result.error().find("OUT_OF_MEMORY") != std::string::npos) ::_exit(k_exit_out_of_memory);
    if (!result) {  // NVRTC itself failed on this text: the file's finding, like a compile error
      CompileResult failed;
      failed.log = result.error();
      failed.diagnostics.push_back({input.first.path, 0, 0, "error", "NVRTC failed on this file: " + result.error(), "", ""});
      result = std::move(failed);
    }
    reply.u32(static_cast<uint32_t>(Reply::Ok));
    child::write_compile_result(reply, *result);
    return ok();
  }

  Status load(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t slot, request.u32());
    TC_TRY_ASSIGN(std::string ptx, request.text());
    auto backend = std::make_unique<emu::EmulatorBackend>();
    TC_TRY(backend->load(ptx));
    reply.u32(static_cast<uint32_t>(Reply::Ok));
    child::write_module_outline(reply, backend->module());
    m_backends[slot] = std::move(backend);
    return ok();
  }

  Status launch(MessageReader& request, MessageWriter& reply) {
    TC_TRY_ASSIGN(uint32_t slot, request.u32());
    TC_TRY_ASSIGN(LaunchRequest launch, child::read_launch_request(request));
    TC_TRY_ASSIGN(uint32_t observe, request.u32());
    std::optional<viz::TileFootprint> footprint;
    if (observe == static_cast<uint32_t>(Observe::TileFootprint)) {
      TC_TRY_ASSIGN(viz::FootprintTarget target, read_footprint_target(request));
      footprint.emplace(target);
    }
    request.discard();  // one copy of a large case at a time: the memory limit is the kernel's
    auto backend = m_backends.find(slot);
    if (backend == m_backends.end()) return make_error("no PTX module is loaded");
    viz::WorstAccessFinder finder;
    if (observe == static_cast<uint32_t>(Observe::WorstAccesses)) launch.config.observer = &finder;
    if (footprint) launch.config.observer = &*footprint;
    TC_TRY_ASSIGN(LaunchOutcome outcome, backend->second->launch_owned(std::move(launch)));
    size_t bytes = 0;
    for (const std::vector<uint8_t>& buffer : outcome.buffers) bytes += buffer.size() + 8;
    reply.reserve(bytes + 4096);
    reply.u32(static_cast<uint32_t>(Reply::Ok)).u32(static_cast<uint32_t>(outcome.buffers.size()));
    for (std::vector<uint8_t>& buffer : outcome.buffers) {
      reply.bytes(buffer);
      std::vector<uint8_t>().swap(buffer);
    }
    child::write_launch_result(reply, outcome.profile);
    write_worst_accesses(reply, finder.lines());
    if (footprint) write_footprint(reply, footprint->footprint());
    return ok();
  }

  int m_in, m_out;
  NvrtcCompiler m_compiler;
  std::map<uint32_t, std::unique_ptr<emu::EmulatorBackend>> m_backends;
};

}  // namespace

int run_sandbox_worker(int argc, char** argv) {
  auto arguments = parse_arguments(argc, argv);
  if (!arguments) return 2;
  std::set_new_handler([] { ::_exit(k_exit_out_of_memory); });
  std::string unconfined_because;
  if (auto limited = apply_limits(arguments->limits); !limited) unconfined_because = limited.error();
  SandboxWorker worker(arguments->in, arguments->out);
  if (unconfined_because.empty() && arguments->confine) {
    preload_nvrtc_builtins();
    auto confined = confine_this_process(what_nvrtc_reads());
    if (!confined) unconfined_because = confined.error();
  }
  return worker.serve(unconfined_because);
}

}  // namespace tilecamp::sandbox
