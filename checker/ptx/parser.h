// PTX text -> Module. Parse errors name the PTX line; instructions the emulator does not know are
// kept as Opcode::Unsupported (with the reason) so that the error can name the source line
// where they are used.
#pragma once

#include <string_view>

#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp::ptx {

Expected<Module> parse_module(std::string_view text);

}  // namespace tilecamp::ptx
