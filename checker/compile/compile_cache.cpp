#include "checker/compile/compile_cache.h"

#include <nvrtc.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string_view>

#include "checker/child/launch_wire.h"
#include "checker/compile/nvrtc_compiler.h"

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

// Bumped when the key's fields or the entry's layout change, so that old entries are never read
// (a change of write_compile_result changes tilecamp's build, which every key holds, as well).
constexpr std::string_view k_key_domain = "tilecamp PTX cache key, format 1";
constexpr std::string_view k_entry_magic = "tilecamp PTX cache entry";
constexpr uint32_t k_entry_format = 2;  // 2: with each kernel's registers and shared memory

// Files of a toolkit include folder whose size and time change with the toolkit's version.
constexpr const char* k_version_headers[] = {"cuda.h", "cuda_runtime_api.h", "cooperative_groups.h",
                                             "cuda/std/__cccl/version.h", "cuda/version"};

// Feeds a SHA-256 with fields that each carry their length (or are of fixed width), so that no two
// different requests hash the same bytes: ("ab", "c") and ("a", "bc") differ.
class KeyHasher {
 public:
  KeyHasher& field(std::string_view bytes) {
    number(bytes.size());
    m_hash.update(bytes);
    return *this;
  }
  KeyHasher& number(uint64_t value) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(value >> (8 * i));
    m_hash.update(std::string_view(bytes, sizeof bytes));
    return *this;
  }
  KeyHasher& list(const std::vector<std::string>& items) {
    number(items.size());
    for (const std::string& item : items) field(item);
    return *this;
  }
  Sha256Digest finish() { return m_hash.finish(); }

 private:
  Sha256 m_hash;
};

// __DATE__, __TIME__ and __TIMESTAMP__ make each compile's PTX another (the clock is an input the
// key cannot hold): such a file is compiled every time, as ccache does.
bool reads_the_clock(const SourceFile& source, const CompileOptions& options) {
  for (const std::string_view macro : {"__DATE__", "__TIME__", "__TIMESTAMP__"}) {
    if (source.text.find(macro) != std::string::npos || options.appended_source.find(macro) != std::string::npos) return true;
  }
  return false;
}

// A limit's finding ("time-limit", "memory-limit", "crash", "sandbox"): a fact of that run.
bool cut_off_by_a_limit(const CompileResult& result) {
  for (const CompileDiagnostic& diagnostic : result.diagnostics) {
    if (!diagnostic.kind.empty()) return true;
  }
  return false;
}

std::string digest_bytes(const Sha256Digest& digest) { return std::string(digest.begin(), digest.end()); }

// magic, format, key, the result (as the sandbox sends it: every field but a diagnostic's kind,
// which a kept result never has); then the SHA-256 of all of it.
std::string encode_entry(const Sha256Digest& key, const CompileResult& result) {
  child::MessageWriter out;
  out.text(std::string(k_entry_magic)).u32(k_entry_format).text(digest_bytes(key));
  child::write_compile_result(out, result);
  return out.data() + digest_bytes(sha256(out.data()));
}

// The result an entry holds, or nothing when it is not exactly what encode_entry wrote for `key`.
std::optional<CompileResult> decode_entry(const std::string& entry, const Sha256Digest& key) {
  const size_t digest_size = std::tuple_size_v<Sha256Digest>;
  if (entry.size() < digest_size) return std::nullopt;
  const std::string body = entry.substr(0, entry.size() - digest_size);
  if (digest_bytes(sha256(body)) != entry.substr(body.size())) return std::nullopt;
  child::MessageReader in(body);
  auto magic = in.text();
  auto format = in.u32();
  auto stored_key = in.text();
  if (!magic || *magic != k_entry_magic || !format || *format != k_entry_format) return std::nullopt;
  if (!stored_key || *stored_key != digest_bytes(key)) return std::nullopt;  // another request's entry
  auto result = child::read_compile_result(in);
  if (!result || !in.at_end()) return std::nullopt;
  return std::move(*result);
}

}  // namespace

std::optional<fs::path> ptx_cache_directory() {
  auto set = [](const char* name) -> const char* {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
  };
  if (const char* chosen = set("TILECAMP_CACHE_DIR")) {
    if (std::string_view(chosen) == "off") return std::nullopt;
    return fs::path(chosen);
  }
  if (const char* xdg = set("XDG_CACHE_HOME")) return fs::path(xdg) / "tilecamp" / "ptx";
  if (const char* home = set("HOME")) return fs::path(home) / ".cache" / "tilecamp" / "ptx";
  return std::nullopt;
}

std::string file_stamp(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return path.string() + " missing";
  return path.string() + " " + std::to_string(info.st_size) + " bytes, modified " + std::to_string(info.st_mtim.tv_sec) +
         "." + std::to_string(info.st_mtim.tv_nsec) + ", inode " + std::to_string(info.st_dev) + ":" +
         std::to_string(info.st_ino);
}

std::string toolchain_stamp() {
  int major = 0, minor = 0;
  std::string stamp = nvrtcVersion(&major, &minor) == NVRTC_SUCCESS
                          ? "nvrtc " + std::to_string(major) + "." + std::to_string(minor)
                          : std::string("nvrtc unknown");
  for (const std::string& folder : toolkit_include_directories()) {
    stamp += "\ninclude " + file_stamp(folder);
    for (const char* header : k_version_headers) stamp += "\n  " + file_stamp(fs::path(folder) / header);
  }
  return stamp;
}

CompileCache::CompileCache(std::unique_ptr<Compiler> inner, std::optional<CacheFolder> folder, std::string identity)
    : m_inner(std::move(inner)), m_folder(std::move(folder)), m_identity(std::move(identity)) {}

Sha256Digest CompileCache::key(const SourceFile& source, const CompileOptions& options) const {
  // Every field by name, as in encode_entry: a new field must be part of the key to compile.
  const auto& [path, text] = source;
  const auto& [arch, name_expressions, defines, appended_source, check_includes] = options;
  KeyHasher key;
  key.field(k_key_domain).field(m_identity);
  key.field(path).field(text);
  key.field(arch).list(name_expressions).list(defines).field(appended_source).number(check_includes ? 1 : 0);
  return key.finish();
}

fs::path CompileCache::entry_path(const SourceFile& source, const CompileOptions& options) const {
  return m_folder ? m_folder->entry_path(key(source, options)) : fs::path();
}

Expected<CompileResult> CompileCache::compile(const SourceFile& source, const CompileOptions& options) {
  if (!m_folder || reads_the_clock(source, options)) {
    ++m_use.misses;
    return m_inner->compile(source, options);
  }
  const Sha256Digest request_key = key(source, options);
  if (std::optional<std::string> entry = m_folder->read(request_key)) {
    if (std::optional<CompileResult> kept = decode_entry(*entry, request_key)) {
      ++m_use.hits;
      return std::move(*kept);
    }
  }
  ++m_use.misses;
  Expected<CompileResult> compiled = m_inner->compile(source, options);
  // A write that fails (a full disk) loses only this entry: the result is returned all the same.
  if (compiled && !cut_off_by_a_limit(*compiled)) m_folder->write(request_key, encode_entry(request_key, *compiled));
  return compiled;
}

}  // namespace tilecamp
