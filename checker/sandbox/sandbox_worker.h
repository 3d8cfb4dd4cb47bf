// The sandbox: a child process (`tilecamp __sandbox ... IN OUT`) that confines itself
// (confine.h) before it reads any request, then compiles learner files with NVRTC and runs their
// PTX on the emulator for its parent (sandbox.h), over two pipes. It is started with an empty
// environment, "/" as its working folder and no descriptor but the pipes and /dev/null; the
// learner's text, the case data and the PTX only ever reach it through the pipe.
//
// Requests (wire.h frames): COMPILE source options; LOAD slot ptx; LAUNCH slot request observe.
// Replies start with a status: 0 ok, 1 error (a usage error, e.g. an unknown kernel; the sandbox
// goes on). A sandbox that cannot confine itself answers every request with status 2 and why.
// It exits with k_exit_out_of_memory when an allocation fails under its memory limit.
#pragma once

#include <cstdint>

namespace tilecamp::sandbox {

enum class Request : uint32_t { Compile = 1, Load = 2, Launch = 3 };
enum class Reply : uint32_t { Ok = 0, Error = 1, Unconfined = 2 };

inline constexpr const char* k_sandbox_argument = "__sandbox";
inline constexpr int k_exit_out_of_memory = 86;

// What a launch's observer should collect in the sandbox and send back.
enum class Observe : uint32_t { Nothing = 0, WorstAccesses = 1, TileFootprint = 2 };

// `tilecamp __sandbox [--memory BYTES] [--seconds S] [--read DIR]... [--unconfined] IN OUT`:
// returns the process's exit code.
int run_sandbox_worker(int argc, char** argv);

}  // namespace tilecamp::sandbox
