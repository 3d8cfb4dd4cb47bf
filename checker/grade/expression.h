// The integer expressions of exercise metadata: buffer sizes, grids, blocks and scalar arguments
// written over the problem's dimensions and the learner's launch constants, e.g.
// `ceil_div(width, TILE_DIM)` or `(BM / TM) * (BN / TN)`.
//
// Grammar: sums and products of integers and names, `+ - * / %` with C precedence, unary minus,
// parentheses, and the functions ceil_div(a, b), min(a, b), max(a, b). Division truncates.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "checker/util/expected.h"

namespace tilecamp::grade {

using Bindings = std::map<std::string, int64_t>;

// The value of `text` with its names bound by `names`. Errors say what is wrong and where:
// "unknown name `TILE` (known: width, height, TILE_DIM)", "division by zero in `n / B`".
Expected<int64_t> evaluate(std::string_view text, const Bindings& names);

}  // namespace tilecamp::grade
