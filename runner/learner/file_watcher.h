// Notices when the learner saves a file. inotify watches the file's folder, not the file, since
// many editors save by writing a new file and renaming it over the old one (vim, VS Code): the
// old file's watch would go quiet. Where inotify is unavailable the file's modification time and
// size are compared every second instead. An editor's burst of writes counts as one save: a save
// is reported once the file has been quiet for the debounce time.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace tilecamp::runner {

using WatchClock = std::chrono::steady_clock;

// The timing half of the watcher, on its own so that it can be tested without a file system.
class Debounce {
 public:
  explicit Debounce(std::chrono::milliseconds quiet) : m_quiet(quiet) {}
  void changed(WatchClock::time_point now) { m_due = now + m_quiet; }
  // True once, when the last change is `quiet` old.
  bool due(WatchClock::time_point now);
  // How long until due() turns true; nullopt when nothing is pending.
  std::optional<std::chrono::milliseconds> wait(WatchClock::time_point now) const;

 private:
  std::chrono::milliseconds m_quiet;
  std::optional<WatchClock::time_point> m_due;
};

class FileWatcher {
 public:
  // `use_inotify` false: compare the file's time only (what `--manual` does not even do).
  FileWatcher(std::filesystem::path file, std::chrono::milliseconds debounce, bool use_inotify = true);
  ~FileWatcher();
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  // The descriptor to poll for readability; -1 when the file's time is compared instead.
  int fd() const { return m_fd; }
  // Reads what inotify has (call it when fd() is readable).
  void drain(WatchClock::time_point now);
  // True once per save, after the debounce. Call it on every wake-up.
  bool saved(WatchClock::time_point now);
  // The longest the caller may sleep before calling saved() again (-1: until fd() is readable).
  int timeout_ms(WatchClock::time_point now) const;
  // How saves are noticed, for the screen: "every save is checked", or why only the time is
  // compared.
  const std::string& how() const { return m_how; }

 private:
  struct Stamp {
    std::filesystem::file_time_type time;
    std::uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  std::optional<Stamp> stamp() const;

  std::filesystem::path m_file;
  Debounce m_debounce;
  int m_fd = -1;
  std::string m_how;
  std::optional<Stamp> m_last_stamp;
  WatchClock::time_point m_next_stat;
};

}  // namespace tilecamp::runner
