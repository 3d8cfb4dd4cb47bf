// A Compiler that keeps what another one made: the whole CompileResult (PTX, log, diagnostics,
// lowered names) of an unchanged file is read back from a folder instead of compiled again. NVRTC
// takes seconds for a file that includes cooperative groups; reading an entry, a millisecond.
//
// An entry is named by a SHA-256 over everything that can change the result, each field with its
// length: the source's path and text, every CompileOptions field, and the compiler's identity,
// which the caller gives: toolchain_stamp() (NVRTC's version, the toolkit's include folders and a
// stamp of their headers), tilecamp's build, and how it compiles (in the sandbox, its limits, and
// the compiling process's working folder: NVRTC writes a relative path into the PTX behind it).
// The entry's file holds the key again, the result and a checksum, in a versioned format: an entry
// damaged, cut short, of another format or another key, a link, or not the user's own is ignored
// (compiled again and rewritten), never trusted.
//
// The cache is read and written by the process that holds this object: in tilecamp the trusted
// parent, around the sandboxed compiler, so the compile itself never touches it; and the key is
// computed here from the request, so a kernel cannot choose another file's entry. A result cut off
// by a limit (a diagnostic with a `kind`, such as "time-limit") is never kept: it says nothing of
// the file, only of that run; nor is that of a file that reads the clock (__TIME__, __DATE__).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "checker/compile/cache_folder.h"
#include "checker/compile/compiler.h"
#include "checker/util/sha256.h"

namespace tilecamp {

// Where the PTX cache lives: $TILECAMP_CACHE_DIR, else $XDG_CACHE_HOME/tilecamp/ptx, else
// $HOME/.cache/tilecamp/ptx. Nothing when TILECAMP_CACHE_DIR is "off" (or no home is known).
std::optional<std::filesystem::path> ptx_cache_directory();

// What of the toolchain changes a compile's result besides the request: NVRTC's version, the
// toolkit's include folders and the size and time of their version headers (cuda.h,
// cuda_runtime_api.h, cooperative_groups.h, libcu++'s version header).
std::string toolchain_stamp();
// A file's identity for a key: its path, size and modification time ("missing" when absent).
std::string file_stamp(const std::filesystem::path& path);

class CompileCache : public Compiler {
 public:
  // How the compiles went: answered from the cache, or run by the wrapped compiler.
  struct Use {
    int hits = 0;
    int misses = 0;
  };

  // Without a folder nothing is kept: every compile goes to `inner` (and counts as a miss).
  CompileCache(std::unique_ptr<Compiler> inner, std::optional<CacheFolder> folder, std::string identity);

  Expected<CompileResult> compile(const SourceFile& source, const CompileOptions& options) override;

  bool enabled() const { return m_folder.has_value(); }
  const Use& use() const { return m_use; }
  // The file the request's entry is kept in (empty without a folder).
  std::filesystem::path entry_path(const SourceFile& source, const CompileOptions& options) const;

 private:
  Sha256Digest key(const SourceFile& source, const CompileOptions& options) const;

  std::unique_ptr<Compiler> m_inner;
  std::optional<CacheFolder> m_folder;
  std::string m_identity;
  Use m_use;
};

}  // namespace tilecamp
