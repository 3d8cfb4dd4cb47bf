// The trusted CPU references built into tilecamp, one per problem kind (copy, transpose, stencil,
// reductions, SGEMM...). An exercise names one in [reference] builtin = "..."; each reads and
// writes the exercise's parameters by name (docs/exercise-format.md lists them).
#pragma once

#include <string>
#include <vector>

#include "checker/grade/cases.h"
#include "checker/grade/exercise.h"

namespace tilecamp::grade {

std::vector<std::string> builtin_references();

// An Error when `name` is unknown or the exercise lacks a parameter or dimension it reads.
Status check_builtin_reference(const std::string& name, const Exercise& exercise);

// The buffers as the reference leaves them: the case's inputs, and the expected outputs.
std::vector<std::vector<uint8_t>> run_builtin_reference(const Exercise& exercise, const CaseData& data);

}  // namespace tilecamp::grade
