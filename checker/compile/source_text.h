// A kernel file as text: its physical lines, and the bytes that make it no text at all. Both are
// read by the parent from its own copy of the file, never taken from the compiler's words: a
// finding quotes only what the learner wrote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "checker/compile/compiler.h"

namespace tilecamp {

// Line `line` (from 1) of `text`, without its line ending; empty past the end.
std::string physical_line(std::string_view text, int line);

// One error per line holding a NUL byte or bytes that are not UTF-8 (NVRTC stops reading at a
// NUL and loses its way in invalid UTF-8): at its line and column, naming the byte.
std::vector<CompileDiagnostic> non_text_bytes(const SourceFile& source);

// `message` with every quoted part ("...") that names a word or number the learner's `source`
// does not hold (and C++ does not define) replaced by "(not from your file)": a compiler message
// about the learner's file may quote only what they wrote. For feedback to students, whose kernel
// could otherwise make the compiler quote a file they cannot read.
std::string mask_foreign_quotes(const std::string& message, std::string_view source);

}  // namespace tilecamp
