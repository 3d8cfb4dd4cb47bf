// The pictures `tilecamp explain` and `tilecamp profile --explain` print: a shared-memory access
// as 32 lanes against 32 banks, a global access as lanes against the 32-byte sectors it
// touches, each with the sentence that says what would make it cheaper.
#pragma once

#include <string>

#include "checker/report/style.h"
#include "checker/viz/worst_access.h"

namespace tilecamp::runner {

// One line's accesses under its source text: of shared memory and of global memory, each kind
// (load, store) whose costliest request wastes, the worst first, or the costliest one alone when
// none wastes; and where ptxas merged the line's shared accesses into another line's.
std::string explain_line(const viz::LineAccesses& line, const std::string& source, const report::Style& style);

// The line with the worst bank conflicts and the one with the worst-coalesced global access, each
// drawn; a kind of access that wastes nothing is one sentence, naming its costliest line.
std::string explain_kernel(const viz::WorstAccessFinder& finder, const std::string& source, const report::Style& style);

// For a --line that made no access: "line 1 makes no global or shared-memory access; the lines
// that do: 16, 20, 28", or "line 9999 is past the end of the kernel: the file has 47 lines".
std::string no_access_at(const viz::WorstAccessFinder& finder, int line, const std::string& source);

// A CLI11 check of a --line/--explain value: "" when it is a line number (1 or more), else why not.
std::string check_line_number(const std::string& text);

}  // namespace tilecamp::runner
