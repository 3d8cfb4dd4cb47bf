#include "runner/tty.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace tilecamp::runner {
namespace {

termios g_saved_termios{};
volatile std::sig_atomic_t g_raw_active = 0;
int g_raw_depth = 0;  // a pager opened from the watch screen nests a RawMode in another

// SIGTERM, SIGHUP: put the terminal back as it was, then die of the signal as usual.
void restore_and_reraise(int signal_number) {
  if (g_raw_active) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved_termios);
    const char reset[] = "\x1b[0m\x1b[?25h\x1b[?1049l";
    [[maybe_unused]] const ssize_t written = ::write(STDOUT_FILENO, reset, sizeof reset - 1);
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

bool byte_ready(int fd, int timeout_ms) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, timeout_ms) > 0;
}

// After ESC: "[A", "[5~", "OH"... or nothing (the Escape key itself).
Key escape_sequence(int fd) {
  char sequence[8] = {};
  size_t length = 0;
  while (length < sizeof sequence && byte_ready(fd, 25)) {
    if (::read(fd, &sequence[length], 1) != 1) break;
    const char c = sequence[length++];
    if (length > 1 && (c == '~' || (c >= 'A' && c <= 'Z'))) break;
  }
  const std::string text(sequence, length);
  if (text == "[A" || text == "OA") return {KeyCode::Up};
  if (text == "[B" || text == "OB") return {KeyCode::Down};
  if (text == "[C" || text == "OC") return {KeyCode::Right};
  if (text == "[D" || text == "OD") return {KeyCode::Left};
  if (text == "[5~") return {KeyCode::PageUp};
  if (text == "[6~") return {KeyCode::PageDown};
  if (text == "[H" || text == "OH" || text == "[1~") return {KeyCode::Home};
  if (text == "[F" || text == "OF" || text == "[4~") return {KeyCode::End};
  return {length == 0 ? KeyCode::Escape : KeyCode::None};
}

}  // namespace

bool interactive_terminal() { return ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO); }

RawMode::RawMode() {
  if (g_raw_depth > 0) {
    m_active = true;
    ++g_raw_depth;
    return;
  }
  if (!::isatty(STDIN_FILENO) || ::tcgetattr(STDIN_FILENO, &g_saved_termios) != 0) return;
  termios raw = g_saved_termios;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO | ISIG | IEXTEN);
  raw.c_iflag &= ~static_cast<tcflag_t>(IXON | ICRNL);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (::tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) return;
  m_active = true;
  g_raw_depth = 1;
  g_raw_active = 1;
  std::signal(SIGTERM, restore_and_reraise);
  std::signal(SIGHUP, restore_and_reraise);
}

RawMode::~RawMode() {
  if (!m_active || --g_raw_depth > 0) return;
  ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved_termios);
  g_raw_active = 0;
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGHUP, SIG_DFL);
}

Key read_key(int fd, int timeout_ms) {
  if (!byte_ready(fd, timeout_ms)) return {};
  char c = 0;
  if (::read(fd, &c, 1) != 1) return {KeyCode::EndOfInput};
  switch (c) {
    case '\r':
    case '\n': return {KeyCode::Enter};
    case 3: return {KeyCode::Interrupt};  // Ctrl-C
    case 4: return {KeyCode::EndOfInput};  // Ctrl-D
    case 27: return escape_sequence(fd);
    default: return {KeyCode::Char, c};
  }
}

ScreenSize screen_size() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
    return {size.ws_row, size.ws_col};
  }
  return {};
}

size_t text_width() {
  if (!::isatty(STDOUT_FILENO)) return 80;
  return static_cast<size_t>(std::clamp(screen_size().cols, 20, 100));
}

void write_now(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace tilecamp::runner
