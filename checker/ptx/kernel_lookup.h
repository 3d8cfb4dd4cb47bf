// Finding a kernel by the name a person would write: `transposeTiled`, `sgemmTiled<16>`, a
// qualified `ns::kernel`, or the mangled PTX name itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/ptx/module.h"
#include "checker/util/expected.h"

namespace tilecamp::ptx {

// The readable form of an entry's name: "transposeTiled", "sgemmTiled<16>" (no return type,
// no parameter list). Names that are not mangled come back unchanged.
std::string readable_kernel_name(const std::string& mangled);

// An entry's parameter types as the source wrote them, from its mangled name:
// "_Z9vectorAddPKfS0_Pfi" -> {"float const*", "float const*", "float*", "int"}. Empty when the
// name is not mangled (an extern "C" kernel): the PTX then keeps only sizes.
std::optional<std::vector<std::string>> kernel_parameter_types(const std::string& mangled);

// A variable's name as written in the source: NVRTC demotes a kernel's `__shared__ float tile[..]`
// to a module symbol `_ZZ14transposeTiledPKfPfiiE4tile`; this gives back "tile".
std::string readable_variable_name(const std::string& mangled);

// The mangled name of the one entry matching `requested`. An error lists the kernels there are
// (nothing matched) or the candidates (several matched, e.g. two template instances).
Expected<std::string> resolve_kernel_name(const Module& module, std::string_view requested);

}  // namespace tilecamp::ptx
