// The GPU worker: a child process that owns the CUDA context and runs kernels for the GPU backend
// (gpu_backend.h), reading requests from one pipe and answering on another. A kernel that hangs or
// corrupts the context takes down only this process; the backend kills it and starts another.
//
// Requests (wire.h frames): INFO; LOAD slot ptx; LAUNCH slot kernel grid block shared buffers
// arguments variables timing. Replies start with a status: 0 ok, 1 error (the worker goes on),
// 2 fatal (the context is lost; the worker exits after replying).
#pragma once

#include <cstdint>

namespace tilecamp::gpu {

enum class Request : uint32_t { Info = 1, Load = 2, Launch = 3 };
enum class Reply : uint32_t { Ok = 0, Error = 1, Fatal = 2 };

// Serves requests until the input pipe closes; returns the process's exit code.
int run_worker(int in_fd, int out_fd);

}  // namespace tilecamp::gpu
