// Long text a screenful at a time, like `less`, built in so that it behaves the same on a bare
// machine: space/f/PgDn a page on, b/PgUp a page back, j/k/Enter/arrows a line, g/G the top and
// the end, q to leave.
#pragma once

#include <string>
#include <vector>

namespace tilecamp::runner {

// Pages `lines` on an interactive terminal unless TILECAMP_NO_PAGER is set; prints them straight
// otherwise, and also when they fit on the screen and `always` is false. `title` heads the status
// line.
void show_paged(const std::vector<std::string>& lines, const std::string& title, bool color, bool always = false);

}  // namespace tilecamp::runner
