// Syntax colouring for the code a learner reads: the lessons' fenced blocks, the solution, the
// source line a diagnostic points at. CUDA and C++ get keywords, types, CUDA's own names (the
// ones the course is about: __shared__, __syncthreads, threadIdx...), numbers, strings and
// comments, with the TODOs of an exercise standing out; shell commands get their comments dimmed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilecamp::runner {

enum class CodeLanguage { Cuda, Shell, Plain };

// From a fence's info string: "cuda", "cu", "c++", "cpp", "c" -> Cuda; "sh", "bash", "console",
// "shell" -> Shell; anything else Plain.
CodeLanguage code_language(std::string_view info);

// Colours one line of code. `in_comment` carries a /* comment */ from one line to the next.
std::string highlight_line(std::string_view line, CodeLanguage language, bool& in_comment);

// Every line of `code`, coloured (or as they are when `color` is false).
std::vector<std::string> highlight_code(std::string_view code, CodeLanguage language, bool color);

}  // namespace tilecamp::runner
