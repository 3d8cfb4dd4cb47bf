// Lessons on a terminal: Markdown parsed by cmark and rendered from its syntax tree to lines of
// text, wrapped to a width, with ANSI styles (headings, emphasis, inline code, links, lists,
// block quotes, fenced code coloured by language) or, without colour, plain text that reads well
// in a pipe. Tables are GitHub-style pipe tables: the distribution's cmark is plain CommonMark,
// which parses them as paragraphs, so the renderer recognises a paragraph whose first two lines
// are a `| header |` row and a `|---|` delimiter row.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilecamp::runner {

struct MarkdownOptions {
  size_t width = 80;   // columns for text; code is never re-flowed, only cut when wider
  bool color = false;
};

// The rendered lines, without newlines. HTML comments (the lessons' test markers) are dropped.
std::vector<std::string> render_markdown(std::string_view markdown, const MarkdownOptions& options);

// One paragraph of inline Markdown (a hint, a message), wrapped: the first line starts after
// `first_prefix`, the others after `prefix` (the prefixes are part of the lines).
std::vector<std::string> render_inline_paragraph(std::string_view markdown, const MarkdownOptions& options,
                                                 std::string_view first_prefix, std::string_view prefix);

}  // namespace tilecamp::runner
