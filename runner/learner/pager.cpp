#include "runner/learner/pager.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "runner/learner/ansi_text.h"
#include "runner/learner/tty.h"

namespace tilecamp::runner {
namespace {

bool pager_wanted() {
  const char* no_pager = std::getenv("TILECAMP_NO_PAGER");
  return interactive_terminal() && (no_pager == nullptr || no_pager[0] == '\0');
}

void draw(const std::vector<std::string>& lines, size_t top, const ScreenSize& size, const std::string& title, bool color) {
  const size_t rows = static_cast<size_t>(std::max(size.rows - 1, 1));
  const size_t cols = static_cast<size_t>(size.cols);
  std::string out = screen::k_home;
  for (size_t i = top; i < top + rows; ++i) {
    if (i < lines.size()) out += truncate_visible(lines[i], cols);
    out += std::string(screen::k_clear_line_end) + "\r\n";
  }
  const size_t last = std::min(top + rows, lines.size());
  const size_t percent = lines.empty() ? 100 : last * 100 / lines.size();
  std::string status = title + "  lines " + std::to_string(top + 1) + "-" + std::to_string(last) + " of " +
                       std::to_string(lines.size()) + " (" + std::to_string(percent) + "%)" +
                       (last >= lines.size() ? "  END" : "") + "  space/b page  j/k line  q back";
  status = truncate_visible(status, cols);
  out += (color ? sgr("7", pad_visible(status, cols)) : status) + screen::k_clear_line_end;
  write_now(out);
}

void page_interactively(const std::vector<std::string>& lines, const std::string& title, bool color) {
  RawMode raw;
  write_now(screen::k_enter_alternate);
  size_t top = 0;
  ScreenSize size = screen_size();
  draw(lines, top, size, title, color);
  for (;;) {
    const Key key = read_key(STDIN_FILENO, 250);
    const ScreenSize now = screen_size();
    const size_t rows = static_cast<size_t>(std::max(now.rows - 1, 1));
    const size_t bottom = lines.size() > rows ? lines.size() - rows : 0;
    const size_t before = top;
    if (key.is('q') || key.is('Q') || key.code == KeyCode::Escape || key.code == KeyCode::Interrupt ||
        key.code == KeyCode::EndOfInput) {
      break;
    } else if (key.is(' ') || key.is('f') || key.code == KeyCode::PageDown) {
      top = std::min(top + rows, bottom);
    } else if (key.is('b') || key.code == KeyCode::PageUp) {
      top = top > rows ? top - rows : 0;
    } else if (key.is('j') || key.code == KeyCode::Down || key.code == KeyCode::Enter) {
      top = std::min(top + 1, bottom);
    } else if (key.is('k') || key.code == KeyCode::Up) {
      top = top > 0 ? top - 1 : 0;
    } else if (key.is('g') || key.code == KeyCode::Home) {
      top = 0;
    } else if (key.is('G') || key.code == KeyCode::End) {
      top = bottom;
    }
    if (top != before || now.rows != size.rows || now.cols != size.cols) {
      size = now;
      draw(lines, top, size, title, color);
    }
  }
  write_now(screen::k_leave_alternate);
}

}  // namespace

std::optional<Picked> pick_line(const std::vector<std::string>& lines, const std::vector<size_t>& choices, size_t start,
                                const std::string& title, const std::string& action_keys, bool color) {
  if (choices.empty() || !interactive_terminal()) return std::nullopt;
  RawMode raw;
  write_now(screen::k_enter_alternate);
  size_t chosen = static_cast<size_t>(std::find(choices.begin(), choices.end(), start) - choices.begin());
  if (chosen >= choices.size()) chosen = 0;
  std::optional<Picked> picked;
  for (bool redraw = true;;) {
    if (redraw) {
      const ScreenSize size = screen_size();
      const size_t rows = static_cast<size_t>(std::max(size.rows - 1, 1));
      const size_t line = choices[chosen];
      const size_t top = line >= rows ? line - rows + 1 : 0;  // keep the selection in view
      std::string out = screen::k_home;
      for (size_t i = top; i < top + rows; ++i) {
        if (i < lines.size()) {
          const std::string text = truncate_visible((i == line ? "> " : "  ") + lines[i], static_cast<size_t>(size.cols));
          out += i == line && color ? sgr("7", text) : text;
        }
        out += std::string(screen::k_clear_line_end) + "\r\n";
      }
      out += truncate_visible(title, static_cast<size_t>(size.cols)) + screen::k_clear_line_end;
      write_now(out);
    }
    const Key key = read_key(STDIN_FILENO, 250);
    const size_t before = chosen;
    if (key.is('q') || key.is('Q') || key.code == KeyCode::Escape || key.code == KeyCode::Interrupt ||
        key.code == KeyCode::EndOfInput) {
      break;
    } else if (key.code == KeyCode::Enter) {
      picked = Picked{choices[chosen], '\n'};
      break;
    } else if (key.code == KeyCode::Char && action_keys.find(key.ch) != std::string::npos) {
      picked = Picked{choices[chosen], key.ch};
      break;
    } else if (key.is('j') || key.code == KeyCode::Down) {
      chosen = std::min(chosen + 1, choices.size() - 1);
    } else if (key.is('k') || key.code == KeyCode::Up) {
      chosen = chosen > 0 ? chosen - 1 : 0;
    } else if (key.is('g') || key.code == KeyCode::Home) {
      chosen = 0;
    } else if (key.is('G') || key.code == KeyCode::End) {
      chosen = choices.size() - 1;
    }
    redraw = chosen != before;
  }
  write_now(screen::k_leave_alternate);
  return picked;
}

void show_paged(const std::vector<std::string>& lines, const std::string& title, bool color, bool always) {
  if (pager_wanted() && (always || lines.size() + 1 > static_cast<size_t>(screen_size().rows))) {
    page_interactively(lines, title, color);
    return;
  }
  for (const std::string& line : lines) std::cout << line << "\n";
  std::cout.flush();
}

}  // namespace tilecamp::runner
