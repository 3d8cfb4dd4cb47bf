// A launch and what came of it, as frames (wire.h): the GPU worker reads requests this way and the
// sandbox reads requests and answers results this way. A result read from a sandboxed child is
// untrusted: every enumeration is range-checked and every size bounded by the frame it came in.
#pragma once

#include "checker/backend/backend.h"
#include "checker/child/wire.h"
#include "checker/compile/compiler.h"

namespace tilecamp::child {

// `time_limit_ms` replaces the request's own (the sandbox gives a launch what is left of the check).
void write_launch_request(MessageWriter& out, const LaunchRequest& request, uint32_t time_limit_ms);
Expected<LaunchRequest> read_launch_request(MessageReader& in);

void write_launch_result(MessageWriter& out, const LaunchResult& result);
Expected<LaunchResult> read_launch_result(MessageReader& in);

void write_compile_request(MessageWriter& out, const SourceFile& source, const CompileOptions& options);
Expected<std::pair<SourceFile, CompileOptions>> read_compile_request(MessageReader& in);

// Every field but a diagnostic's `kind`, which the parent alone sets (a limit's finding, sandbox.h):
// the PTX cache (compile_cache.h) keeps results this way too, never one with a kind.
void write_compile_result(MessageWriter& out, const CompileResult& result);
Expected<CompileResult> read_compile_result(MessageReader& in);

// A module's outline: its functions' names, whether each is a kernel, and their parameters (what
// finding a kernel and binding its arguments need), without any instruction.
void write_module_outline(MessageWriter& out, const ptx::Module& module);
Expected<ptx::Module> read_module_outline(MessageReader& in);

}  // namespace tilecamp::child
