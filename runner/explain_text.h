// The pictures `tilecamp explain` and `tilecamp profile --explain` print: a shared-memory access
// as 32 lanes against 32 banks, a global access as lanes against the 32-byte sectors it
// touches, each with the sentence that says what would make it cheaper.
#pragma once

#include <string>

#include "checker/report/style.h"
#include "checker/viz/worst_access.h"

namespace tilecamp::runner {

// The worst shared and the worst global access of one line, under the line's source text. Both
// are drawn even when they cost what they should.
std::string explain_line(const viz::LineAccesses& line, const std::string& source, const report::Style& style);

// The line with the worst bank conflicts and the one with the worst-coalesced global access, each
// drawn; a kind of access that wastes nothing is one sentence, naming its costliest line.
std::string explain_kernel(const viz::WorstAccessFinder& finder, const std::string& source, const report::Style& style);

// For a --line that made no access: "line 1 makes no global or shared-memory access; the lines
// that do: 16, 20, 28".
std::string no_access_at(const viz::WorstAccessFinder& finder, int line);

}  // namespace tilecamp::runner
