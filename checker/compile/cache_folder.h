// A folder of files named by their keys (a SHA-256, in hex), each written whole or not at all and
// kept under a size bound: the storage of the PTX cache (compile_cache.h). Several processes may use one folder at
// once (a class's grading runs several workers): a file is written under a temporary name and
// renamed into place, so a reader sees a whole file or none, and two evictions at once only lose
// entries, which are compiled again.
//
// Nothing read here is trusted beyond "the user's own regular file": a link (even to the user's
// file), a folder, a device or another user's file under an entry's name reads as missing. Only
// files named as entries (and the temporary files of writes) are ever removed, so a cache pointed
// at a folder that holds other files leaves them alone.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "checker/util/expected.h"
#include "checker/util/sha256.h"

namespace tilecamp {

inline constexpr uint64_t k_default_cache_bytes = uint64_t{256} << 20;

class CacheFolder {
 public:
  // Creates the folder, and its missing parents, 0700. An Error when it cannot be made, is not a
  // folder, is another user's or cannot be written: the caller then goes without a cache.
  static Expected<CacheFolder> open(std::filesystem::path path, uint64_t max_bytes = k_default_cache_bytes);

  // The file's contents, or nothing when it is missing or not to be trusted (see above) or larger
  // than the bound. A file read is marked as just used (its mtime), so eviction keeps it longer.
  std::optional<std::string> read(const Sha256Digest& key) const;
  // Writes the file atomically, then evicts the least recently used files while the folder holds
  // more than the bound. An Error (the disk is full, the folder was removed) loses nothing but the entry.
  Status write(const Sha256Digest& key, const std::string& contents) const;

  std::filesystem::path entry_path(const Sha256Digest& key) const;
  const std::filesystem::path& path() const { return m_path; }
  uint64_t max_bytes() const { return m_max_bytes; }

 private:
  CacheFolder(std::filesystem::path path, uint64_t max_bytes) : m_path(std::move(path)), m_max_bytes(max_bytes) {}
  void evict() const;

  std::filesystem::path m_path;
  uint64_t m_max_bytes;
};

}  // namespace tilecamp
