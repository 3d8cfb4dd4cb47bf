// A kernel's registers, shared memory and occupancy as `profile` and `check` show them: a short
// block of text and the `"occupancy"` object of their --json.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "checker/compile/compiler.h"
#include "checker/model/occupancy.h"
#include "checker/report/style.h"

namespace tilecamp::report {

std::string occupancy_text(const KernelResources& kernel, const model::Occupancy& occupancy,
                           uint32_t dynamic_shared_bytes, const std::string& gpu, const Style& style);
nlohmann::ordered_json occupancy_json(const KernelResources& kernel, const model::Occupancy& occupancy,
                                      uint32_t dynamic_shared_bytes);

}  // namespace tilecamp::report
