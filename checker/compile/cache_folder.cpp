#include "checker/compile/cache_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <vector>

namespace tilecamp {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_entry_suffix = ".ptxc";
constexpr std::string_view k_temporary_prefix = ".ptxc-tmp-";
// A temporary file this old belongs to a write that died (a killed check); a live one takes milliseconds.
constexpr std::chrono::seconds k_stale_temporary_age{3600};

std::string system_error(const std::string& doing, const fs::path& path) {
  return "cannot " + doing + " " + path.string() + ": " + std::strerror(errno);
}

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_entry_name(const std::string& name) {
  return name.size() == 64 + k_entry_suffix.size() && name.ends_with(k_entry_suffix) &&
         std::all_of(name.begin(), name.begin() + 64, is_hex_digit);
}

// Makes each missing folder of `path` with mode 0700 (create_directories would use 0777 less the umask).
Status make_private_folders(const fs::path& path) {
  fs::path partial;
  for (const fs::path& part : path) {
    partial /= part;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) return make_error(system_error("create", partial));
  }
  return ok();
}

// A unique name for one write: two threads or processes never share it.
std::string temporary_name() {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  return std::string(k_temporary_prefix) + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
         std::to_string(random());
}

Status write_all(int fd, const std::string& contents, const fs::path& path) {
  for (size_t at = 0; at < contents.size();) {
    const ssize_t written = ::write(fd, contents.data() + at, contents.size() - at);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return make_error(system_error("write", path));
    at += static_cast<size_t>(written);
  }
  return ok();
}

bool owned_regular_file(const struct stat& info) { return S_ISREG(info.st_mode) && info.st_uid == ::geteuid(); }

std::chrono::nanoseconds modified_at(const struct stat& info) {
  return std::chrono::seconds(info.st_mtim.tv_sec) + std::chrono::nanoseconds(info.st_mtim.tv_nsec);
}

}  // namespace

Expected<CacheFolder> CacheFolder::open(fs::path path, uint64_t max_bytes) {
  std::error_code error;
  path = fs::absolute(path, error);
  if (error) return make_error("cannot find the folder " + path.string() + ": " + error.message());
  TC_TRY(make_private_folders(path));
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return make_error(system_error("read", path));
  if (!S_ISDIR(info.st_mode)) return make_error(path.string() + " is not a folder");
  if (info.st_uid != ::geteuid()) return make_error(path.string() + " belongs to another user");
  if (::access(path.c_str(), W_OK | X_OK) != 0) return make_error(system_error("write into", path));
  return CacheFolder(std::move(path), max_bytes);
}

fs::path CacheFolder::entry_path(const Sha256Digest& key) const {
  return m_path / (to_hex(key) + std::string(k_entry_suffix));
}

std::optional<std::string> CacheFolder::read(const Sha256Digest& key) const {
  const fs::path path = entry_path(key);
  // O_NOFOLLOW: a link under an entry's name is refused (ELOOP), wherever it points; O_NONBLOCK:
  // a FIFO planted there cannot make the open wait.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  std::optional<std::string> contents;
  if (::fstat(fd, &info) == 0 && owned_regular_file(info) && static_cast<uint64_t>(info.st_size) <= m_max_bytes) {
    std::string bytes(static_cast<size_t>(info.st_size), '\0');
    size_t got = 0;
    while (got < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    bytes.resize(got);  // a short read is caught by the entry's checksum
    contents = std::move(bytes);
    ::futimens(fd, nullptr);  // just used: the last to be evicted
  }
  ::close(fd);
  return contents;
}

Status CacheFolder::write(const Sha256Digest& key, const std::string& contents) const {
  if (contents.size() > m_max_bytes) return make_error("the entry is larger than the cache");
  const fs::path temporary = m_path / temporary_name();
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return make_error(system_error("create", temporary));
  Status written = write_all(fd, contents, temporary);
  if (::close(fd) != 0 && written) written = make_error(system_error("write", temporary));
  // No fsync: an entry cut short by a crash fails its checksum and is compiled again.
  if (written && ::rename(temporary.c_str(), entry_path(key).c_str()) != 0) {
    written = make_error(system_error("rename", temporary));
  }
  if (!written) {
    ::unlink(temporary.c_str());
    return written;
  }
  evict();
  return ok();
}

void CacheFolder::evict() const {
  struct Entry {
    std::chrono::nanoseconds used;
    uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::error_code error;
  for (const fs::directory_entry& item : fs::directory_iterator(m_path, error)) {
    const std::string name = item.path().filename().string();
    struct stat info {};
    if (::lstat(item.path().c_str(), &info) != 0 || !owned_regular_file(info)) continue;
    if (name.starts_with(k_temporary_prefix)) {
      if (now - modified_at(info) > k_stale_temporary_age) ::unlink(item.path().c_str());
    } else if (is_entry_name(name)) {
      entries.push_back({modified_at(info), static_cast<uint64_t>(info.st_size), item.path()});
      total += static_cast<uint64_t>(info.st_size);
    }
  }
  if (total <= m_max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& entry : entries) {
    if (total <= m_max_bytes) break;
    ::unlink(entry.path.c_str());  // another process may have removed it first: the same outcome
    total -= entry.bytes;
  }
}

}  // namespace tilecamp
