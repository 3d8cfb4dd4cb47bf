// The interactive terminal: keys read one at a time without echo (raw mode), the screen's size,
// and the escape sequences of a full-screen view. Only the watch screen and the pager use it;
// everything else prints plain lines.
#pragma once

#include <signal.h>

#include <string>

namespace tilecamp::runner {

// Both ends are a terminal: a pager or a screen that waits for keys makes sense.
bool interactive_terminal();

// Raw mode on standard input while it lives (no echo, no line buffering, Ctrl-C arrives as a key).
// The terminal is restored when it ends, and also when SIGTERM, SIGHUP, SIGINT or SIGQUIT from
// outside ends the program (which then dies of the signal, as the shell expects). SIGTSTP from
// outside restores it, stops, and on SIGCONT takes it back (raw, and the alternate screen when
// write_now entered it) and asks for a redraw (redraw_requested). On an input that is not a
// terminal it does nothing. RawModes nest: only the outermost restores.
class RawMode {
 public:
  RawMode();
  ~RawMode();
  RawMode(const RawMode&) = delete;
  RawMode& operator=(const RawMode&) = delete;

 private:
  bool m_active = false;
};

// While it lives, a resize of the terminal (SIGWINCH) cuts a wait for a key short and asks for a
// redraw (redraw_requested).
class ResizeWatch {
 public:
  ResizeWatch();
  ~ResizeWatch();
  ResizeWatch(const ResizeWatch&) = delete;
  ResizeWatch& operator=(const ResizeWatch&) = delete;

 private:
  struct sigaction m_previous {};
  bool m_installed = false;
};

// True once after the terminal was resized (under a ResizeWatch) or the program was continued
// after a stop: the screen must be drawn again.
bool redraw_requested();

enum class KeyCode { None, Char, Enter, Escape, Up, Down, Left, Right, PageUp, PageDown, Home, End, Interrupt, EndOfInput };

struct Key {
  KeyCode code = KeyCode::None;
  char ch = 0;  // KeyCode::Char

  bool is(char c) const { return code == KeyCode::Char && ch == c; }
};

// The next key from `fd`, waiting at most `timeout_ms` (-1: for ever); KeyCode::None when none
// came. Arrow, page and home/end keys are decoded from their escape sequences.
Key read_key(int fd, int timeout_ms);

struct ScreenSize {
  int rows = 24;
  int cols = 80;
};
ScreenSize screen_size();

// Text width for prose: the terminal's width up to 100 columns (80 when not a terminal).
size_t text_width();

namespace screen {
inline constexpr const char* k_clear = "\x1b[H\x1b[2J";
inline constexpr const char* k_enter_alternate = "\x1b[?1049h\x1b[?25l";  // and hide the cursor
inline constexpr const char* k_leave_alternate = "\x1b[?25h\x1b[?1049l";
inline constexpr const char* k_home = "\x1b[H";
inline constexpr const char* k_clear_line_end = "\x1b[K";
inline constexpr const char* k_clear_below = "\x1b[J";
}  // namespace screen

// Writes `text` to standard output now (the screens are drawn between waits for keys).
void write_now(const std::string& text);

// `text` wrapped at the terminal's width (text_width) when `fd` is a terminal; as it is otherwise,
// so that piped messages stay one line each.
std::string wrap_for_terminal(int fd, const std::string& text);

}  // namespace tilecamp::runner
