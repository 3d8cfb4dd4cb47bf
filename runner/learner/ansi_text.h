// Text for a terminal: SGR styling, and measuring text that holds escapes and UTF-8, so that
// styled output can still be wrapped and aligned by its visible width.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilecamp::runner {

// `text` between the SGR sequence `codes` ("1", "1;36") and a reset; `text` itself when `codes`
// is empty.
std::string sgr(std::string_view codes, std::string_view text);

// Columns `text` takes: escape sequences count 0, each UTF-8 code point 1.
size_t visible_width(std::string_view text);

// `text` without its escape sequences.
std::string strip_escapes(std::string_view text);

// `text` cut to at most `width` columns (escapes kept, a reset added if one was cut off).
std::string truncate_visible(std::string_view text, size_t width);

// `text` padded with spaces to `width` columns (never cut).
std::string pad_visible(std::string_view text, size_t width);

std::vector<std::string> split_lines(std::string_view text);

// One line wrapped at spaces to `width` columns; the lines after the first are indented two
// columns more than the first (a hanging indent). Escapes never count and are never split.
std::vector<std::string> wrap_line(std::string_view line, size_t width);

// Code-point boundaries: `text` cut into pieces of at most `width` columns (plain text only).
std::vector<std::string> split_columns(std::string_view text, size_t width);

}  // namespace tilecamp::runner
