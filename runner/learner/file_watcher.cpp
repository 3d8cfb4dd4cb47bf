#include "runner/learner/file_watcher.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tilecamp::runner {
namespace {

constexpr std::chrono::milliseconds k_stat_interval{1000};

int milliseconds_until(WatchClock::time_point when, WatchClock::time_point now) {
  return static_cast<int>(std::max<int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(when - now).count()));
}

}  // namespace

bool Debounce::due(WatchClock::time_point now) {
  if (!m_due || now < *m_due) return false;
  m_due.reset();
  return true;
}

std::optional<std::chrono::milliseconds> Debounce::wait(WatchClock::time_point now) const {
  if (!m_due) return std::nullopt;
  return std::chrono::milliseconds(milliseconds_until(*m_due, now));
}

FileWatcher::FileWatcher(std::filesystem::path file, std::chrono::milliseconds debounce, bool use_inotify)
    : m_file(std::move(file)), m_debounce(debounce), m_last_stamp(stamp()), m_next_stat(WatchClock::now()) {
  if (!use_inotify) {
    m_how = "checked when its time changes (looked at every second)";
    return;
  }
  m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  const std::string folder = m_file.parent_path().empty() ? "." : m_file.parent_path().string();
  if (m_fd >= 0 && ::inotify_add_watch(m_fd, folder.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM) >= 0) {
    m_how = "every save is checked";
    return;
  }
  m_how = std::string("checked when its time changes (looked at every second; inotify: ") + std::strerror(errno) + ")";
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

FileWatcher::~FileWatcher() {
  if (m_fd >= 0) ::close(m_fd);
}

void FileWatcher::drain(WatchClock::time_point now) {
  alignas(inotify_event) char buffer[4096];
  const std::string name = m_file.filename().string();
  for (;;) {
    const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
    if (length <= 0) return;
    for (ssize_t offset = 0; offset < length;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
      if (event->len > 0 && name == event->name) m_debounce.changed(now);
      offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

std::optional<FileWatcher::Stamp> FileWatcher::stamp() const {
  std::error_code error;
  const auto time = std::filesystem::last_write_time(m_file, error);
  if (error) return std::nullopt;
  const auto size = std::filesystem::file_size(m_file, error);
  return Stamp{time, error ? 0 : size};
}

bool FileWatcher::saved(WatchClock::time_point now) {
  if (m_fd < 0 && now >= m_next_stat) {
    m_next_stat = now + k_stat_interval;
    const std::optional<Stamp> current = stamp();
    if (current != m_last_stamp) {
      m_last_stamp = current;
      m_debounce.changed(now);
    }
  }
  return m_debounce.due(now);
}

int FileWatcher::timeout_ms(WatchClock::time_point now) const {
  int timeout = -1;
  if (auto wait = m_debounce.wait(now)) timeout = static_cast<int>(wait->count());
  if (m_fd < 0) {
    const int until_stat = milliseconds_until(m_next_stat, now);
    timeout = timeout < 0 ? until_stat : std::min(timeout, until_stat);
  }
  return timeout;
}

}  // namespace tilecamp::runner
