// The PTX cache (checker/compile/compile_cache.h) around the compiler of every command that
// compiles a kernel: check, check-all, watch and its background checks, grade, profile, explain,
// dev check and viz. It lives where ptx_cache_directory() says; TILECAMP_CACHE_DIR=off turns it
// off. A folder that cannot be made or written turns it off too, with one note on stderr per
// process, never a failure.
#pragma once

#include <memory>
#include <string>

#include "checker/compile/compile_cache.h"
#include "checker/sandbox/sandbox.h"

namespace tilecamp::runner {

// The sandbox's compiler, cached: the cache is read and written here, in the parent.
std::unique_ptr<CompileCache> cached_compiler(sandbox::Sandbox& sandbox);
// Any compiler, cached; `how` says how and where it compiles (e.g. "in-process, in /home/me"), for
// the key.
std::unique_ptr<CompileCache> cached_compiler(std::unique_ptr<Compiler> compiler, const std::string& how);
// "in-process, in FOLDER": this process's working folder.
std::string in_this_process();

}  // namespace tilecamp::runner
