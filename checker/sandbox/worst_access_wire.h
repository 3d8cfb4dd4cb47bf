// What a WorstAccessFinder recorded in the sandbox, as a frame (wire.h), for `tilecamp explain`.
// Read from an untrusted child: bounded by the frame, enumerations range-checked.
#pragma once

#include "checker/child/wire.h"
#include "checker/viz/worst_access.h"

namespace tilecamp::sandbox {

using WorstAccessLines = std::map<std::pair<int, int>, viz::LineAccesses>;

void write_worst_accesses(child::MessageWriter& out, const WorstAccessLines& lines);
Expected<WorstAccessLines> read_worst_accesses(child::MessageReader& in);

}  // namespace tilecamp::sandbox
