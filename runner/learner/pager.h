// Long text a screenful at a time, like `less`, built in so that it behaves the same on a bare
// machine: space/f/PgDn a page on, b/PgUp a page back, j/k/Enter/arrows a line, g/G the top and
// the end, q to leave.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tilecamp::runner {

// Pages `lines` on an interactive terminal unless TILECAMP_NO_PAGER is set; prints them straight
// otherwise, and also when they fit on the screen and `always` is false. `title` heads the status
// line.
void show_paged(const std::vector<std::string>& lines, const std::string& title, bool color, bool always = false);

// A list to pick from on an interactive terminal: the lines whose index is in `choices` can be
// selected (arrows or j/k move, g/G the first and last); returns the selected line's index and
// the key that picked it (Enter or one of `action_keys`), or nothing when left with q or Escape.
// `start` is the line selected first.
struct Picked {
  size_t line = 0;
  char key = '\n';
};
std::optional<Picked> pick_line(const std::vector<std::string>& lines, const std::vector<size_t>& choices, size_t start,
                                const std::string& title, const std::string& action_keys, bool color);

}  // namespace tilecamp::runner
