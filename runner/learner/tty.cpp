#include "runner/learner/tty.h"

#include "runner/learner/ansi_text.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace tilecamp::runner {
namespace {

termios g_saved_termios{};
termios g_raw_termios{};
volatile std::sig_atomic_t g_raw_active = 0;
volatile std::sig_atomic_t g_alternate_screen = 0;  // the screen a RawMode's user entered
volatile std::sig_atomic_t g_redraw = 0;            // resized, or continued after a stop
int g_raw_depth = 0;  // a pager opened from the watch screen nests a RawMode in another

void write_raw(const char* text, size_t length) {
  [[maybe_unused]] const ssize_t written = ::write(STDOUT_FILENO, text, length);
}

// The terminal as it was before raw mode: its modes, the main screen, the cursor shown.
void restore_terminal() {
  ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved_termios);
  if (g_alternate_screen) {
    const char reset[] = "\x1b[0m\x1b[?25h\x1b[?1049l";
    write_raw(reset, sizeof reset - 1);
  } else {
    const char reset[] = "\x1b[0m\x1b[?25h";
    write_raw(reset, sizeof reset - 1);
  }
}

void install(int signal_number, void (*handler)(int)) {
  struct sigaction action{};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a wait for a key returns, so that the screen is redrawn
  ::sigaction(signal_number, &action, nullptr);
}

// SIGTERM, SIGHUP, SIGINT, SIGQUIT (from outside: raw mode turns the keys off) and the signals of
// a crash: put the terminal back as it was, then die of the signal as usual (the shell sees 128 +
// the signal).
void restore_and_reraise(int signal_number) {
  if (g_raw_active) restore_terminal();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// SIGTSTP from outside: give the terminal back, stop; once continued, take it again and ask for
// a redraw.
void stop_and_resume(int signal_number) {
  const int saved_errno = errno;
  if (g_raw_active) restore_terminal();
  std::signal(signal_number, SIG_DFL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  ::sigprocmask(SIG_UNBLOCK, &unblock, nullptr);
  std::raise(signal_number);  // stops here until SIGCONT
  install(signal_number, stop_and_resume);
  if (g_raw_active) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_raw_termios);
    if (g_alternate_screen) {
      const char enter[] = "\x1b[?1049h\x1b[?25l";
      write_raw(enter, sizeof enter - 1);
    }
  }
  g_redraw = 1;
  errno = saved_errno;
}

void note_resize(int) { g_redraw = 1; }

// From outside, and tilecamp's own crash (a bug): either way the terminal is given back first.
constexpr int k_restoring_signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};

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
  g_raw_termios = raw;
  m_active = true;
  g_raw_depth = 1;
  g_raw_active = 1;
  for (int signal_number : k_restoring_signals) install(signal_number, restore_and_reraise);
  install(SIGTSTP, stop_and_resume);
}

RawMode::~RawMode() {
  if (!m_active || --g_raw_depth > 0) return;
  ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved_termios);
  g_raw_active = 0;
  for (int signal_number : k_restoring_signals) std::signal(signal_number, SIG_DFL);
  std::signal(SIGTSTP, SIG_DFL);
}

ResizeWatch::ResizeWatch() {
  struct sigaction action{};
  action.sa_handler = note_resize;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  m_installed = ::sigaction(SIGWINCH, &action, &m_previous) == 0;
}

ResizeWatch::~ResizeWatch() {
  if (m_installed) ::sigaction(SIGWINCH, &m_previous, nullptr);
}

bool redraw_requested() {
  if (!g_redraw) return false;
  g_redraw = 0;
  return true;
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
  if (text.find(screen::k_enter_alternate) != std::string::npos) g_alternate_screen = 1;
  if (text.find(screen::k_leave_alternate) != std::string::npos) g_alternate_screen = 0;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

std::string wrap_for_terminal(int fd, const std::string& text) {
  if (!::isatty(fd)) return text;
  winsize size{};
  const size_t width = ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? std::clamp<size_t>(size.ws_col, 20, 100) : 80;
  std::string wrapped;
  for (const std::string& line : split_lines(text)) {
    for (const std::string& part : wrap_line(line, width)) wrapped += part + "\n";
  }
  if (!text.empty() && text.back() != '\n' && !wrapped.empty()) wrapped.pop_back();
  return wrapped;
}

}  // namespace tilecamp::runner
